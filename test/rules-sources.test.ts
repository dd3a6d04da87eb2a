import path from 'node:path';
import fc from 'fast-check';
import { Readable } from 'node:stream';
import { describe, expect, test } from 'vitest';
import { createResolver } from '../src/index.js';
import { loadConfig, parseConfig } from '../src/index.js';
import { createMemoryFileSystem } from '../src/fs/memory-file-system.js';
import { createMcpConnection, type ToolResult } from '../src/mcp/mcp-connection.js';
import { rulesOfResolver } from '../src/mcp/rule-source.js';
import { parseRule } from '../src/rules/parse-rule.js';
import type { RuleLocation } from '../src/rules/rule-adapter.js';
import { RULE_ADAPTERS } from '../src/rules/rule-adapters.js';
import { checkRuleRegex, ruleRegexMatches } from '../src/rules/rule-regex.js';
import { cli } from './helpers/cli.js';
import { tempTree } from './helpers/disk.js';
import { memoryResolver, WORK } from './helpers/memory.js';
import { HOST_REGISTRY } from '../src/hosts/index.js';

/** Parses `text` as a file of `source` at `location` (default: its first folder); a compact view. */
function classify(source: string, text: string, location?: RuleLocation) {
  const adapter = RULE_ADAPTERS.get(source);
  if (adapter === undefined) throw new Error(source);
  const where = location ?? adapter.locations.find((candidate) => candidate.type === 'folder');
  if (where === undefined) throw new Error(source);
  const parsed = parseRule(text, adapter, where);
  if (!parsed.ok) return { problem: `${parsed.reason}: ${parsed.problem}` };
  const { kind, globs, description, agents, regex } = parsed;
  return { kind, globs, description, only: agents.only, except: agents.except, regex };
}

const fm = (lines: string) => `---\n${lines}\n---\nbody\n`;
/** The compact view of a rule every agent gets. */
const rule = (kind: string, globs: string[] = [], description = '', regex: string[] = []) => ({
  kind,
  globs,
  description,
  only: [],
  except: [],
  regex,
});

describe('kiro: inclusion → kind (kiro.dev/docs/steering)', () => {
  test.each([
    ['no frontmatter', 'Use pnpm.\n', rule('always')],
    ['inclusion: always', fm('inclusion: always'), rule('always')],
    ['frontmatter without inclusion', fm('description: x'), rule('always', [], 'x')],
    [
      'fileMatch, one pattern',
      fm('inclusion: fileMatch\nfileMatchPattern: "components/**/*.tsx"'),
      rule('glob', ['components/**/*.tsx']),
    ],
    [
      'fileMatch, a list',
      fm('inclusion: fileMatch\nfileMatchPattern: ["**/*.ts", "**/*.tsx"]'),
      rule('glob', ['**/*.ts', '**/*.tsx']),
    ],
    // A string is one pattern: Kiro does not split it at commas (kirodotdev/Kiro#11095).
    [
      'fileMatch, a comma in a string',
      fm('inclusion: fileMatch\nfileMatchPattern: "a/*.ts,b/*.ts"'),
      rule('glob', ['a/*.ts,b/*.ts']),
    ],
    [
      'auto',
      fm('inclusion: auto\nname: api\ndescription: REST conventions'),
      rule('requested', [], 'REST conventions'),
    ],
    ['manual', fm('inclusion: manual'), rule('manual')],
    [
      'unquoted glob, read line by line',
      fm('inclusion: fileMatch\nfileMatchPattern: *.py'),
      rule('glob', ['*.py']),
    ],
  ])('%s', (_name, text, expected) => {
    expect(classify('kiro', text)).toEqual(expected);
  });
  test.each([
    [
      fm('inclusion: sometimes'),
      'bad frontmatter: inclusion must be one of always, fileMatch, manual, auto, received "sometimes"',
    ],
    [fm('inclusion: fileMatch'), 'bad frontmatter: inclusion is fileMatch but fileMatchPattern is missing'],
    [fm('inclusion: fileMatch\nfileMatchPattern: []'), 'bad glob: glob "": the glob is empty'],
    [
      fm('inclusion: fileMatch\nfileMatchPattern: "../x/**"'),
      'bad glob: glob "../x/**": a glob may not climb out of the directory holding the rules folder',
    ],
  ])('refused: %j', (text, problem) => {
    expect(classify('kiro', text)).toEqual({ problem });
  });
});

