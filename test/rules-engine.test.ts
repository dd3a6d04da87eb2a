import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import nodeFs from 'node:fs';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  createMemoryFileSystem,
  type MemoryFileSystemOptions,
  type MemoryTree,
} from '../src/fs/memory-file-system.js';
import { createNodeFileSystem } from '../src/fs/node-file-system.js';
import { createRuleSet } from '../src/rules/create-rule-set.js';
import { discoverRules, type DiscoverRulesOptions } from '../src/rules/discover-rules.js';
import { explainRules } from '../src/rules/explain-rules.js';
import { compileRuleGlobs } from '../src/rules/compile-rule-globs.js';
import { RULE_ADAPTERS, RULE_SOURCES } from '../src/rules/rule-adapters.js';
import { tempTree } from './helpers/disk.js';
import { compileGlobMatcher } from '../src/config/glob-match.js';
import { seededShuffle } from './helpers/shuffle.js';

const W = '/w';

function discover(
  tree: MemoryTree,
  options: Partial<DiscoverRulesOptions> = {},
  fsOptions: MemoryFileSystemOptions = {},
) {
  const fs = createMemoryFileSystem({}, fsOptions);
  fs.set(W, { dir: true });
  for (const [file, spec] of Object.entries(tree)) fs.set(`${W}/${file}`, spec);
  const found = discoverRules(fs, {
    workDir: W,
    ownerDirs: [W],
    sources: RULE_SOURCES,
    maxFileBytes: 1024,
    ...options,
  });
  return { fs, found, set: createRuleSet(found.rules, { workDir: W }) };
}

const names = (items: readonly ({ rule: { relativePath: string } } | { relativePath: string })[]) =>
  items.map((item) => ('rule' in item ? item.rule.relativePath : item.relativePath));

