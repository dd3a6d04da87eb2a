import fc from 'fast-check';
import { parse as parseYaml } from 'yaml';
import { describe, expect, test } from 'vitest';
import { parseRule } from '../src/rules/parse-rule.js';
import { readRuleFrontmatter } from '../src/rules/read-rule-frontmatter.js';
import { readSimpleFrontmatter } from '../src/discover/simple-frontmatter.js';
import { splitGlobs } from '../src/rules/rule-adapter.js';
import { KNOWN_RULE_SOURCES } from '../src/config/types.js';
import { RULE_ADAPTERS, RULE_SOURCES, ruleEntryNames } from '../src/rules/rule-adapters.js';
import { frontmatterKeys } from '../src/rules/frontmatter-lines.js';

/** Parses `text` as a file in the first folder location of `source`; a compact view of the result. */
function classify(source: string, text: string) {
  const adapter = RULE_ADAPTERS.get(source);
  if (adapter === undefined) throw new Error(source);
  const location = adapter.locations.find((candidate) => candidate.type === 'folder');
  if (location === undefined) throw new Error(source);
  const parsed = parseRule(text, adapter, location);
  return parsed.ok
    ? { kind: parsed.kind, globs: parsed.globs, description: parsed.description, lenient: parsed.lenient }
    : { problem: `${parsed.reason}: ${parsed.problem}` };
}

const fm = (lines: string) => `---\n${lines}\n---\nbody\n`;
const notPlain = (line: number, value: string) =>
  `line ${line} of the frontmatter is not valid YAML, and ${JSON.stringify(value)} is not a plain value`;

describe('the adapter table', () => {
  test('lists the sources in table order, the names the config accepts', () => {
    expect(RULE_SOURCES).toEqual([...KNOWN_RULE_SOURCES]);
    expect(RULE_SOURCES.slice(0, 5)).toEqual(['cursor', 'claude', 'copilot', 'windsurf', 'cline']);
  });
  test('names the first segment of every location', () => {
    expect([...ruleEntryNames(RULE_SOURCES)]).toEqual([
      '.cursor',
      '.claude',
      '.github',
      '.windsurf',
      '.devin',
      'AGENTS.md',
      'agents.md',
      '.clinerules',
      '.kiro',
      '.continue',
      '.roo',
      '.kilocode',
      '.junie',
      '.rules',
      '.augment',
      '.qwen',
    ]);
    expect([...ruleEntryNames(['copilot', 'nope'])]).toEqual(['.github']);
  });
  test('with instruction names, leaves out the files a nested owner does not read as rules', () => {
    // Windsurf's AGENTS.md is read as the nested instruction file; its agents.md, a name the
    // instructions lack, is still a rule; Zed's .rules is read in the work dir only.
    const names = [...ruleEntryNames(RULE_SOURCES, new Set(['AGENTS.md', 'CLAUDE.md']))];
    expect(names).toContain('agents.md');
    expect(names).toContain('.windsurf');
    expect(names).not.toContain('AGENTS.md');
    expect(names).not.toContain('.rules');
    expect([...ruleEntryNames(['windsurf'], new Set(['agents.md']))]).toEqual([
      '.windsurf',
      '.devin',
      'AGENTS.md',
    ]);
  });
});

