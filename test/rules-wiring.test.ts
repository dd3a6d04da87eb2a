import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { createResolver } from '../src/index.js';
import type { ConfigInput } from '../src/config/schema.js';
import { normalizeConfig } from '../src/config/normalize-config.js';
import { FORMATS, KNOWN_RULE_SOURCES } from '../src/config/types.js';
import { createMemoryFileSystem, type MemoryFileSystemOptions } from '../src/fs/memory-file-system.js';
import { RULE_SOURCES } from '../src/rules/rule-adapters.js';
import { seededShuffle } from './helpers/shuffle.js';

const W = '/w';

/** A work dir `/w` with a tree of files, and a resolver over it. */
async function setup(
  tree: Record<string, string>,
  config: ConfigInput = {},
  fsOptions: MemoryFileSystemOptions = {},
) {
  const fs = createMemoryFileSystem({}, fsOptions);
  fs.set(W, { dir: true });
  for (const [file, text] of Object.entries(tree)) fs.set(`${W}/${file}`, text);
  const resolver = await createResolver({
    workDir: W,
    config: normalizeConfig({ contextPaths: ['AGENTS.md'], ...config }),
    fs,
    env: {},
    homeDir: '/home',
  });
  return { fs, resolver };
}

const ALL = { rules: { sources: [...RULE_SOURCES] } };

const TREE = {
  'AGENTS.md': 'agents',
  '.cursor/rules/always.mdc': '---\nalwaysApply: true\n---\nalways cursor',
  '.cursor/rules/ts.mdc': '---\nglobs: "*.ts"\n---\nts rule',
  '.cursor/rules/db.mdc': '---\ndescription: Database migrations\n---\ndb rule',
  '.cursor/rules/manual.mdc': 'manual rule',
  'pkg/.claude/rules/pkg.md': 'pkg always',
  'pkg/.claude/rules/api.md': '---\npaths: ["src/**"]\n---\npkg api rule',
  'pkg/src/a.ts': 'code',
};

const layers = (files: readonly { layer: string; entry: string }[]) =>
  files.map((file) => `${file.layer}:${file.entry}`);

describe('the rules layer', () => {
  test('with rules.sources: [], nothing changes: no rules key, the folder entry is inlined raw', async () => {
    const { resolver } = await setup(TREE, {
      contextPaths: ['AGENTS.md', '.cursor/rules/'],
      rules: { sources: [] },
    });
    const result = await resolver.resolve();
    expect('rules' in result).toBe(false);
    expect(layers(result.files)).toEqual([
      'global:.cursor/rules/',
      'global:.cursor/rules/',
      'global:.cursor/rules/',
      'global:.cursor/rules/',
      'global:AGENTS.md',
    ]);
    expect(result.text).toContain('alwaysApply: true');
  });

  test('always rules of the work dir come after the chain and before contextPaths, without frontmatter', async () => {
    const { resolver } = await setup(
      { ...TREE, 'CLAUDE.md': 'chain' },
      {
        ...ALL,
        instructions: { walk: 'project', projectRootMarkers: ['AGENTS.md'], candidates: ['CLAUDE.md'] },
      },
    );
    const result = await resolver.resolve({ format: 'xml' });
    expect(layers(result.files)).toEqual(['chain:CLAUDE.md', 'rules:always', 'global:AGENTS.md']);
    expect(result.text).toContain('always cursor');
    expect(result.text).not.toContain('alwaysApply');
  });

  test('a contextPaths entry naming a rule folder is left to the engine (info), the same file appears once', async () => {
    const { resolver } = await setup(
      { ...TREE, '.github/copilot-instructions.md': 'copilot' },
      { ...ALL, contextPaths: ['AGENTS.md', './.cursor/rules', '.github/copilot-instructions.md'] },
    );
    const result = await resolver.resolve();
    expect(layers(result.files)).toEqual(['rules:always', 'rules:copilot-instructions', 'global:AGENTS.md']);
    const info = result.diagnostics.filter((d) => d.code === 'rule-folder-entry');
    expect(info).toHaveLength(1);
    expect(info[0]).toMatchObject({ level: 'info', entry: './.cursor/rules' });
    expect(result.diagnostics.some((d) => d.code === 'deduped')).toBe(true);
  });

  test.each(FORMATS)('format %s shows the rule text and never its frontmatter', async (format) => {
    const { resolver } = await setup(TREE, ALL);
    const result = await resolver.resolve({ format, paths: ['pkg/src/a.ts'] });
    for (const text of ['always cursor', 'pkg api rule', 'pkg always']) expect(result.text).toContain(text);
    expect(result.text).not.toMatch(/alwaysApply|paths:/);
  });

  test('exact bytes in the opencode format', async () => {
    const { resolver } = await setup(
      { '.claude/rules/style.md': '---\npaths: ["*.md"]\n---\nUse tabs.\n' },
      ALL,
    );
    const result = await resolver.resolve({ paths: ['README.md'] });
    expect(result.text).toBe(
      '# Project-Specific Context\n Make sure to follow the instructions in the context below\n# From:/w/.claude/rules/style.md\nUse tabs.\n',
    );
  });
});