describe('glob semantics', () => {
  test.each([
    // rule file, its text, a path relative to the work dir, applies
    ['.cursor/rules/r.mdc', '---\nglobs: *.ts\n---\n', 'a.ts', true],
    ['.cursor/rules/r.mdc', '---\nglobs: *.ts\n---\n', 'src/deep/a.ts', true], // no slash: basename at any depth
    ['.cursor/rules/r.mdc', '---\nglobs: *.ts\n---\n', '.config/a.ts', true], // dot directories match
    ['.cursor/rules/r.mdc', '---\nglobs: *.ts\n---\n', 'a.tsx', false],
    ['.cursor/rules/r.mdc', '---\nglobs: src/*.ts\n---\n', 'src/a.ts', true],
    ['.cursor/rules/r.mdc', '---\nglobs: src/*.ts\n---\n', 'lib/src/a.ts', false], // a slash anchors to the owner
    ['.cursor/rules/r.mdc', '---\nglobs: src/*.ts, lib/*.ts\n---\n', 'lib/b.ts', true], // comma-separated
    ['.cursor/rules/r.mdc', '---\nglobs: "*.ts"\n---\n', '.eslintrc.ts', true], // dot files match
    ['.cursor/rules/r.mdc', '---\nglobs: "*.gen7.ts"\n---\n', 'src/a.ts', false], // refused before compiling
    ['.cursor/rules/r.mdc', '---\nglobs: "***a.*"\n---\n', 'b', false], // three stars are one (picomatch 2.3 dropped the `a`)
    ['.cursor/rules/r.mdc', '---\nglobs: "***a.*"\n---\n', 'xa.ts', true],
    ['.cursor/rules/r.mdc', `---\nglobs: "${'*a'.repeat(14)}*x"\n---\n`, `x${'a'.repeat(40)}`, false], // bounded (#26.4)
    ['.claude/rules/r.md', '---\npaths: ["*.md"]\n---\n', 'README.md', true],
    ['.claude/rules/r.md', '---\npaths: ["*.md"]\n---\n', 'docs/a.md', false], // Claude: root only
    ['.claude/rules/r.md', '---\npaths: ["src/**"]\n---\n', 'src/.env', true],
    ['.claude/rules/r.md', '---\npaths: src/**/*.{ts,tsx}\n---\n', 'src/ui/a.tsx', true],
    ['.github/instructions/r.instructions.md', '---\napplyTo: "src/*.go"\n---\n', 'lib/src/a.go', true], // any depth
    ['.github/instructions/r.instructions.md', '---\napplyTo: "**/*.GO"\n---\n', 'a.go', true], // ignores case
    ['.github/instructions/r.instructions.md', '---\napplyTo: "**/*_test.go"\n---\n', 'a.go', false],
    ['.windsurf/rules/r.md', '---\ntrigger: glob\nglobs: *.js\n---\n', 'web/app.js', true],
    ['.clinerules/r.md', '---\npaths: ["src/**"]\n---\n', 'src/a.ts', true],
    ['.clinerules/r.md', '---\npaths: ["src/**"]\n---\n', 'lib/a.ts', false],
    ['.clinerules/r.md', '---\npaths: ["!**/*.md"]\n---\n', 'lib/a.ts', true], // negation: every other path
    ['.clinerules/r.md', '---\npaths: ["!**/*.md"]\n---\n', 'docs/a.md', false],
  ])('%s %j on %s → %s', (file, text, touched, applies) => {
    const { set, found } = discover({ [file]: text });
    expect(found.diagnostics.filter((d) => d.level === 'warn')).toEqual([]);
    expect(names(set.rulesFor(touched))).toEqual(applies ? [file] : []);
    expect(names(set.rulesFor(`${W}/${touched}`))).toEqual(applies ? [file] : []); // absolute spelling
  });

  // A glob's test refuses a path that lacks the glob's literal text before running the matcher; the
  // answer must be the matcher's, whatever the glob and the vendor's dialect. Paths are drawn
  // from the glob itself (each wildcard replaced by some text or by none, a slash sometimes left out) and at random.
  test('property: the literal prefilter never changes an answer', () => {
    const piece = fc.constantFrom('a', 'b', 'ab', '.', '.ts', 'x.ts', '-', ' ', 'é', 'A');
    const special = fc.constantFrom('{a,b}', '[ab]', '!', '+(a)', '"a"', '|', '\\*', '..');
    const token = fc.oneof(
      { weight: 6, arbitrary: piece },
      { weight: 6, arbitrary: fc.constantFrom('*', '**', '?', '/') },
      special,
    );
    const filler = fc.constantFrom('', 'a', 'b/', 'a/b', '.', 'x.ts', '/');
    const path = fc.oneof(
      fc
        .array(fc.oneof(piece, fc.constant('/')), { minLength: 1, maxLength: 6 })
        .map((parts) => parts.join('')),
      fc.constant(null), // derived from the glob
    );
    fc.assert(
      fc.property(
        fc.constantFrom(...RULE_SOURCES),
        fc.array(token, { minLength: 1, maxLength: 6 }),
        fc.array(fc.tuple(path, fc.array(filler, { minLength: 6, maxLength: 6 })), { maxLength: 4 }),
        (source, tokens, drawn) => {
          const adapter = RULE_ADAPTERS.get(source)!;
          const compiled = compileRuleGlobs([tokens.join('')], adapter.globs, source);
          if (!compiled.ok) return;
          const [glob] = compiled.globs;
          for (const [given, fillers] of drawn) {
            const path =
              given ??
              tokens
                .map((t, i) =>
                  t === '/' && fillers[i] === ''
                    ? ''
                    : t === '*' || t === '**' || t === '?'
                      ? fillers[i]!
                      : t,
                )
                .join('');
            const { pattern, nocase, basename, negated } = glob!.spec();
            const tested = basename ? path.slice(path.lastIndexOf('/') + 1) : path;
            const bare = compileGlobMatcher(pattern, { nocase });
            expect(bare.ok && glob!.test(path)).toBe(bare.ok && bare.matcher.test(tested) !== negated);
          }
        },
      ),
      { numRuns: 3000 },
    );
  });

  test('a nested owner scopes its globs and its always rules to its subtree', () => {
    const { set } = discover(
      {
        'pkg/.cursor/rules/ts.mdc': '---\nglobs: *.ts\n---\n',
        'pkg/.claude/rules/src.md': '---\npaths: ["src/**"]\n---\n',
        'pkg/.claude/rules/all.md': 'pkg always',
        '.claude/rules/root.md': 'root always',
      },
      { ownerDirs: [W, `${W}/pkg`] },
    );
    expect(names(set.always())).toEqual(['.claude/rules/root.md']);
    expect(names(set.nested())).toEqual(['pkg/.claude/rules/all.md']);
    expect(names(set.rulesFor('pkg/src/a.ts'))).toEqual([
      'pkg/.claude/rules/all.md',
      'pkg/.claude/rules/src.md',
      'pkg/.cursor/rules/ts.mdc',
    ]);
    expect(names(set.rulesFor('src/a.ts'))).toEqual([]); // `src/**` of pkg is pkg/src only
    expect(names(set.rulesFor('pkg2/a.ts'))).toEqual([]); // a sibling with the same prefix is outside
    expect(set.rulesFor('pkg/a.ts').map((m) => m.glob)).toEqual([null, '*.ts']);
  });

  test('a chain owner above the work dir matches paths relative to itself', () => {
    const fs = createMemoryFileSystem({
      '/repo/.claude/rules/pkg.md': '---\npaths: ["pkg/src/**"]\n---\n',
      '/repo/.claude/rules/root.md': 'root',
      '/repo/pkg/src/a.ts': '',
    });
    const found = discoverRules(fs, {
      workDir: '/repo/pkg',
      ownerDirs: ['/repo/pkg', '/repo'],
      sources: ['claude'],
      maxFileBytes: 1024,
      root: '/repo',
    });
    const set = createRuleSet(found.rules, { workDir: '/repo/pkg' });
    expect(names(set.always())).toEqual(['../.claude/rules/root.md']); // the chain's always rules join the layer
    expect(names(set.nested())).toEqual([]);
    expect(names(set.rulesFor('src/a.ts'))).toEqual(['../.claude/rules/pkg.md']);
    expect(names(set.byName('../.claude/rules/pkg.md'))).toEqual(['../.claude/rules/pkg.md']);
  });

  test('explain says whether a nested owner was touched', () => {
    const { set, found } = discover({ 'pkg/.claude/rules/all.md': 'pkg' }, { ownerDirs: [W, `${W}/pkg`] });
    expect(explainRules(set, found.skipped, { paths: ['pkg/a.ts'] }).map((line) => line.reason)).toEqual([
      'always inside /w/pkg',
    ]);
    expect(explainRules(set, found.skipped, { paths: ['lib/a.ts'] }).map((line) => line.reason)).toEqual([
      'nested, no path inside /w/pkg',
    ]);
  });

  test('several paths: each rule once, in discovery order, with the first path that matched', () => {
    const { set } = discover({
      '.cursor/rules/a.mdc': '---\nglobs: "*.ts"\n---\n',
      '.cursor/rules/b.mdc': '---\nglobs: "*.md"\n---\n',
    });
    const matches = set.rulesFor(['x.md', 'y.ts', 'z.ts']);
    expect(matches.map((m) => [m.rule.name, m.path, m.glob])).toEqual([
      ['a', 'y.ts', '*.ts'],
      ['b', 'x.md', '*.md'],
    ]);
    expect(set.rulesFor(['nothing.txt', ''])).toEqual([]);
    expect(set.rulesFor('a\0b.ts')).toEqual([]);
    // answers are cached per path and stay the same object
    expect(set.rulesFor('y.ts')).toBe(set.rulesFor('y.ts'));
  });
});