describe('continue: frontmatter → kind (continuedev/continue getSystemMessageWithRules.ts)', () => {
  test.each([
    ['no frontmatter', 'Be terse.\n', rule('always')],
    ['alwaysApply: true beats globs', fm('alwaysApply: true\nglobs: "*.ts"'), rule('always')],
    ['globs, one string (not split)', fm('globs: "src/**/*.{ts,tsx}"'), rule('glob', ['src/**/*.{ts,tsx}'])],
    [
      'globs, a list with an exclusion',
      fm('globs: ["src/**", "!src/gen/**"]'),
      rule('glob', ['src/**', '!src/gen/**']),
    ],
    ['regex alone', fm('regex: "^import React"'), rule('glob', [], '', ['^import React'])],
    [
      'globs and regex',
      fm('globs: "**/*.ts"\nregex: ["useEffect", "useState"]'),
      rule('glob', ['**/*.ts'], '', ['useEffect', 'useState']),
    ],
    [
      'alwaysApply: false, no globs → requested',
      fm('alwaysApply: false\ndescription: Release steps'),
      rule('requested', [], 'Release steps'),
    ],
    [
      'description only → always',
      fm('name: Style\ndescription: House style'),
      rule('always', [], 'House style'),
    ],
  ])('%s', (_name, text, expected) => {
    expect(classify('continue', text)).toEqual(expected);
  });
  test.each([
    [fm('alwaysApply: "yes"'), 'bad frontmatter: alwaysApply must be true or false, received "yes"'],
    [
      fm('regex: "(a)\\\\1"'),
      'bad regex: regex "(a)\\\\1" is not accepted: back-references and look-arounds cannot be matched in linear time',
    ],
    [
      fm('regex: "(?<=x)y"'),
      'bad regex: regex "(?<=x)y" is not accepted: back-references and look-arounds cannot be matched in linear time',
    ],
    [fm('globs: {a: 1}'), 'bad frontmatter: globs must be a string or a list of strings, received {"a":1}'],
  ])('refused: %j', (text, problem) => {
    expect(classify('continue', text)).toEqual({ problem });
  });
});

describe('roo and kilo: every file always on, the mode folder names the agent', () => {
  test.each(['roo', 'kilo'])('%s: frontmatter does not change the kind', (source) => {
    expect(classify(source, fm('globs: "*.ts"'))).toEqual(rule('always'));
    expect(classify(source, 'plain text rule\n')).toEqual(rule('always'));
  });
  test('the locations: rules/ for every mode, rules-<mode>/ per mode (roo: every file, test/rules-roo.test.ts)', () => {
    expect(
      RULE_ADAPTERS.get('roo')?.locations.map((location) =>
        location.type === 'folder'
          ? { path: location.path, extensions: location.extensions, agentPrefix: location.agentPrefix }
          : location,
      ),
    ).toEqual([
      { path: '.roo/rules', extensions: 'any', agentPrefix: undefined },
      { path: '.roo', extensions: 'any', agentPrefix: 'rules-' },
    ]);
    expect(RULE_ADAPTERS.get('kilo')?.locations.map((location) => location.path)).toEqual([
      '.kilocode/rules',
      '.kilocode',
    ]);
  });
});