describe('cursor', () => {
  test.each([
    // frontmatter, expected
    [fm('alwaysApply: true'), { kind: 'always', globs: [], description: '', lenient: false }],
    [fm('alwaysApply: true\nglobs: "*.ts"'), { kind: 'always', globs: [], description: '', lenient: false }], // always wins
    [
      fm('globs: ["src/**/*.ts", "*.tsx"]'),
      { kind: 'glob', globs: ['src/**/*.ts', '*.tsx'], description: '', lenient: false },
    ],
    [
      fm('globs: src/**/*.ts, lib/*.js'),
      { kind: 'glob', globs: ['src/**/*.ts', 'lib/*.js'], description: '', lenient: false },
    ],
    // unquoted `*` is an alias to YAML: read leniently, as Cursor does
    [
      fm('description: TS\nglobs: *.ts, *.tsx\nalwaysApply: false'),
      { kind: 'glob', globs: ['*.ts', '*.tsx'], description: 'TS', lenient: true },
    ],
    [
      fm('globs: "{src,lib}/**/*.ts,*.md"'),
      { kind: 'glob', globs: ['{src,lib}/**/*.ts', '*.md'], description: '', lenient: false },
    ],
    [
      fm('description: Use for migrations\nglobs:\nalwaysApply: false'),
      { kind: 'requested', globs: [], description: 'Use for migrations', lenient: false },
    ],
    [
      fm('description:\nglobs:\nalwaysApply: false'),
      { kind: 'manual', globs: [], description: '', lenient: false },
    ],
    ['no frontmatter at all\n', { kind: 'manual', globs: [], description: '', lenient: false }],
    [
      fm('alwaysApply: "true"'),
      { problem: 'bad frontmatter: alwaysApply must be true or false, received "true"' },
    ],
    [fm('alwaysApply: 1'), { problem: 'bad frontmatter: alwaysApply must be true or false, received 1' }],
    [
      fm('alwaysApply: yes please\nglobs: *.ts'),
      { problem: 'bad frontmatter: alwaysApply must be true or false, received "yes please"' },
    ],
    [
      fm('globs: {a: 1}'),
      { problem: 'bad frontmatter: globs must be a string or a list of strings, received {"a":1}' },
    ],
    [fm('globs: ["", "*.ts"]'), { problem: 'bad glob: glob "": the glob is empty' }],
    [
      fm('globs: /etc/*.conf'),
      {
        problem:
          'bad glob: glob "/etc/*.conf": absolute globs are not allowed (globs are relative to the directory holding the rules folder)',
      },
    ],
    [fm('globs: "!*.ts"'), { problem: 'bad glob: glob "!*.ts": cursor does not support negation' }],
  ])('%j', (text, expected) => {
    expect(classify('cursor', text)).toEqual(expected);
  });
});

describe('claude', () => {
  test.each([
    [
      fm('paths:\n  - "src/api/**/*.ts"\n  - "tests/**/*.test.ts"'),
      { kind: 'glob', globs: ['src/api/**/*.ts', 'tests/**/*.test.ts'], description: '', lenient: false },
    ],
    [
      fm('paths: src/**/*.{ts,tsx}'),
      { kind: 'glob', globs: ['src/**/*.{ts,tsx}'], description: '', lenient: false },
    ], // braces keep their comma
    [fm('paths:\n  - **/*.ts'), { kind: 'glob', globs: ['**/*.ts'], description: '', lenient: true }], // unquoted list item
    ['# Just text\n', { kind: 'always', globs: [], description: '', lenient: false }],
    [fm('description: Style'), { kind: 'always', globs: [], description: 'Style', lenient: false }],
    [fm('paths: []'), { problem: 'bad frontmatter: paths is an empty list' }],
    [fm('paths: 3'), { problem: 'bad frontmatter: paths must be a string or a list of strings, received 3' }],
    [
      fm('paths: ["../other/*.ts"]'),
      {
        problem:
          'bad glob: glob "../other/*.ts": a glob may not climb out of the directory holding the rules folder',
      },
    ],
  ])('%j', (text, expected) => {
    expect(classify('claude', text)).toEqual(expected);
  });
});

