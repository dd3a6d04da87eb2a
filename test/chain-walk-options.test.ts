import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { createResolver } from '../src/index.js';
import { parseConfig } from '../src/index.js';
import { walkChain } from '../src/discover/chain-walk.js';
import { createMemoryFileSystem } from '../src/fs/memory-file-system.js';
import { collectSources } from '../src/resolve/collect-files.js';
import { identityOf, type Candidate } from '../src/resolve/expand-entries.js';
import { tempTree } from './helpers/disk.js';
import { memoryResolver } from './helpers/memory.js';

// The chain walk's options: `select: all`, `@rules` slots, blank chain files, the default
// AGENTS.local.md and `contextRoot: project` (docs/chains.md).
const CLAUDE = ['CLAUDE.md', '.claude/CLAUDE.md', '@rules', 'CLAUDE.local.md'];

describe('chain additions', () => {
  test('select: all takes every existing candidate of a directory, in candidate order', () => {
    const memory = createMemoryFileSystem({
      '/r/.git/HEAD': 'x',
      '/r/CLAUDE.local.md': 'l',
      '/r/CLAUDE.md': 'c',
      '/r/.claude/CLAUDE.md': 'dc',
      '/r/pkg/CLAUDE.local.md': 'pl',
    });
    const chain = walkChain(memory, {
      workDir: '/r/pkg',
      walk: 'project',
      projectRootMarkers: ['.git'],
      candidates: CLAUDE,
      select: 'all',
    });
    expect(chain.items.map((item) => (item.kind === 'rules' ? `@rules ${item.dir}` : item.path))).toEqual([
      '/r/CLAUDE.md',
      '/r/.claude/CLAUDE.md',
      '@rules /r',
      '/r/CLAUDE.local.md',
      '@rules /r/pkg',
      '/r/pkg/CLAUDE.local.md',
    ]);
    expect(chain.diagnostics).toEqual([]);
  });

  test.each([
    ['first', ['/r/.claude/CLAUDE.md']],
    ['all', ['/r/.claude/CLAUDE.md', '/r/CLAUDE.local.md']],
  ] as const)('a sub-path candidate wins like a name (select: %s)', (select, expected) => {
    const memory = createMemoryFileSystem({
      '/r/.git/HEAD': 'x',
      '/r/.claude/CLAUDE.md': 'dc',
      '/r/CLAUDE.local.md': 'l',
    });
    const chain = walkChain(memory, {
      workDir: '/r',
      walk: 'project',
      projectRootMarkers: ['.git'],
      candidates: CLAUDE,
      select,
    });
    expect(chain.files.map((file) => file.path)).toEqual(expected);
  });

  test.each([
    ['inside', [], 1],
    ['reject', [], 1],
    ['follow', ['/r/.claude/CLAUDE.md'], 0],
  ] as const)(
    'a sub-path through a symlinked directory out of the chain follows the policy (%s)',
    (symlinks, expected, warnings) => {
      const memory = createMemoryFileSystem({
        '/r/.git/HEAD': 'x',
        '/r/.claude': { symlink: '/elsewhere' },
        '/elsewhere/CLAUDE.md': 'outside',
      });
      const chain = walkChain(memory, {
        workDir: '/r',
        walk: 'project',
        projectRootMarkers: ['.git'],
        candidates: ['.claude/CLAUDE.md'],
        symlinks,
      });
      expect(chain.files.map((file) => file.path)).toEqual(expected);
      const refusals = chain.diagnostics.filter((d) => d.code === 'symlink-rejected');
      expect(refusals).toHaveLength(warnings);
      for (const refusal of refusals) expect(refusal.message).toContain('/elsewhere/CLAUDE.md');
    },
  );

  test('an @rules slot is filled by the caller at its place in the chain; without one it yields nothing', () => {
    const memory = createMemoryFileSystem({
      '/r/.git/HEAD': 'x',
      '/r/CLAUDE.md': 'c',
      '/r/CLAUDE.local.md': 'l',
      '/r/.claude/rules/a.md': 'rule a',
    });
    const plan = { key: 'k', layers: [], replaced: [], diagnostics: [] } as never;
    const instructions = {
      walk: 'project' as const,
      projectRootMarkers: ['.git'],
      candidates: CLAUDE,
      userFile: null,
      extraFiles: [],
      trackChanges: false,
      select: 'all' as const,
    };
    const rule = (dir: string): Candidate[] => {
      const file = `${dir}/.claude/rules/a.md`;
      const info = memory.stat(file);
      return [
        {
          path: file,
          realPath: file,
          source: 'chain',
          layer: 'chain',
          entry: '@rules',
          depth: 0,
          identity: identityOf(info),
          info,
        },
      ];
    };
    const filled = collectSources(memory, '/r', plan, { instructions, homeDir: '/h', rulesAt: rule }, []);
    expect(filled.files.map((file) => file.path)).toEqual([
      '/r/CLAUDE.md',
      '/r/.claude/rules/a.md',
      '/r/CLAUDE.local.md',
    ]);
    const empty = collectSources(memory, '/r', plan, { instructions, homeDir: '/h' }, []);
    expect(empty.files.map((file) => file.path)).toEqual(['/r/CLAUDE.md', '/r/CLAUDE.local.md']);
  });

  test('a whitespace-only chain file is skipped with an info; the next candidate is not tried', async () => {
    const { resolver } = await memoryResolver(
      { '/w/.git/HEAD': 'x', '/w/AGENTS.md': ' \n\t\n', '/w/CLAUDE.md': 'claude' },
      { contextPaths: [], instructions: { walk: 'project' } },
    );
    const result = await resolver.resolve();
    expect(result.text).toBe('');
    expect(result.diagnostics).toContainEqual({
      level: 'info',
      code: 'blank-file',
      message: '/w/AGENTS.md holds only whitespace and is skipped',
      layer: 'chain',
      entry: 'AGENTS.md',
      path: '/w/AGENTS.md',
    });
  });

  test.each([
    // env, files, expected user file
    [{}, { '/h/.codex/AGENTS.md': 'home' }, '/h/.codex/AGENTS.md'],
    [{ CODEX_HOME: '/c' }, { '/c/AGENTS.md': 'c', '/h/.codex/AGENTS.md': 'home' }, '/c/AGENTS.md'],
    [{ CODEX_HOME: '/c' }, { '/c/AGENTS.md': '', '/h/.codex/AGENTS.md': 'home' }, '/h/.codex/AGENTS.md'],
    [{ CODEX_HOME: '' }, { '/h/.codex/AGENTS.md': 'home' }, '/h/.codex/AGENTS.md'],
    // Whitespace only is blank, as for Codex: the next file is tried.
    [
      { CODEX_HOME: '/c' },
      { '/c/AGENTS.md': ' \n\t\r\n', '/h/.codex/AGENTS.md': 'home' },
      '/h/.codex/AGENTS.md',
    ],
    [
      { CODEX_HOME: '/c' },
      { '/c/AGENTS.md': '\ufeff \n', '/h/.codex/AGENTS.md': 'home' },
      '/h/.codex/AGENTS.md',
    ],
    [{ CODEX_HOME: '/c' }, { '/c/AGENTS.md': ' x ', '/h/.codex/AGENTS.md': 'home' }, '/c/AGENTS.md'],
    [{}, {}, null],
  ])('userFile list with env %j', async (env, files, expected) => {
    const { resolver } = await memoryResolver(
      files,
      { contextPaths: [], instructions: { userFile: ['${env.CODEX_HOME}/AGENTS.md', '~/.codex/AGENTS.md'] } },
      { env, homeDir: '/h' },
    );
    const result = await resolver.resolve();
    expect(result.files.map((file) => file.path)).toEqual(expected === null ? [] : [expected]);
    expect(JSON.stringify(result.diagnostics)).not.toContain('"/c');
  });
});