describe('copilot: excludeAgent → agent scope (github/docs custom-instructions-path.md)', () => {
  test.each([
    [fm('applyTo: "**"'), { kind: 'always', except: [] }],
    [fm('applyTo: "**"\nexcludeAgent: "code-review"'), { kind: 'always', except: ['code-review'] }],
    // The coding agent was renamed the cloud agent: either name excludes it.
    [
      fm('applyTo: "**/*.rs"\nexcludeAgent: "cloud-agent"'),
      { kind: 'glob', except: ['cloud-agent', 'coding-agent'] },
    ],
    [
      fm('applyTo: "**/*.rs"\nexcludeAgent: "coding-agent"'),
      { kind: 'glob', except: ['cloud-agent', 'coding-agent'] },
    ],
    [fm('excludeAgent: code-review'), { kind: 'manual', except: ['code-review'] }],
  ])('%j', (text, expected) => {
    const parsed = classify('copilot', text);
    expect({ kind: parsed.kind, except: parsed.except }).toEqual(expected);
  });
  test('a value of the wrong type is refused', () => {
    expect(classify('copilot', fm('applyTo: "**"\nexcludeAgent: 3'))).toEqual({
      problem: 'bad frontmatter: excludeAgent must be a string or a list of strings, received 3',
    });
  });
});

describe('windsurf: a nested AGENTS.md, and the 12,000-character cut', () => {
  const agentsFile = RULE_ADAPTERS.get('windsurf')?.locations.find(
    (location) => location.path === 'AGENTS.md',
  );
  test('an AGENTS.md is a glob rule for everything under its directory, frontmatter or not', () => {
    expect(classify('windsurf', '# API\nUse zod.\n', agentsFile)).toEqual(rule('glob', ['**']));
    expect(classify('windsurf', fm('trigger: manual'), agentsFile)).toEqual(rule('glob', ['**']));
  });
  test('a rule longer than 12,000 characters is cut there', () => {
    const adapter = RULE_ADAPTERS.get('windsurf');
    if (adapter === undefined || agentsFile === undefined) throw new Error('windsurf');
    const parsed = parseRule('x'.repeat(12_005), adapter, agentsFile);
    expect(parsed.ok && parsed.text.length).toBe(12_000);
    expect(parsed.ok && parsed.truncated).toBe(true);
    const short = parseRule(fm('trigger: always_on'), adapter, adapter.locations[0] as RuleLocation);
    expect(short.ok && short.truncated).toBe(false);
  });
});

describe('content patterns match in linear time', () => {
  test('a pattern a backtracking engine blows up on answers at once, and right', () => {
    // `(a+)+$` against 100,000 `a`s and a `!` takes a backtracking engine longer than any test allows.
    expect(checkRuleRegex('(a+)+$')).toBeNull();
    expect(ruleRegexMatches('(a+)+$', `${'a'.repeat(100_000)}!`)).toBe(false);
    expect(ruleRegexMatches('(a+)+$', 'aaaa')).toBe(true);
  });
  test('JavaScript semantics for the common cases: `^` is the text start unless (?m)', () => {
    expect(ruleRegexMatches('^import', 'x\nimport a')).toBe(false);
    expect(ruleRegexMatches('(?m)^import', 'x\nimport a')).toBe(true);
  });
  test('empty and overlong patterns are refused', () => {
    expect(checkRuleRegex('')).toBe('regex is empty');
    expect(checkRuleRegex('a'.repeat(1_001))).toMatch(/is longer than 1000 characters/);
  });
});

/** A fixture repository with rule files of every new source. */
const REPO = {
  '/w/AGENTS.md': 'root agents',
  '/w/.kiro/steering/product.md': 'kiro always',
  '/w/.kiro/steering/api.md': '---\ninclusion: fileMatch\nfileMatchPattern: ["src/api/**"]\n---\nkiro api',
  '/w/.kiro/steering/review.md':
    '---\ninclusion: auto\nname: review\ndescription: Review checklist\n---\nkiro review',
  '/w/.continue/rules/react.md': '---\nglobs: "src/**/*.tsx"\nregex: "useEffect"\n---\ncontinue effects',
  '/w/.continue/rules/release.md':
    '---\nalwaysApply: false\ndescription: Release steps\n---\ncontinue release',
  '/w/.roo/rules/general.md': 'roo every mode',
  '/w/.roo/rules-code/style.md': 'roo code mode',
  '/w/.roo/rules-architect/plans.txt': 'roo architect mode',
  '/w/.github/instructions/review.instructions.md':
    '---\napplyTo: "**"\nexcludeAgent: "code-review"\n---\nnot for review',
  '/w/.github/instructions/agent.instructions.md':
    '---\napplyTo: "**"\nexcludeAgent: "coding-agent"\n---\nnot for the cloud agent',
  '/w/pkg/AGENTS.md': 'pkg agents',
  '/w/src/api/user.ts': 'code',
  '/w/src/ui/App.tsx': 'useEffect(() => {})',
  '/w/src/ui/Plain.tsx': 'plain',
  '/w/pkg/lib/a.ts': 'code',
};
const SOURCES = { rules: { sources: ['kiro', 'continue', 'roo', 'copilot', 'windsurf'] } };