describe('copilot', () => {
  test.each([
    [
      fm('applyTo: "**/*_test.go"'),
      { kind: 'glob', globs: ['**/*_test.go'], description: '', lenient: false },
    ],
    [
      fm('applyTo: "**/*.ts,**/*.tsx"\ndescription: TS'),
      { kind: 'glob', globs: ['**/*.ts', '**/*.tsx'], description: 'TS', lenient: false },
    ],
    [fm('applyTo: "**"'), { kind: 'always', globs: [], description: '', lenient: false }],
    [fm('applyTo: "**/*"'), { kind: 'always', globs: [], description: '', lenient: false }],
    [fm('applyTo: "src/**, **"'), { kind: 'always', globs: [], description: '', lenient: false }], // any "every file" pattern wins
    [
      fm('description: Only when attached'),
      { kind: 'manual', globs: [], description: 'Only when attached', lenient: false },
    ],
    [
      fm('applyTo: "/abs/*.ts"'),
      {
        problem:
          'bad glob: glob "/abs/*.ts": absolute globs are not allowed (globs are relative to the directory holding the rules folder)',
      },
    ],
  ])('%j', (text, expected) => {
    expect(classify('copilot', text)).toEqual(expected);
  });
  test('copilot-instructions.md is always, whatever its frontmatter', () => {
    const adapter = RULE_ADAPTERS.get('copilot');
    const location = adapter?.locations.find((candidate) => candidate.type === 'file');
    if (adapter === undefined || location === undefined) throw new Error('copilot');
    expect(parseRule(fm('applyTo: "*.go"'), adapter, location)).toMatchObject({
      ok: true,
      kind: 'always',
      text: 'body\n',
    });
    // a Markdown rule line at the top opens no frontmatter: the whole text stays
    expect(parseRule('---\n# Title\n', adapter, location)).toMatchObject({
      ok: true,
      kind: 'always',
      text: '---\n# Title\n',
    });
  });
});

describe('windsurf', () => {
  test.each([
    [fm('trigger: always_on'), { kind: 'always', globs: [], description: '', lenient: false }],
    [
      fm('trigger: glob\nglobs: *.js, src/**/*.ts'),
      { kind: 'glob', globs: ['*.js', 'src/**/*.ts'], description: '', lenient: true },
    ],
    [
      fm('trigger: model_decision\ndescription: When writing SQL'),
      { kind: 'requested', globs: [], description: 'When writing SQL', lenient: false },
    ],
    [fm('trigger: manual'), { kind: 'manual', globs: [], description: '', lenient: false }],
    ['plain\n', { kind: 'manual', globs: [], description: '', lenient: false }],
    [
      fm('trigger: sometimes'),
      {
        problem:
          'bad frontmatter: trigger must be one of always_on, glob, model_decision, manual, received "sometimes"',
      },
    ],
    [fm('trigger: glob'), { problem: 'bad frontmatter: trigger is glob but globs is empty' }],
  ])('%j', (text, expected) => {
    expect(classify('windsurf', text)).toEqual(expected);
  });
});

describe('cline', () => {
  test.each([
    [
      fm('paths:\n  - "src/components/**"\n  - "!src/components/legacy/**"'),
      {
        kind: 'glob',
        globs: ['src/components/**', '!src/components/legacy/**'],
        description: '',
        lenient: false,
      },
    ],
    ['# Rules\n', { kind: 'always', globs: [], description: '', lenient: false }],
    [fm('paths: []'), { problem: 'bad frontmatter: paths is an empty list' }],
  ])('%j', (text, expected) => {
    expect(classify('cline', text)).toEqual(expected);
  });
});

describe('an empty glob string is refused, never read as absent', () => {
  test.each([
    ['claude', fm('paths: ""')],
    ['claude', fm("paths: '  '")],
    ['cline', fm('paths: ""')],
    ['cursor', fm('globs: ""')],
    ['cursor', fm('description: TS\nglobs: ""\nalwaysApply: false')],
    ['cursor', fm('globs: ""\ndescription: *.ts')], // read line by line
    ['copilot', fm('applyTo: ""')],
    ['windsurf', fm('trigger: glob\nglobs: ""')],
  ])('%s %j', (source, text) => {
    expect(classify(source, text)).toEqual({ problem: 'bad glob: glob "": the glob is empty' });
  });
  test('an unclosed list is bad frontmatter, not the glob "["', () => {
    expect(classify('claude', fm('paths: ['))).toEqual({
      problem: `bad frontmatter: ${notPlain(2, '[')}`,
    });
  });
  test.each([
    // the key with nothing after it has no value (YAML null), as Cursor writes new rule files
    ['cursor', fm('description:\nglobs:\nalwaysApply: false'), 'manual'],
    ['cursor', fm('description: TS\nglobs:\nalwaysApply: false\nx: *.ts'), 'requested'], // line by line
    ['claude', fm('paths:'), 'always'],
    ['copilot', fm('applyTo:'), 'manual'],
  ])('%s %j without a value is absent', (source, text, kind) => {
    expect(classify(source, text)).toMatchObject({ kind, globs: [] });
  });
});