describe('--paths and --rule', () => {
  test('paths bring in glob rules and nested owners’ always rules after the always rules, in discovery order', async () => {
    const { resolver } = await setup(TREE, ALL);
    const plain = await resolver.resolve();
    expect(layers(plain.files)).toEqual(['rules:always', 'global:AGENTS.md']);
    const withPaths = await resolver.resolve({ paths: ['pkg/src/a.ts', 'x.ts'] });
    expect(layers(withPaths.files)).toEqual([
      'rules:always',
      'rules:ts',
      'rules:api',
      'rules:pkg',
      'global:AGENTS.md',
    ]);
    expect(plain.text).not.toBe(withPaths.text);
  });

  test('names select rules of any kind; an unknown name warns', async () => {
    const { resolver } = await setup(TREE, ALL);
    const result = await resolver.resolve({ rules: ['manual', 'db', 'nope'] });
    expect(layers(result.files)).toEqual(['rules:always', 'rules:db', 'rules:manual', 'global:AGENTS.md']);
    expect(result.diagnostics.filter((d) => d.code === 'unknown-rule').map((d) => d.message)).toEqual([
      'no rule is named "nope"; see `ctxfiles explain` for the rules found',
    ]);
  });

  test('memoization keys hold paths and names; refresh() re-reads rules', async () => {
    const { fs, resolver } = await setup(TREE, ALL);
    const a = await resolver.resolve({ paths: ['a.ts'] });
    expect(await resolver.resolve({ paths: ['a.ts'] })).toBe(a);
    expect(await resolver.resolve({ paths: ['a.md'] })).not.toBe(a);
    expect(await resolver.resolve({ rules: ['manual'] })).not.toBe(await resolver.resolve());
    fs.set(`${W}/.cursor/rules/always.mdc`, '---\nalwaysApply: true\n---\nchanged');
    expect((await resolver.resolve({ paths: ['a.ts'] })).text).toContain('always cursor');
    resolver.refresh();
    expect((await resolver.resolve({ paths: ['a.ts'] })).text).toContain('changed');
  });

  test('resolver.rule(name) returns every rule with that name; empty when rules are off', async () => {
    const { resolver } = await setup({ ...TREE, '.claude/rules/db.md': 'claude db' }, ALL);
    expect((await resolver.rule('db')).map((rule) => rule.relativePath)).toEqual([
      '.claude/rules/db.md',
      '.cursor/rules/db.mdc',
    ]);
    expect(await resolver.rule('.cursor/rules/db.mdc')).toHaveLength(1);
    const off = await setup(TREE, { rules: { sources: [] } });
    expect(await off.resolver.rule('db')).toEqual([]);
  });

  test('resolver.rule(name) reads the file now: an edit shows, a deleted file is left out', async () => {
    const { fs, resolver } = await setup(TREE, ALL);
    expect((await resolver.rule('db')).map((rule) => rule.text)).toEqual(['db rule']);
    const edited = '---\ndescription: Database migrations\n---\ndb rule, edited \u202e';
    fs.set(`${W}/.cursor/rules/db.mdc`, edited);
    const [fresh] = await resolver.rule('db');
    expect(fresh?.text).toBe('db rule, edited \u202e');
    // Everything about the file is of the new read: size, digest, hidden characters.
    expect(fresh?.bytes).toBe(Buffer.byteLength(edited));
    expect(fresh?.sha256).toBe(createHash('sha256').update(edited).digest('hex'));
    expect(fresh?.hidden.map((hidden) => hidden.codePoint)).toEqual(['U+202E']);
    expect(Object.isFrozen(fresh)).toBe(true);
    fs.remove(`${W}/.cursor/rules/db.mdc`);
    expect(await resolver.rule('db')).toEqual([]);
  });
});