const ruleLayer = (files: readonly { layer: string; entry: string; text: string }[]) =>
  files.filter((file) => file.layer === 'rules').map((file) => file.text);

describe('a fixture repository through resolve', () => {
  test('no agent: the always rules of every source, none of a mode folder', async () => {
    const { resolver } = await memoryResolver(REPO, SOURCES);
    const result = await resolver.resolve({ manifest: false });
    expect(ruleLayer(result.files)).toEqual([
      'not for the cloud agent',
      'not for review',
      'kiro always',
      'roo every mode',
    ]);
    const skipped = (result.rules ?? []).filter((line) => line.kind === null);
    expect(skipped.map((line) => `${line.relativePath}: ${line.reason}`)).toEqual([
      '.roo/rules-architect/plans.txt: other agent: for agent architect only; the request names no agent',
      '.roo/rules-code/style.md: other agent: for agent code only; the request names no agent',
    ]);
  });

  test('paths bring in kiro fileMatch, continue globs+regex (by content) and the nested AGENTS.md', async () => {
    const { resolver } = await memoryResolver(REPO, SOURCES);
    const brought = async (paths: string[]) =>
      ruleLayer((await resolver.resolve({ manifest: false, paths })).files).slice(4);
    expect(await brought(['src/api/user.ts'])).toEqual(['kiro api']);
    expect(await brought(['src/ui/App.tsx'])).toEqual(['continue effects']);
    expect(await brought(['src/ui/Plain.tsx'])).toEqual([]);
    // AGENTS.md is one of the config's instruction files (the default contextPaths): nested disclosure
    // shows pkg/AGENTS.md, so Windsurf's reading of it as a rule stays out.
    expect(await brought(['pkg/lib/a.ts'])).toEqual([]);
    const windsurfOnly = (await memoryResolver(REPO, { ...SOURCES, contextPaths: ['README.md'] })).resolver;
    const rulesFor = async (paths: string[]) =>
      ruleLayer((await windsurfOnly.resolve({ manifest: false, paths })).files).slice(4);
    expect(await rulesFor(['pkg/lib/a.ts'])).toEqual(['pkg agents']);
    const lines = (await resolver.resolve({ manifest: false, paths: ['src/ui/App.tsx'] })).rules ?? [];
    expect(lines.find((line) => line.relativePath === '.continue/rules/react.md')?.reason).toBe(
      'matched src/**/*.tsx and pattern useEffect by src/ui/App.tsx',
    );
  });

  test('the catalog lists kiro auto and continue alwaysApply: false rules', async () => {
    const { resolver } = await memoryResolver(REPO, SOURCES);
    const { manifest } = await resolver.resolve();
    expect(manifest).toContain('- release (.continue/rules/release.md): Release steps');
    expect(manifest).toContain('- review (.kiro/steering/review.md): Review checklist');
  });

  test.each([
    ['code', ['not for the cloud agent', 'not for review', 'kiro always', 'roo code mode', 'roo every mode']],
    [
      'architect',
      ['not for the cloud agent', 'not for review', 'kiro always', 'roo architect mode', 'roo every mode'],
    ],
    ['code-review', ['not for the cloud agent', 'kiro always', 'roo every mode']],
    ['cloud-agent', ['not for review', 'kiro always', 'roo every mode']],
    ['coding-agent', ['not for review', 'kiro always', 'roo every mode']],
  ])('agent %s gets its rules and no other agent’s', async (agent, expected) => {
    const { resolver } = await memoryResolver(REPO, SOURCES);
    expect(ruleLayer((await resolver.resolve({ manifest: false, agent })).files)).toEqual(expected);
    // Two agents never share a memoized render.
    expect(ruleLayer((await resolver.resolve({ manifest: false })).files)).not.toContain('roo code mode');
  });

  test('resolver.rule(name, { agent }) leaves out rules of other agents', async () => {
    const { resolver } = await memoryResolver(REPO, SOURCES);
    expect((await resolver.rule('style')).map((found) => found.text)).toEqual(['roo code mode']);
    expect(await resolver.rule('style', { agent: 'architect' })).toEqual([]);
    expect((await resolver.rule('style', { agent: 'code' })).map((found) => found.text)).toEqual([
      'roo code mode',
    ]);
  });
});