describe('kinds and names', () => {
  const tree = {
    '.cursor/rules/always.mdc': '---\nalwaysApply: true\n---\nA',
    '.cursor/rules/sql.mdc': '---\ndescription: When writing SQL\n---\nS',
    '.cursor/rules/style.mdc': 'no frontmatter',
    '.claude/rules/style.md': 'claude style',
    '.claude/rules/web/react.md': '---\npaths: ["web/**/*.tsx"]\n---\nR',
    '.github/copilot-instructions.md': 'copilot',
    '.github/instructions/plain.md': 'Copilot ignores plain .md files here',
    '.clinerules': 'cline single file',
  };

  test('partition by kind; names below the vendor folder', () => {
    const { set, found } = discover(tree);
    expect(found.rules.map((r) => [r.relativePath, r.name, r.kind])).toEqual([
      ['.claude/rules/style.md', 'style', 'always'],
      ['.claude/rules/web/react.md', 'web/react', 'glob'],
      ['.clinerules', 'clinerules', 'always'],
      ['.cursor/rules/always.mdc', 'always', 'always'],
      ['.cursor/rules/sql.mdc', 'sql', 'requested'],
      ['.cursor/rules/style.mdc', 'style', 'manual'],
      ['.github/copilot-instructions.md', 'copilot-instructions', 'always'],
    ]);
    expect(names(set.always())).toEqual([
      '.claude/rules/style.md',
      '.clinerules',
      '.cursor/rules/always.mdc',
      '.github/copilot-instructions.md',
    ]);
    expect(set.catalog().map((r) => [r.name, r.description])).toEqual([['sql', 'When writing SQL']]);
    expect(found.rules.find((r) => r.name === 'always')?.text).toBe('A');
  });

  test('two rules with one name are both selected; a work-dir path names one', () => {
    const { set } = discover(tree);
    expect(names(set.byName('style'))).toEqual(['.claude/rules/style.md', '.cursor/rules/style.mdc']);
    expect(names(set.byName('.cursor/rules/style.mdc'))).toEqual(['.cursor/rules/style.mdc']);
    expect(names(set.byName('./.cursor/rules/style.mdc'))).toEqual(['.cursor/rules/style.mdc']);
    expect(set.byName('nope')).toEqual([]);
  });

  test('explain gives every rule a reason', () => {
    const { set, found } = discover({ ...tree, '.cursor/rules/bad.mdc': '---\nalwaysApply: maybe\n---\n' });
    const lines = explainRules(set, found.skipped, { paths: ['web/ui/a.tsx'], names: [] });
    expect(lines.map((line) => `${line.relativePath} ${line.kind} ${line.applied} ${line.reason}`)).toEqual([
      '.claude/rules/style.md always true always',
      '.claude/rules/web/react.md glob true matched web/**/*.tsx by web/ui/a.tsx',
      '.clinerules always true always',
      '.cursor/rules/always.mdc always true always',
      '.cursor/rules/sql.mdc requested false listed in catalog',
      '.cursor/rules/style.mdc manual false manual, not named',
      '.github/copilot-instructions.md always true always',
      '.cursor/rules/bad.mdc null false bad frontmatter: alwaysApply must be true or false, received "maybe"',
    ]);
    const named = explainRules(set, [], { paths: ['a.go'], names: ['style', 'sql'] });
    expect(named.map((line) => `${line.name} ${line.applied} ${line.reason}`)).toEqual([
      'style true always',
      'web/react false no path matched',
      'clinerules true always',
      'always true always',
      'sql true named',
      'style true named',
      'copilot-instructions true always',
    ]);
  });
});