describe('frontmatter', () => {
  test.each([
    // text, expected
    [
      '---\nglobs: "*.ts"\n---\n# Body\n',
      { ok: true, data: { globs: '*.ts' }, body: '# Body\n', lenient: false },
    ],
    [
      '---\r\nglobs: "*.ts"\r\n---\r\n# Body\r\n',
      { ok: true, data: { globs: '*.ts' }, body: '# Body\r\n', lenient: false },
    ],
    ['---\n---\nbody', { ok: true, data: {}, body: 'body', lenient: false }],
    ['---\nglobs: "*.ts"\n---', { ok: true, data: { globs: '*.ts' }, body: '', lenient: false }],
    ['no fence\n---\nx', { ok: true, data: {}, body: 'no fence\n---\nx', lenient: false }],
    // a fence naming a language is no frontmatter: never code
    [
      '---js\nmodule.exports = {}\n---\nbody',
      { ok: true, data: {}, body: '---js\nmodule.exports = {}\n---\nbody', lenient: false },
    ],
    [
      '---\nglobs: *.ts # the TS files\nother: [\n---\nb',
      { ok: true, data: { globs: '*.ts' }, body: 'b', lenient: true },
    ],
    [
      '---\nglobs: [*.ts, "*.md"]\n---\nb',
      { ok: true, data: { globs: ['*.ts', '*.md'] }, body: 'b', lenient: true },
    ],
    [
      '---\nglobs: "*.ts"\nbody without a closing fence',
      { ok: false, problem: 'the frontmatter has no closing --- line' },
    ],
    // broken YAML is no glob: the lenient reader refuses what the vendors never write unquoted
    ['---\nglobs: [\n---\nb', { ok: false, problem: notPlain(2, '[') }],
    ['---\nglobs: [*.ts\n---\nb', { ok: false, problem: notPlain(2, '[*.ts') }],
    ['---\nglobs: "*.ts\n---\nb', { ok: false, problem: notPlain(2, '"*.ts') }],
    ['---\nglobs: {a: *.ts}\n---\nb', { ok: false, problem: notPlain(2, '{a: *.ts}') }],
    ['---\nglobs:\n  - [\n---\nb', { ok: false, problem: notPlain(3, '[') }],
    [
      '---\nglobs: {src,lib}/*.ts, *.md\n---\nb',
      { ok: true, data: { globs: '{src,lib}/*.ts, *.md' }, body: 'b', lenient: true },
    ],
    // A line that starts with dashes but is no fence stays in the block YAML reads.
    [
      '---\ndescription: a\n---x: 1\nglobs: "*.ts"\n---\nb',
      { ok: true, data: { description: 'a', '---x': 1, globs: '*.ts' }, body: 'b', lenient: false },
    ],
    [
      '---\nglobs: *.ts\nthis line is prose\n---\nb',
      { ok: false, problem: 'line 3 of the frontmatter is neither YAML nor "key: value"' },
    ],
  ])('%j', (text, expected) => {
    expect(readRuleFrontmatter(text, ['globs'])).toEqual(expected);
  });
});

describe('comma-separated globs', () => {
  test.each([
    ['*.ts, *.tsx', ['*.ts', '*.tsx']],
    ['src/**/*.{ts,tsx},lib/*.js', ['src/**/*.{ts,tsx}', 'lib/*.js']],
    ['a/[,]/*.md, b', ['a/[,]/*.md', 'b']], // a comma in a bracket class is part of the glob
    ['*.ts,', ['*.ts']], // a trailing comma adds nothing
    [' , ', []],
    ['  src/**/*.ts  ', ['src/**/*.ts']], // one glob: trimmed
    ['{a,b}/*.ts', ['{a,b}/*.ts']],
    ['', []],
    [' \t ', []],
  ])('%j', (text, expected) => {
    expect(splitGlobs(text)).toEqual(expected);
  });
});