describe('agent-scoped rules in a session', () => {
  const MODES = {
    ...REPO,
    '/w/.roo/rules-code/style.md': 'roo code mode',
    '/w/lib/.roo/rules-code/lib.md': 'lib code mode',
    '/w/lib/x.ts': 'x',
  };
  test.each([
    ['code', ['lib/.roo/rules-code/lib.md']],
    ['architect', []],
    [undefined, []],
  ])('agent %s: touching lib/x.ts injects only its own mode rules', async (agent, expected) => {
    const { resolver } = await memoryResolver(MODES, SOURCES);
    const session = await resolver.openSession(agent === undefined ? {} : { agent });
    await session.afterTool({ tool: 'read', input: { file_path: `${WORK}/lib/x.ts` }, ok: true });
    expect(session.state().injected.map((record) => record.path)).toEqual(expected);
    // A rule event naming a rule of another agent finds nothing.
    const named = await session.afterTool({ tool: 'rule', input: { name: 'lib' }, ok: true });
    expect(named.includes('lib code mode')).toBe(agent === 'code');
  });
});

describe('agent-scoped rules through MCP', () => {
  const text = (result: ToolResult) => result.content.map((part) => part.text).join('\n');
  test.each([
    ['code', true],
    ['architect', false],
  ])('agent %s: list_rules and get_rule serve a code-mode rule only to code', async (agent, served) => {
    const { resolver, fs } = await memoryResolver(REPO, SOURCES);
    const connection = createMcpConnection({
      resolver,
      formats: HOST_REGISTRY.format,
      fs,
      homeDir: '/home/u',
      rules: rulesOfResolver(resolver, { agent }),
      request: { agent },
    });
    const list = text(await connection.callTool('list_rules', {}));
    expect(list.includes('- style (always)')).toBe(served);
    expect(list.includes('- plans (always)')).toBe(!served);
    const got = await connection.callTool('get_rule', { name: 'style' });
    expect(text(got).includes('roo code mode')).toBe(served);
    expect(got.isError === true).toBe(!served);
    // The first instructions_for_path answer holds the agent's always rules only.
    const first = text(await connection.callTool('instructions_for_path', { path: 'src/api/user.ts' }));
    expect(first.includes('roo code mode')).toBe(served);
  });
});

describe('agent-scoped rules through ctxfiles hook --agent', () => {
  test.each([
    ['code', true],
    ['architect', false],
  ])('--agent %s: a code-mode rule of a package is injected only for code', async (agent, injected) => {
    const root = tempTree({
      'ctxfiles.config.json': JSON.stringify({ rules: { sources: ['roo'] } }),
      'AGENTS.md': 'root',
      'lib/.roo/rules-code/lib.md': 'lib code mode',
      'lib/.roo/rules/all.md': 'lib every mode',
      'lib/x.ts': 'x',
    });
    const stateDir = path.join(tempTree(), 'sessions');
    const hook = async (event: Record<string, unknown>) =>
      cli(['hook', 'claude-code', '--agent', agent], {
        cwd: root,
        env: { CTXFILES_STATE_DIR: stateDir },
        stdin: Readable.from([JSON.stringify(event)]),
      });
    const base = { session_id: `s-${agent}`, cwd: root };
    await hook({ ...base, hook_event_name: 'SessionStart', source: 'startup' });
    const after = await hook({
      ...base,
      hook_event_name: 'PostToolUse',
      tool_name: 'Read',
      tool_input: { file_path: path.join(root, 'lib/x.ts') },
      tool_response: {},
    });
    expect(after.stdout).toContain('lib every mode');
    expect(after.stdout.includes('lib code mode')).toBe(injected);
  });
});