describe('discovery', () => {
  test('orders by owner dir, then path in code units; reads folders recursively', () => {
    const { found } = discover(
      {
        'b/.cursor/rules/z.mdc': 'z',
        'a/.cursor/rules/B.mdc': 'B',
        'a/.cursor/rules/a/x.mdc': 'x',
        'a/.cursor/rules/é.mdc': 'e',
        'a/.claude/rules/r.md': 'r',
        'a/.cursor/rules/notes.md': 'not a .mdc file',
        'a/.cursor/rules/.hidden.mdc': 'dot entries are skipped',
      },
      { ownerDirs: [`${W}/b`, `${W}/a`, `${W}/a`] },
    );
    expect(found.rules.map((r) => r.relativePath)).toEqual([
      'a/.claude/rules/r.md',
      'a/.cursor/rules/B.mdc',
      'a/.cursor/rules/a/x.mdc',
      'a/.cursor/rules/é.mdc',
      'b/.cursor/rules/z.mdc',
    ]);
    expect(found.rules.map((r) => r.ownerDir)).toEqual(['/w/a', '/w/a', '/w/a', '/w/a', '/w/b']);
  });

  test.each([
    // work dir, owner dirs, relative paths of the rules and skipped files: what path.relative gives
    ['/w', ['/w', '/w/a/b'], ['.cursor/rules/r.mdc', 'a/b/.cursor/rules/r.mdc']],
    ['/w/a', ['/w', '/w/a'], ['../.cursor/rules/r.mdc', '.cursor/rules/r.mdc']],
    // The work dir inside an owner's rules folder: the path does not climb out and back in.
    ['/w/.cursor/rules/sub', ['/w'], ['../r.mdc']],
    ['/w/x', ['/w/y'], ['../y/.cursor/rules/r.mdc']],
  ])('relative paths, work dir %s, owners %j', (workDir, ownerDirs, expected) => {
    const fs = createMemoryFileSystem({});
    for (const owner of ['/w', '/w/a', '/w/a/b', '/w/y']) fs.set(`${owner}/.cursor/rules/r.mdc`, 'r');
    fs.set('/w/.cursor/rules/sub', { dir: true });
    fs.set('/w/x', { dir: true });
    const found = discoverRules(fs, {
      workDir,
      ownerDirs,
      sources: ['cursor'],
      maxFileBytes: 1024,
      root: '/w',
    });
    expect(found.rules.map((rule) => rule.relativePath)).toEqual(expected);
    const first = ownerDirs[0] as string;
    fs.set(`${first}/.cursor/rules/r.mdc`, '---\nalwaysApply: 1\n---\nbad');
    const skipped = discoverRules(fs, {
      workDir,
      ownerDirs: [first],
      sources: ['cursor'],
      maxFileBytes: 1024,
    });
    expect(skipped.skipped.map((rule) => rule.relativePath)).toEqual([expected[0]]);
  });

  test('the filesystem calls are a contract: nothing but the read per plain file, links resolved', () => {
    const { fs } = discover({});
    fs.set('/w/.cursor/rules/a.mdc', 'a');
    fs.set('/w/.cursor/rules/notes.txt', 'never opened');
    fs.set('/w/.cursor/rules/sub/b.mdc', 'b');
    fs.set('/w/.cursor/rules/link.mdc', { symlink: '/w/.cursor/rules/a.mdc' });
    fs.calls.length = 0;
    discoverRules(fs, { workDir: W, ownerDirs: [W], sources: ['cursor', 'cline'], maxFileBytes: 64 });
    // Below the work dir each segment is lstat-ed; only a symlink costs a realpath (realPathBelow).
    expect(fs.calls.map((call) => `${call.op} ${call.path}`)).toEqual([
      'lstat /w/.cursor',
      'lstat /w/.cursor/rules',
      'stat /w/.cursor/rules',
      'readdir /w/.cursor/rules',
      'lstat /w/.cursor',
      'lstat /w/.cursor/rules',
      'lstat /w/.cursor/rules/link.mdc',
      'realpath /w/.cursor/rules/link.mdc',
      'stat /w/.cursor/rules/a.mdc',
      'readdir /w/.cursor/rules/sub',
      'lstat /w/.clinerules', // the folder form of .clinerules
      'lstat /w/.clinerules', // and its single-file form
      'readFile /w/.cursor/rules/a.mdc', // link.mdc is the same file: read once
      'readFile /w/.cursor/rules/sub/b.mdc',
    ]);
  });

  test('only enabled sources are read; an unknown source is a warn', () => {
    const { found } = discover(
      { '.cursor/rules/a.mdc': 'a', '.claude/rules/b.md': 'b' },
      { sources: ['claude', 'vim'] },
    );
    expect(found.rules.map((r) => r.source)).toEqual(['claude']);
    expect(found.diagnostics).toEqual([
      { level: 'warn', code: 'rule-source', message: 'unknown rules source "vim"' },
    ]);
  });

  test('bad files are a warn each and are skipped; the rest is unaffected', () => {
    const { found } = discover({
      '.cursor/rules/big.mdc': 'x'.repeat(2000),
      '.cursor/rules/bin.mdc': new Uint8Array([35, 0, 1, 2]),
      '.cursor/rules/broken.mdc': '---\nglobs: *.ts\nprose here\n---\n',
      '.cursor/rules/empty-glob.mdc': '---\nglobs: [""]\n---\n',
      '.cursor/rules/abs.mdc': '---\nglobs: /src/*.ts\n---\n',
      '.cursor/rules/ok.mdc': '---\nalwaysApply: true\n---\nok',
    });
    expect(found.rules.map((r) => r.name)).toEqual(['ok']);
    expect(found.skipped.map((s) => [s.name, s.reason])).toEqual([
      ['abs', 'bad glob'],
      ['big', 'too large'],
      ['bin', 'binary'],
      ['broken', 'bad frontmatter'],
      ['empty-glob', 'bad glob'],
    ]);
    expect(found.diagnostics.map((d) => `${d.level} ${d.code} ${d.message}`)).toEqual([
      'warn rule-glob .cursor/rules/abs.mdc: glob "/src/*.ts": absolute globs are not allowed (globs are relative to the directory holding the rules folder); the rule is skipped',
      'warn too-large .cursor/rules/big.mdc: larger than 1024 bytes; the rule is skipped',
      'warn binary .cursor/rules/bin.mdc: looks binary (it holds a NUL byte); the rule is skipped',
      'warn rule-frontmatter .cursor/rules/broken.mdc: line 3 of the frontmatter is neither YAML nor "key: value"; the rule is skipped',
      'warn rule-glob .cursor/rules/empty-glob.mdc: glob "": the glob is empty; the rule is skipped',
    ]);
  });

  test('lenient frontmatter is a debug trace', () => {
    const { found } = discover({ '.windsurf/rules/js.md': '---\ntrigger: glob\nglobs: *.js\n---\nJS' });
    expect(found.rules.map((r) => [r.kind, r.globs, r.text])).toEqual([['glob', ['*.js'], 'JS']]);
    expect(found.diagnostics).toEqual([
      {
        level: 'debug',
        code: 'rule-frontmatter',
        message:
          '.windsurf/rules/js.md: the frontmatter is not valid YAML; its trigger, globs, description lines were read as plain text',
        path: '/w/.windsurf/rules/js.md',
      },
    ]);
  });

  test('caps: rules kept, folder depth', () => {
    const tree: Record<string, string> = {};
    for (let index = 0; index < 5; index += 1) tree[`.claude/rules/r${index}.md`] = `rule ${index}`;
    tree['.claude/rules/1/2/3/deep.md'] = 'deep';
    const { found } = discover(tree, { maxRules: 3, maxDepth: 2 });
    expect(found.rules.map((r) => r.name)).toEqual(['r0', 'r1', 'r2']);
    // The folder past the depth cap is said, never dropped silently; then the count cap.
    expect(found.diagnostics.map((d) => [d.code, d.message])).toEqual([
      ['rule-limit', '"/w/.claude/rules/1/2/3" is more than 2 folders deep; it is not read for claude rules'],
      ['rule-limit', 'rule discovery stopped after 3 rule files'],
    ]);
    const deep = discover(tree, { maxDepth: 2 }).found;
    expect(deep.rules.map((r) => r.name)).not.toContain('1/2/3/deep');
    expect(deep.diagnostics.map((d) => d.code)).toEqual(['rule-limit']);
    expect(discover(tree, { maxDepth: 3 }).found.rules.map((r) => r.name)).toContain('1/2/3/deep');
  });

  test('the same file through two sources or a symlink appears once, first stays', () => {
    const { found } = discover({
      '.claude/rules/shared.md': 'shared',
      '.clinerules': { symlink: '/w/.claude/rules' },
    });
    expect(found.rules.map((r) => [r.relativePath, r.source])).toEqual([
      ['.claude/rules/shared.md', 'claude'],
    ]);
  });

  test('the rule carries size, digest and the text without frontmatter', () => {
    const { found } = discover({ '.claude/rules/a.md': '---\npaths: ["*.ts"]\n---\nbody\n' });
    const bytes = '---\npaths: ["*.ts"]\n---\nbody\n';
    expect(found.rules[0]).toMatchObject({
      bytes: Buffer.byteLength(bytes),
      sha256: createHash('sha256').update(bytes).digest('hex'),
      text: 'body\n',
      globs: ['*.ts'],
    });
    expect(Object.isFrozen(found.rules[0])).toBe(true);
  });

  test('the set of rules applied to a path never depends on listing order', () => {
    const tree: Record<string, string> = {
      '.cursor/rules/b.mdc': '---\nglobs: "*.ts"\n---\n',
      '.cursor/rules/a/c.mdc': '---\nglobs: "src/**"\n---\n',
      '.claude/rules/z.md': '---\npaths: ["src/*.ts"]\n---\n',
      '.claude/rules/y.md': 'always',
      '.clinerules/x.md': '---\npaths: ["!**/*.md"]\n---\n',
      '.github/instructions/g.instructions.md': '---\napplyTo: "*.ts"\n---\n',
      'pkg/.windsurf/rules/w.md': '---\ntrigger: glob\nglobs: "*.ts"\n---\n',
      'pkg/.cursor/rules/p.mdc': '---\nalwaysApply: true\n---\n',
      '.claude/rules/dup.md': 'dup',
      '.windsurf/rules': '---\ntrigger: always_on\n---\nnot a folder',
    };
    const paths = ['src/a.ts', 'pkg/src/b.ts', 'README.md', 'pkg/x.md', 'lib/c.ts'];
    const owners = [W, `${W}/pkg`];
    const reference = discover(tree, { ownerDirs: owners });
    const view = (set: typeof reference.set) => paths.map((p) => names(set.rulesFor(p)));
    fc.assert(
      fc.property(fc.integer(), (seed) => {
        const shuffle = seededShuffle(seed);
        const shuffled = discover(tree, { ownerDirs: [...owners].reverse() }, { listOrder: shuffle });
        expect(view(shuffled.set)).toEqual(view(reference.set));
        expect(shuffled.found.rules.map((r) => r.path)).toEqual(reference.found.rules.map((r) => r.path));
      }),
      { numRuns: 200 },
    );
    expect(view(reference.set)[0]).toEqual([
      '.claude/rules/z.md',
      '.clinerules/x.md',
      '.cursor/rules/a/c.mdc',
      '.cursor/rules/b.mdc',
      '.github/instructions/g.instructions.md',
    ]);
  });
});