test('codex preset: a whitespace-only $CODEX_HOME/AGENTS.override.md does not hide AGENTS.md', async () => {
  const { resolver } = await memoryResolver(
    { '/c/AGENTS.override.md': '\n   \n', '/c/AGENTS.md': 'user rules', '/w/x.ts': '' },
    { preset: 'codex' } as never,
    { env: { CODEX_HOME: '/c' }, homeDir: '/h' },
  );
  const result = await resolver.resolve();
  expect(result.files.map((file) => file.path)).toEqual(['/c/AGENTS.md']);
  expect(result.diagnostics).toContainEqual(expect.objectContaining({ code: 'blank-file', level: 'debug' }));
});

describe('AGENTS.local.md in the default contextPaths', () => {
  test('it follows AGENTS.md', async () => {
    const { resolver } = await memoryResolver({ '/w/AGENTS.md': 'a', '/w/AGENTS.local.md': 'l' });
    const result = await resolver.resolve();
    expect(result.files.map((file) => file.path)).toEqual(['/w/AGENTS.local.md', '/w/AGENTS.md']);
  });
});

describe('contextRoot: project', () => {
  test.each(['', 'packages', 'packages/api'])('from /%s the root files are read', async (sub) => {
    const root = tempTree({
      '.git/HEAD': 'x',
      'AGENTS.md': 'root',
      '.github/copilot-instructions.md': 'copilot',
      'packages/api/AGENTS.md': 'api',
      'packages/.keep': '',
    });
    const { config } = await parseConfig({
      contextRoot: 'project',
      contextPaths: ['AGENTS.md', '.github/copilot-instructions.md', '../outside.md'],
    });
    const resolver = await createResolver({ workDir: path.join(root, sub), config, env: {} });
    const result = await resolver.resolve();
    expect(result.files.map((file) => path.relative(root, file.path))).toEqual([
      '.github/copilot-instructions.md',
      'AGENTS.md',
    ]);
    expect(result.diagnostics.some((d) => d.code === 'outside-workdir')).toBe(true);
  });

  test.each(['', 'packages', 'packages/api'])(
    'from /%s the rule folders up to the project root are read; a root rule-folder entry is left to them',
    async (sub) => {
      const root = tempTree({
        '.git/HEAD': 'x',
        '.cursor/rules/a.mdc': '---\nalwaysApply: true\n---\nroot rule',
        'packages/api/.keep': '',
      });
      const { config } = await parseConfig({
        contextRoot: 'project',
        contextPaths: ['.cursor/rules/'],
        rules: { sources: ['cursor'] },
      });
      const resolver = await createResolver({ workDir: path.join(root, sub), config, env: {} });
      const result = await resolver.resolve();
      expect(result.files.map((file) => [file.layer, path.relative(root, file.path)])).toEqual([
        ['rules', '.cursor/rules/a.mdc'],
      ]);
      expect(result.text).toContain('root rule');
      expect(result.diagnostics.filter((d) => d.code === 'rule-folder-entry')).toHaveLength(1);
    },
  );

  test('a rule-folder entry the engine does not read is expanded as files, with no info', async () => {
    const root = tempTree({
      '.git/HEAD': 'x',
      'packages/api/docs/.cursor/rules/a.mdc': 'raw',
    });
    const { config } = await parseConfig({
      contextPaths: ['docs/.cursor/rules/'],
      rules: { sources: ['cursor'], nested: false },
    });
    const resolver = await createResolver({ workDir: path.join(root, 'packages/api'), config, env: {} });
    const result = await resolver.resolve();
    expect(result.files.map((file) => file.layer)).toEqual(['global']);
    expect(result.diagnostics.filter((d) => d.code === 'rule-folder-entry')).toEqual([]);
  });

  test('without a marker, the work dir is used and an info says so', async () => {
    const { resolver } = await memoryResolver(
      { '/w/AGENTS.md': 'w' },
      { contextRoot: 'project', instructions: { projectRootMarkers: ['.nomarker'] } },
    );
    const result = await resolver.resolve();
    expect(result.files.map((file) => file.path)).toEqual(['/w/AGENTS.md']);
    expect(result.diagnostics.map((d) => d.code)).toContain('no-project-root');
  });
});