describe('the plain resolve and the @rules seam', () => {
  test('manifest: false without paths or names reads no rule folder below the work dir', async () => {
    const { fs, resolver } = await setup(TREE, ALL);
    const plain = await resolver.resolve({ manifest: false });
    expect(fs.calls.some((call) => call.path.startsWith(`${W}/pkg`))).toBe(false);
    expect(layers(plain.files)).toEqual(['rules:always', 'global:AGENTS.md']);
    const full = await resolver.resolve({ manifest: false, paths: ['pkg/src/a.ts'] });
    expect(layers(full.files)).toContain('rules:api');
  });

  test('with the chain candidate @rules, the chain directories’ always rules stand in the chain, once', async () => {
    const fs = createMemoryFileSystem({});
    fs.set(W, { dir: true });
    for (const [file, text] of Object.entries(TREE)) fs.set(`${W}/${file}`, text);
    const base = normalizeConfig({ contextPaths: ['AGENTS.md'], ...ALL });
    const config = {
      ...base,
      instructions: { ...base.instructions, walk: 'project' as const, candidates: ['CLAUDE.md', '@rules'] },
    };
    const resolver = await createResolver({ workDir: W, config, fs, env: {}, homeDir: '/home' });
    const result = await resolver.resolve();
    // Placed by the chain's `@rules` slot (before the contextPaths layers), not repeated by the layer.
    expect(layers(result.files)).toEqual(['rules:always', 'global:AGENTS.md']);
    expect(result.files.filter((file) => file.layer === 'rules')).toHaveLength(1);
  });
});

describe('explain', () => {
  test('every rule with source, kind, globs and reason', async () => {
    const { resolver } = await setup(
      { ...TREE, '.windsurf/rules/bad.md': '---\ntrigger: sometimes\n---\n' },
      ALL,
    );
    const result = await resolver.resolve({ paths: ['pkg/src/a.ts'], rules: ['manual'] });
    expect(
      result.rules?.map((rule) => [rule.relativePath, rule.source, rule.kind, rule.globs, rule.reason]),
    ).toEqual([
      ['.cursor/rules/always.mdc', 'cursor', 'always', [], 'always'],
      ['.cursor/rules/db.mdc', 'cursor', 'requested', [], 'listed in catalog'],
      ['.cursor/rules/manual.mdc', 'cursor', 'manual', [], 'named'],
      ['.cursor/rules/ts.mdc', 'cursor', 'glob', ['*.ts'], 'matched *.ts by pkg/src/a.ts'],
      ['pkg/.claude/rules/api.md', 'claude', 'glob', ['src/**'], 'matched src/** by pkg/src/a.ts'],
      ['pkg/.claude/rules/pkg.md', 'claude', 'always', [], 'always inside pkg/'],
      [
        '.windsurf/rules/bad.md',
        'windsurf',
        null,
        [],
        expect.stringMatching(/^bad frontmatter: /) as unknown as string,
      ],
    ]);
  });
});