describe('zed: its first-match list is not modelled; what the default config reads of it (docs/rules.md, "Zed")', () => {
  // Zed's RULES_FILE_NAMES (zed-industries/zed, crates/prompt_store/src/prompts.rs; docs
  // https://zed.dev/docs/ai/rules): Zed reads the first that exists at a worktree's root, and only it.
  test.each([
    ['.rules', true],
    ['.cursorrules', true],
    ['.windsurfrules', false],
    ['.clinerules', true],
    ['.github/copilot-instructions.md', true],
    ['AGENT.md', false],
    ['AGENTS.md', true],
    ['CLAUDE.md', true],
    ['GEMINI.md', false],
  ])('%s alone: read by the default config: %s', async (name, read) => {
    const { resolver } = await memoryResolver({ [`/w/${name}`]: `text of ${name}` });
    const result = await resolver.resolve({ manifest: false });
    expect(result.files.some((file) => file.text === `text of ${name}`)).toBe(read);
  });
  test('with .rules present ctxfiles still reads the others Zed would skip', async () => {
    const { resolver } = await memoryResolver({ '/w/.rules': 'zed rules', '/w/AGENTS.md': 'agents' });
    const result = await resolver.resolve({ manifest: false });
    expect(result.files.map((file) => file.text)).toEqual(['zed rules', 'agents']);
  });
});

describe('augment: type → kind (docs.augmentcode.com/cli/rules)', () => {
  test.each([
    ['no frontmatter', 'Use pnpm.\n', rule('always')],
    ['type: always_apply', fm('type: always_apply'), rule('always')],
    [
      'type: agent_requested',
      fm('type: agent_requested\ndescription: DB work'),
      rule('requested', [], 'DB work'),
    ],
    [
      'type: "agent_requested", quoted',
      fm('type: "agent_requested"\ndescription: x'),
      rule('requested', [], 'x'),
    ],
    ['type: manual', fm('type: manual'), rule('manual')],
  ])('%s', (_name, text, expected) => {
    expect(classify('augment', text)).toEqual(expected);
  });
  test('an unknown type is refused', () => {
    expect(classify('augment', fm('type: always'))).toEqual({
      problem:
        'bad frontmatter: type must be one of always_apply, agent_requested, manual, received "always"',
    });
  });
  test('.augment/rules/ is read recursively, .md files only', async () => {
    const { resolver } = await memoryResolver(
      {
        '/w/.augment/rules/style.md': 'augment always',
        '/w/.augment/rules/db/migrations.md':
          '---\ntype: agent_requested\ndescription: Migrations\n---\nmigrate',
        '/w/.augment/rules/notes.txt': 'not a rule',
      },
      { rules: { sources: ['augment'] } },
    );
    const result = await resolver.resolve({ manifest: false });
    expect(ruleLayer(result.files)).toEqual(['augment always']);
    expect(
      (result.rules ?? []).map((line) => [line.relativePath, line.kind === null ? null : line.source]),
    ).toEqual([
      ['.augment/rules/db/migrations.md', 'augment'],
      ['.augment/rules/style.md', 'augment'],
    ]);
  });
});

describe("windsurf: Devin Desktop's .devin/rules/ beside .windsurf/rules/ (docs.devin.ai desktop/cascade/memories)", () => {
  test('both folders, the same trigger format', async () => {
    const { resolver } = await memoryResolver(
      {
        '/w/.devin/rules/new.md': '---\ntrigger: always_on\n---\ndevin always',
        '/w/.devin/rules/off.md': 'no trigger: manual',
        '/w/.windsurf/rules/old.md': '---\ntrigger: always_on\n---\nwindsurf always',
      },
      { rules: { sources: ['windsurf'] } },
    );
    const result = await resolver.resolve({ manifest: false });
    expect(ruleLayer(result.files)).toEqual(['devin always', 'windsurf always']);
  });
});