describe('symlinks on disk', () => {
  test('a symlinked rules folder inside the root is followed; one leading outside is a warn', () => {
    const outside = tempTree({ 'evil.md': 'outside' });
    const root = tempTree({
      'shared/team.md': '---\npaths: ["*.ts"]\n---\nteam',
      '.claude/rules': { symlink: '../shared' },
      '.clinerules/out.md': { symlink: `${outside}/evil.md` },
    });
    const found = discoverRules(createNodeFileSystem(), {
      workDir: root,
      ownerDirs: [root],
      sources: ['claude', 'cline'],
      maxFileBytes: 1024,
    });
    expect(found.rules.map((r) => [r.relativePath, r.realPath === `${root}/shared/team.md`])).toEqual([
      ['.claude/rules/team.md', true],
    ]);
    expect(found.diagnostics.map((d) => d.code)).toEqual(['symlink-outside-workdir']);
  });

  test.each([
    ['inside', ['in.mdc', 'plain.mdc'], ['symlink-outside-workdir']],
    ['reject', ['plain.mdc'], ['symlink-rejected', 'symlink-rejected']],
    ['follow', ['in.mdc', 'out.mdc', 'plain.mdc'], []],
  ] as const)('instructions.symlinks %s applies to rule files', (symlinks, names, codes) => {
    const outside = tempTree({ 's.mdc': '---\nalwaysApply: true\n---\nout' });
    const root = tempTree({
      'shared/s.mdc': '---\nalwaysApply: true\n---\nin',
      '.cursor/rules/plain.mdc': '---\nalwaysApply: true\n---\nplain',
      '.cursor/rules/in.mdc': { symlink: '../../shared/s.mdc' },
      '.cursor/rules/out.mdc': { symlink: `${outside}/s.mdc` },
    });
    const found = discoverRules(createNodeFileSystem(), {
      workDir: root,
      ownerDirs: [root],
      sources: ['cursor'],
      maxFileBytes: 1024,
      symlinks,
    });
    expect(found.rules.map((r) => `${r.name}.mdc`)).toEqual(names);
    expect(found.diagnostics.map((d) => d.code)).toEqual(codes);
  });

  test('a plain rule file swapped for a link or a FIFO after the listing is passed over as gone, never followed', () => {
    const outside = tempTree({ 's.mdc': '---\nalwaysApply: true\n---\nout' });
    const root = tempTree({
      '.cursor/rules/a.mdc': '---\nalwaysApply: true\n---\na',
      '.cursor/rules/b.mdc': '---\nalwaysApply: true\n---\nb',
      '.cursor/rules/c.mdc': '---\nalwaysApply: true\n---\nc',
    });
    const port = createNodeFileSystem();
    const folder = `${root}/.cursor/rules`;
    // The race, made certain: the folder is listed, then two of its files are replaced.
    const racing = {
      ...port,
      readdir: (dir: string) => {
        const entries = port.readdir(dir);
        if (dir === folder) {
          nodeFs.rmSync(`${folder}/a.mdc`);
          nodeFs.symlinkSync(`${outside}/s.mdc`, `${folder}/a.mdc`);
          nodeFs.rmSync(`${folder}/b.mdc`);
          execFileSync('mkfifo', [`${folder}/b.mdc`]);
        }
        return entries;
      },
    };
    const found = discoverRules(racing, {
      workDir: root,
      ownerDirs: [root],
      sources: ['cursor'],
      maxFileBytes: 1024,
    });
    expect(found.rules.map((r) => r.text)).toEqual(['c']);
    // As before the read lost its lstat: the listed file is gone, like one deleted since.
    expect(found.skipped).toEqual([]);
    expect(found.diagnostics).toEqual([]);
  });
});