describe('the manifest and sessions', () => {
  test('the manifest lists nested always rules and the catalog of requested rules', async () => {
    const { resolver } = await setup(TREE, ALL);
    const result = await resolver.resolve();
    expect(result.manifest).toBe(
      [
        '# Nested Context Files',
        'These instruction files govern subdirectories of the work dir. Their text is not loaded yet: ' +
          "a file's text is appended to a tool result once you first work in its directory.",
        '- pkg/.claude/rules/pkg.md: claude rule pkg',
        '',
        '# Rules on Request',
        'These rules apply only when a task calls for them; their text is not loaded. Before work a rule ' +
          'describes, read its file (paths are relative to the working directory).',
        '- db (.cursor/rules/db.mdc): Database migrations',
      ].join('\n'),
    );
  });

  test('a glob rule is injected once, on the first touch of a matching file, with a frame naming the file', async () => {
    const { resolver } = await setup(TREE, ALL);
    const session = await resolver.openSession();
    expect(await session.afterTool({ tool: 'read', input: { file_path: 'README.md' }, ok: true })).toBe('');
    const first = await session.afterTool({ tool: 'read', input: { file_path: 'lib/b.ts' }, ok: true });
    expect(first).toBe(
      '<system-reminder>\n# From:/w/.cursor/rules/ts.mdc\nRule "ts" (cursor) applies: lib/b.ts matches its glob *.ts.\n\nts rule\n</system-reminder>',
    );
    expect(await session.afterTool({ tool: 'read', input: { file_path: 'lib/c.ts' }, ok: true })).toBe('');
    const inPkg = await session.afterTool({ tool: 'edit', input: { file_path: 'pkg/src/a.ts' }, ok: true });
    expect(inPkg.match(/# From:\S+/g)).toEqual([
      '# From:/w/pkg/.claude/rules/api.md',
      '# From:/w/pkg/.claude/rules/pkg.md',
    ]);
    expect(await session.afterTool({ tool: 'read', input: { file_path: 'pkg/src/a.ts' }, ok: true })).toBe(
      '',
    );
    expect(session.state().injected.map((record) => record.path)).toEqual([
      '.cursor/rules/ts.mdc',
      'pkg/.claude/rules/api.md',
      'pkg/.claude/rules/pkg.md',
    ]);
  });

  test('a resumed session does not inject a rule again', async () => {
    const { resolver } = await setup(TREE, ALL);
    const session = await resolver.openSession();
    await session.afterTool({ tool: 'read', input: { file_path: 'a.ts' }, ok: true });
    const resumed = await resolver.openSession({ state: session.state() });
    expect(await resumed.afterTool({ tool: 'read', input: { file_path: 'b.ts' }, ok: true })).toBe('');
  });

  test('a nested owner’s always rule is injected on the first listing inside its owner', async () => {
    const { resolver } = await setup(TREE, ALL);
    const session = await resolver.openSession({ format: 'xml' });
    const text = await session.afterTool({ tool: 'ls', input: { path: 'pkg' }, ok: true });
    expect(text).toContain('pkg always');
    expect(text).not.toContain('pkg api rule');
  });

  test('rules passed with paths are in the block and never injected again', async () => {
    const { resolver } = await setup(TREE, ALL);
    const session = await resolver.openSession({ paths: ['a.ts'] });
    expect(await session.afterTool({ tool: 'read', input: { file_path: 'b.ts' }, ok: true })).toBe('');
  });

  test('the rule event fetches a rule by name, every time it is asked; an unknown name warns', async () => {
    const { resolver } = await setup(TREE, ALL);
    const diagnostics: string[] = [];
    const session = await resolver.openSession({ onDiagnostic: (d) => diagnostics.push(d.code) });
    const text = await session.afterTool({ tool: 'rule', input: { name: 'db' } });
    expect(text).toBe(
      '<system-reminder>\n# From:/w/.cursor/rules/db.mdc\nRule "db" (cursor) applies: it was asked for by name.\n\ndb rule\n</system-reminder>',
    );
    expect(await session.afterTool({ tool: 'rule', input: { name: 'db' } })).toBe(text);
    expect(await session.afterTool({ tool: 'rule', input: { name: 'nope' } })).toBe('');
    expect(diagnostics).toEqual(['unknown-rule']);
    expect(session.state().injected.map((record) => record.path)).toEqual(['.cursor/rules/db.mdc']);
  });

  test('change tracking covers injected rules', async () => {
    const { fs, resolver } = await setup(TREE, { ...ALL, instructions: { trackChanges: true } });
    const session = await resolver.openSession();
    await session.afterTool({ tool: 'read', input: { file_path: 'a.ts' }, ok: true });
    fs.set(`${W}/.cursor/rules/ts.mdc`, '---\nglobs: "*.ts"\n---\nts rule, changed');
    const text = await session.afterTool({ tool: 'read', input: { file_path: 'README.md' }, ok: true });
    // The body only: the frontmatter of the changed file is not shown.
    expect(text).toBe(
      '<system-reminder>\nUpdated instructions from: .cursor/rules/ts.mdc\n\nThis file changed after it was shown. Use the text below in place of the earlier version.\n\nts rule, changed\n</system-reminder>',
    );
    expect(session.state().tracked.some((record) => record.path === `${W}/.cursor/rules/ts.mdc`)).toBe(true);
  });

  test('a rule is read when it is injected: an edit since the start shows, a deleted file warns', async () => {
    const { fs, resolver } = await setup(TREE, ALL);
    const diagnostics: string[] = [];
    const session = await resolver.openSession({ onDiagnostic: (d) => diagnostics.push(d.code) });
    fs.set(`${W}/.cursor/rules/ts.mdc`, '---\nglobs: "*.ts"\n---\nts rule, edited');
    fs.remove(`${W}/pkg/.claude/rules/api.md`);
    const text = await session.afterTool({ tool: 'read', input: { file_path: 'pkg/src/a.ts' }, ok: true });
    expect(text).toBe(
      [
        '<system-reminder>\n# From:/w/.cursor/rules/ts.mdc\nRule "ts" (cursor) applies: pkg/src/a.ts matches its glob *.ts.\n\nts rule, edited\n</system-reminder>',
        '<system-reminder>\n# From:/w/pkg/.claude/rules/pkg.md\nRule "pkg" (claude) applies: it applies to everything under pkg/, where pkg/src/a.ts is.\n\npkg always\n</system-reminder>',
      ].join('\n'),
    );
    expect(diagnostics).toEqual(['vanished']);
    expect(session.state().skipped).toEqual(['pkg/.claude/rules/api.md']);
  });

  test('a rule whose frontmatter broke since the start is not injected', async () => {
    const { fs, resolver } = await setup(TREE, ALL);
    const diagnostics: string[] = [];
    const session = await resolver.openSession({ onDiagnostic: (d) => diagnostics.push(d.code) });
    fs.set(`${W}/.cursor/rules/db.mdc`, '---\ndescription: [\nno closing fence');
    expect(await session.afterTool({ tool: 'rule', input: { name: 'db' } })).toBe('');
    expect(diagnostics).toEqual(['rule-frontmatter']);
  });

  test('the session budget caps injected rules', async () => {
    const { resolver } = await setup(TREE, { ...ALL, contextDiscovery: { maxSessionBytes: 40 } });
    const diagnostics: string[] = [];
    const session = await resolver.openSession({ onDiagnostic: (d) => diagnostics.push(d.code) });
    expect(await session.afterTool({ tool: 'read', input: { file_path: 'a.ts' }, ok: true })).toBe('');
    expect(diagnostics).toEqual(['session-budget-exhausted']);
  });
});