describe('junie and zed: one file each, always', () => {
  const TREE = {
    '/w/.junie/guidelines.md': 'junie guidelines',
    '/w/.rules': '---\nnot: frontmatter to Zed\n---\nzed rules',
    '/w/pkg/.rules': 'nested zed rules',
    '/w/pkg/.junie/guidelines.md': 'pkg junie',
    '/w/pkg/a.ts': 'a',
  };
  test('the work dir’s files join the rules layer; Zed’s .rules is read at the top only', async () => {
    const { resolver } = await memoryResolver(TREE, { rules: { sources: ['junie', 'zed'] } });
    const result = await resolver.resolve({ manifest: false, paths: ['pkg/a.ts'] });
    expect(ruleLayer(result.files)).toEqual(['junie guidelines', 'zed rules', 'pkg junie']);
    const names = (result.rules ?? []).map((line) => `${line.source} ${line.relativePath}`);
    expect(names).not.toContain('zed pkg/.rules');
  });
});

describe("kiro's #[[file:path]] references go through the imports engine", () => {
  const TREE = {
    '/w/.kiro/steering/api.md':
      'Follow the API spec:\n#[[file:api/openapi.yaml]]\n\n`#[[file:api/secret.txt]]` is code.\n#[[file:../outside.txt]]\n#[[file:/etc/passwd]]\n',
    '/w/api/openapi.yaml': 'openapi: 3.1.0',
    '/w/api/secret.txt': 'SECRET-CONTENT',
    '/outside.txt': 'OUTSIDE-CONTENT',
  };
  test('entries: the referenced file follows the steering file; code and outside targets are not read', async () => {
    // A config the search found (untrusted): references leave the project only from a trusted one.
    const { fs } = await memoryResolver(TREE);
    const { config } = await parseConfig({ rules: { sources: ['kiro'] }, imports: { enabled: true } });
    const loaded = { filepath: '/w/ctxfiles.config.json', config, flows: new Map(), diagnostics: [] };
    const resolver = await createResolver({ workDir: WORK, config: loaded, fs, env: {} });
    const result = await resolver.resolve({ manifest: false });
    const rules = result.files.filter((file) => file.layer === 'rules');
    expect(rules.map((file) => [file.path, file.entry])).toEqual([
      ['/w/.kiro/steering/api.md', 'api'],
      ['/w/api/openapi.yaml', '@api/openapi.yaml'],
    ]);
    const outside = result.diagnostics.filter((diagnostic) => diagnostic.code === 'import-outside');
    expect(outside.map((diagnostic) => diagnostic.entry)).toEqual(['#[[file:../outside.txt]]']);
    expect(fs.calls.some((call) => JSON.stringify(call).includes('/outside.txt'))).toBe(false);
    expect(result.text).not.toContain('SECRET-CONTENT');
    expect(result.text).not.toContain('OUTSIDE-CONTENT');
  });
  test('inline: the reference is replaced by the file between the import markers', async () => {
    const { resolver } = await memoryResolver(TREE, {
      rules: { sources: ['kiro'] },
      imports: { enabled: true, mode: 'inline' },
    });
    const result = await resolver.resolve({ manifest: false });
    expect(result.text).toContain(
      '<!-- Imported from: api/openapi.yaml -->\nopenapi: 3.1.0\n<!-- End of import from: api/openapi.yaml -->',
    );
  });
  test('with imports off, the reference stays as written', async () => {
    const { resolver } = await memoryResolver(TREE, { rules: { sources: ['kiro'] } });
    const result = await resolver.resolve({ manifest: false });
    expect(result.text).toContain('#[[file:api/openapi.yaml]]');
    expect(result.text).not.toContain('openapi: 3.1.0');
  });
});