describe('the fast path for simple frontmatter', () => {
  // Values at every edge of a one-line scalar: numbers and keywords of the core schema, indicators
  // at the start, `: ` and ` #` inside, tabs, non-ASCII, Unicode line breaks, the BOM, controls.
  const EDGES = [
    ...['', 'true', 'false', 'True', 'FALSE', 'null', 'Null', 'NULL', '~', 'yes', 'on'],
    ...['1', '+1', '-1', '0x1', '0o7', '0b1', '1_000', '.5', '1.', '1e3', '-2.5E-3', '.inf', '-.Inf'],
    ...['.NaN', '.nan ', 'nan', 'Infinity'],
    ...['-a', '- a', '-', '--', '---', '--- a', '...', '?a', '? a', '?', ':a', ': a', ':', '-:'],
    ...['%a', '@a', '`a', '!a', '!!str a', '&a a', '*a', '|', '>', '[a]', '{a}', ',a', '#a'],
    ...['a, b', 'a:b', 'a:', 'a :b', 'a: b', 'a:	b', 'a #b', 'a#b', 'a\t#b', 'a\tb', 'a  b'],
    ...['*.ts', '"a\\"b"', "'it''s'", '"a # b"', "'a: b'", '"été"', '"a\u0001"', "'\\'"],
    ...['été', '中文', '😀 ok', 'a\u00a0b', '\u00a0a', 'a\u2028b', 'a\u0085b', 'a\ufeffb', 'a\u0001b'],
    ...['a\rb', 'a\ud800b', 'a\ufffeb', 'Web client rules (React, accessibility, no inline styles)'],
  ];
  const CHARACTERS = [
    ...'abcXYZ019 _-.,:;#?!*&|>\'"%@`~^=+<>()[]{}/\\$',
    ...['\t', 'é', 'ß', '中', '😀', '\u00a0', '\u2028', '\u0085', '\ufeff', '\u0001', '\r', '\ud800'],
  ];

  test('reads exactly what YAML reads, or declines', () => {
    const key = fc.constantFrom(
      'globs',
      'description',
      'alwaysApply',
      'paths',
      'true',
      'NULL',
      'y',
      'x-y',
      '__proto__',
      'a_1',
      'k'.repeat(1_025),
    );
    const value = fc.oneof(
      fc.constantFrom(...EDGES),
      fc.stringMatching(/^[A-Za-z0-9_./*?, "'#:-]{0,12}$/),
      // One-line flow sequences, the common Cursor `globs` shape, and their near misses.
      fc.stringMatching(/^\[[A-Za-z0-9_./*?, "'#:&!\\[\]-]{0,14}\]$/),
      fc.string({ unit: fc.constantFrom(...CHARACTERS), maxLength: 12 }),
    );
    const separator = fc.constantFrom(' ', '  ', '\t');
    const line = fc.oneof(
      fc.tuple(key, separator, value).map(([k, blank, v]) => `${k}:${v === '' ? '' : blank}${v}`),
      fc.constantFrom(
        '# comment',
        '#',
        '',
        '  - item',
        'list:\n  - a',
        '  # indented',
        '\u00a0',
        'k: v\r',
        '\t',
        ' \t ',
      ),
    );
    fc.assert(
      fc.property(fc.array(line, { maxLength: 5 }), (lines) => {
        const block = lines.join('\n');
        const simple = readSimpleFrontmatter(block);
        if (simple === null) return;
        // Each line ends, the last one too: the yaml package keeps a `\r` that ends its whole input
        // (as in `k: v\r`) in the value, where the fast path reads a CRLF line end.
        const yaml: unknown = parseYaml(`${block}\n`, { schema: 'core' }) ?? {};
        expect(simple).toEqual(yaml);
      }),
      { numRuns: 5000 },
    );
  });

  test.each([
    'Web client rules (React, accessibility, no inline styles)',
    'Règles du client web — accessibilité, pas de styles en ligne',
    '中文说明 😀',
    'src/**/*.{ts,tsx}',
    `Use "double" and 'single' quotes, 100% of the time; C# & F# too!`,
    'a:b, -x, ?y, :z, [not a list], {not a map}',
    '-x',
    '?y',
    ':z',
    'tab\tinside',
    '50 rules',
  ])('answers without YAML, as YAML does: %j', (text) => {
    const block = `description: ${text}\nalwaysApply: False\nglobs: ~`;
    const expected = { description: text, alwaysApply: false, globs: null };
    expect(readSimpleFrontmatter(block)).toEqual(expected);
    expect(parseYaml(block, { schema: 'core' })).toEqual(expected);
  });

  test.each([
    [
      'globs: src/**/*.ts, lib/*.js\nalwaysApply: false',
      { globs: 'src/**/*.ts, lib/*.js', alwaysApply: false },
    ],
    ['description: "Use: when"\nglobs:', { description: 'Use: when', globs: null }],
    ['globs: *.ts', null], // an alias to YAML: declined, YAML then the lenient reader decide
    ['globs: ["**/*.ts", "**/*.tsx"]', { globs: ['**/*.ts', '**/*.tsx'] }],
    [
      "globs: [src/*.ts, 'lib/**', packages/*-provider/**]",
      { globs: ['src/*.ts', 'lib/**', 'packages/*-provider/**'] },
    ],
    ['globs: []', { globs: [] }],
    ['globs: [*.ts]', null], // an alias inside the list: declined
    ['globs: [a, 1]', null], // a number: declined
    ['globs: ["a, b"]', null], // a comma inside quotes: declined
    ['paths:\n  - a', null],
    ['alwaysApply: 1', null],
  ])('%j', (block, expected) => {
    expect(readSimpleFrontmatter(block)).toEqual(expected);
  });
});

describe('qwen', () => {
  test.each([
    // frontmatter, expected: as Qwen Code 0.24.4's parseRuleFile reads `paths`
    [fm('paths: ["src/**", "lib/*.ts"]'), { kind: 'glob', globs: ['src/**', 'lib/*.ts'] }],
    [fm('paths: "src/**,lib/**"'), { kind: 'glob', globs: ['src/**,lib/**'] }], // one string, one pattern
    [fm('paths:\n  - "!src/**"'), { kind: 'glob', globs: ['!src/**'] }],
    [fm('paths: []'), { kind: 'always', globs: [] }], // an empty list is none
    [fm('paths: ""'), { kind: 'always', globs: [] }],
    [fm('paths: 5'), { kind: 'always', globs: [] }], // another type is none
    [fm('paths: [1, ""]'), { kind: 'glob', globs: ['1'] }], // items are strings, empty ones dropped
    [fm('description: Only a description'), { kind: 'always', globs: [] }],
    ['No frontmatter.\n', { kind: 'always', globs: [] }],
  ])('%j', (text, expected) => {
    const { kind, globs } = classify('qwen', text) as { kind: string; globs: readonly string[] };
    expect({ kind, globs }).toEqual(expected);
  });
});

describe('what an adapter says its tool misreads (doctor, misread-frontmatter)', () => {
  const misreads = (source: string, text: string) =>
    (RULE_ADAPTERS.get(source)?.misreads?.(frontmatterKeys(text)) ?? []).map((item) => [
      item.key.key,
      item.key.line,
      item.lost === true,
    ]);

  test("claude: paths as a list or quoted, and another tool's scoping key without paths", () => {
    expect(misreads('claude', '---\npaths:\n  - src/**\n  - lib/**\n---\nbody\n')).toEqual([
      ['paths', 2, false],
    ]);
    expect(misreads('claude', '---\npaths: "src/**"\n---\n')).toEqual([['paths', 2, false]]);
    expect(misreads('claude', '---\npaths: src/**, lib/**\n---\n')).toEqual([]);
    expect(misreads('claude', '---\ndescription: x\napplyTo: src/**\n---\n')).toEqual([
      ['applyTo', 3, false],
    ]);
    expect(misreads('claude', '---\nglobs: src/**\nalwaysApply: true\n---\n')).toEqual([['globs', 2, false]]);
  });

  test('cursor: a quoted alwaysApply loses the rule; a plain one is read', () => {
    expect(misreads('cursor', "---\nalwaysApply: 'true'\n---\n")).toEqual([['alwaysApply', 2, true]]);
    expect(misreads('cursor', '---\nalwaysApply: true\n---\n')).toEqual([]);
  });

  test('a source whose tool reads every form as written has no list', () => {
    expect(misreads('windsurf', '---\ntrigger: "always_on"\n---\n')).toEqual([]);
  });
});