describe('instructions.symlinks', () => {
  test.each([
    ['inside', ['rules:a', 'rules:in', 'global:AGENTS.md'], ['symlink-outside-workdir']],
    ['reject', ['rules:a', 'global:AGENTS.md'], ['symlink-rejected', 'symlink-rejected']],
  ] as const)('%s applies to rule files as to every other source', async (symlinks, expected, codes) => {
    const { fs, resolver } = await setup(
      { 'AGENTS.md': 'agents', '.cursor/rules/a.mdc': '---\nalwaysApply: true\n---\nrule-a' },
      { ...ALL, instructions: { symlinks } },
    );
    fs.set('/shared/s.mdc', '---\nalwaysApply: true\n---\nrule-out');
    fs.set(`${W}/shared/s.mdc`, '---\nalwaysApply: true\n---\nrule-in');
    fs.set(`${W}/.cursor/rules/in.mdc`, { symlink: `${W}/shared/s.mdc` });
    fs.set(`${W}/.cursor/rules/out.mdc`, { symlink: '/shared/s.mdc' });
    const result = await resolver.resolve();
    expect(layers(result.files)).toEqual(expected);
    expect(result.diagnostics.filter((d) => d.code.startsWith('symlink')).map((d) => d.code)).toEqual(codes);
  });
});

describe('budgets', () => {
  test.each([
    // budget, layers of the files left out, in order
    [10_000, []],
    [420, ['chain']],
    [330, ['chain', 'rules']],
  ])(
    'specific-first drops the chain, then the rules, then contextPaths files (maxBytes %i)',
    async (maxBytes, dropped) => {
      const { resolver } = await setup(
        { ...TREE, 'CLAUDE.md': 'c'.repeat(150), 'AGENTS.md': 'a'.repeat(150) },
        {
          ...ALL,
          instructions: { walk: 'project', projectRootMarkers: ['AGENTS.md'], candidates: ['CLAUDE.md'] },
          budget: { maxBytes },
        },
      );
      const result = await resolver.resolve();
      expect(result.diagnostics.filter((d) => d.code === 'budget-dropped').map((d) => d.layer)).toEqual(
        dropped,
      );
      expect(result.text).toContain('a'.repeat(50));
    },
  );
});

describe('config', () => {
  test('KNOWN_RULE_SOURCES is the adapter table', () => {
    expect([...KNOWN_RULE_SOURCES]).toEqual([...RULE_SOURCES]);
  });

  test('without rules.sources every adapter of the table is read; [] reads none', () => {
    expect(normalizeConfig({}).rules?.sources).toEqual([...RULE_SOURCES]);
    expect(normalizeConfig({ rules: { nested: false } }).rules?.sources).toEqual([...RULE_SOURCES]);
    expect(normalizeConfig({ rules: { sources: [] } }).rules?.sources).toEqual([]);
  });
});

describe('order independence', () => {
  test('the rules a resolution applies never depend on listing order', async () => {
    const paths = ['pkg/src/a.ts', 'lib/b.ts', 'README.md'];
    const reference = await (await setup(TREE, ALL)).resolver.resolve({ paths });
    await fc.assert(
      fc.asyncProperty(fc.integer(), async (seed) => {
        const listOrder = seededShuffle(seed);
        const { resolver } = await setup(TREE, ALL, { listOrder });
        const result = await resolver.resolve({ paths: [...paths].reverse() });
        expect(result.text).toBe(reference.text);
        expect(result.manifest).toBe(reference.manifest);
      }),
      { numRuns: 50 },
    );
  });
});