describe('kiro: ~/.kiro/steering/ only where trust allows (rules.userFolders)', () => {
  const files = {
    '/home/u/.kiro/steering/personal.md': 'USER-STEERING',
    '/home/u/w/AGENTS.md': 'project',
    '/home/u/w/.kiro/steering/team.md': 'team steering',
  };
  const base = {
    cwd: '/home/u/w',
    stopDir: '/home/u/w',
    homeDir: '/home/u',
    env: { XDG_CONFIG_HOME: '/cfg' },
  };
  const resolveWith = async (project: unknown, user?: unknown) => {
    const memory = createMemoryFileSystem({
      ...files,
      '/home/u/w/ctxfiles.config.json': JSON.stringify(project),
      ...(user === undefined ? {} : { '/cfg/ctxfiles/config.json': JSON.stringify(user) }),
    });
    const loaded = await loadConfig({ ...base, fs: memory });
    const resolver = await createResolver({
      workDir: '/home/u/w',
      config: loaded,
      fs: memory,
      env: {},
      homeDir: '/home/u',
    });
    const result = await resolver.resolve({ manifest: false });
    return { loaded, layer: ruleLayer(result.files), reads: memory.calls };
  };
  test('a project config cannot turn it on: dropped with a warning, the home folder is never read', async () => {
    const { loaded, layer, reads } = await resolveWith({ rules: { sources: ['kiro'], userFolders: true } });
    expect(loaded.dropped?.map((key) => key.keyPath)).toEqual(['rules.userFolders']);
    expect(layer).toEqual(['team steering']);
    expect(reads.some((call) => JSON.stringify(call).includes('/home/u/.kiro'))).toBe(false);
  });
  test('the user config turns it on: the user’s steering comes first', async () => {
    const { layer } = await resolveWith({ rules: { sources: ['kiro'] } }, { rules: { userFolders: true } });
    expect(layer).toEqual(['USER-STEERING', 'team steering']);
  });
});

describe('content patterns agree with JavaScript where both accept a pattern', () => {
  // Patterns from a small grammar (literals, classes, anchors, groups, alternation, quantifiers) on
  // short texts: RE2JS answers as `new RegExp(pattern).test(text)` does (Continue's own test).
  const atom = fc.constantFrom('a', 'b', '.', '[ab]', '[^a]', '\\d', '\\s', '\\w', 'x');
  const pattern = fc.letrec((tie) => ({
    node: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      atom,
      fc.tuple(tie('node'), fc.constantFrom('*', '+', '?', '{1,2}')).map(([a, q]) => `(?:${a})${q}`),
      fc.tuple(tie('node'), tie('node')).map(([a, b]) => `${a}${b}`),
      fc.tuple(tie('node'), tie('node')).map(([a, b]) => `(${a}|${b})`),
    ),
  })).node;
  const anchored = fc
    .tuple(fc.boolean(), pattern, fc.boolean())
    .map(([start, body, end]) => `${start ? '^' : ''}${body}${end ? '$' : ''}`);
  test('property: same answer on random patterns and texts', () => {
    fc.assert(
      fc.property(anchored, fc.stringMatching(/^[ab1 x\n]{0,12}$/), (source, text) => {
        expect(checkRuleRegex(source)).toBeNull();
        expect(ruleRegexMatches(source, text)).toBe(new RegExp(source).test(text));
      }),
      { numRuns: 300 },
    );
  });
});

describe('continue content patterns in a session', () => {
  test('a touched file brings the rule in only when its text matches, and an edit counts', async () => {
    const { resolver, fs } = await memoryResolver(REPO, SOURCES);
    const session = await resolver.openSession();
    const touch = (file: string) =>
      session.afterTool({ tool: 'read', input: { file_path: `${WORK}/${file}` }, ok: true });
    expect(await touch('src/ui/Plain.tsx')).not.toContain('continue effects');
    fs.set('/w/src/ui/Plain.tsx', 'now with useEffect');
    const text = await touch('src/ui/Plain.tsx');
    expect(text).toContain('continue effects');
    expect(text).toContain('src/ui/Plain.tsx matches its glob src/**/*.tsx and its pattern useEffect');
  });
});
