import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { createResolver } from '../src/index.js';
import { loadConfig, parseConfig } from '../src/index.js';
import { normalizeConfig } from '../src/config/normalize-config.js';
import { walkChain } from '../src/discover/chain-walk.js';
import { createMemoryFileSystem } from '../src/fs/memory-file-system.js';
import { tempTree } from './helpers/disk.js';
import { memoryResolver } from './helpers/memory.js';

const candidates = ['AGENTS.override.md', 'AGENTS.md', 'CLAUDE.md'];

describe('chain discovery', () => {
  test.each([
    // files on disk, walk, expected chain (ancestors first)
    [
      'one candidate per directory, ancestors first',
      { '/AGENTS.md': 'r', '/repo/CLAUDE.md': 'c', '/repo/pkg/AGENTS.md': 'a' },
      'root',
      ['/AGENTS.md', '/repo/CLAUDE.md', '/repo/pkg/AGENTS.md'],
    ],
    [
      'AGENTS.override.md beats AGENTS.md beats CLAUDE.md',
      {
        '/repo/pkg/AGENTS.override.md': 'o',
        '/repo/pkg/AGENTS.md': 'a',
        '/repo/pkg/CLAUDE.md': 'c',
        '/repo/AGENTS.md': 'a',
        '/repo/CLAUDE.md': 'c',
      },
      'root',
      ['/repo/AGENTS.md', '/repo/pkg/AGENTS.override.md'],
    ],
    [
      'files below the work dir are not part of the chain',
      { '/repo/pkg/AGENTS.md': 'a', '/repo/pkg/sub/AGENTS.md': 'below' },
      'root',
      ['/repo/pkg/AGENTS.md'],
    ],
    [
      'project: from the nearest marker (a directory)',
      { '/AGENTS.md': 'r', '/repo/.git/HEAD': 'x', '/repo/AGENTS.md': 'a', '/repo/pkg/CLAUDE.md': 'c' },
      'project',
      ['/repo/AGENTS.md', '/repo/pkg/CLAUDE.md'],
    ],
    [
      'project: a marker that is a file counts',
      { '/AGENTS.md': 'r', '/repo/.git': 'gitdir: elsewhere', '/repo/AGENTS.md': 'a' },
      'project',
      ['/repo/AGENTS.md'],
    ],
    [
      'project: the nearest marker wins',
      { '/repo/.git/HEAD': 'x', '/repo/AGENTS.md': 'a', '/repo/pkg/.git': 'sub', '/repo/pkg/AGENTS.md': 'p' },
      'project',
      ['/repo/pkg/AGENTS.md'],
    ],
    [
      'project: no marker reads the work dir alone',
      { '/AGENTS.md': 'r', '/repo/AGENTS.md': 'a', '/repo/pkg/AGENTS.md': 'p' },
      'project',
      ['/repo/pkg/AGENTS.md'],
    ],
    [
      'a directory named like a candidate is ignored',
      { '/repo/pkg/AGENTS.md/x': 'dir', '/repo/pkg/CLAUDE.md': 'c' },
      'root',
      ['/repo/pkg/CLAUDE.md'],
    ],
    [
      'a symlinked candidate leading out of the chain is refused and the next one is tried',
      {
        '/repo/.git/HEAD': 'x',
        '/repo/pkg/AGENTS.md': { symlink: '/secret' },
        '/repo/pkg/CLAUDE.md': 'c',
        '/secret': 's',
      },
      'project',
      ['/repo/pkg/CLAUDE.md'],
    ],
    [
      'a symlinked candidate whose target stays inside the chain is followed',
      {
        '/repo/.git/HEAD': 'x',
        '/repo/AGENTS.md': { symlink: '/repo/.ai/general.md' },
        '/repo/.ai/general.md': 'g',
      },
      'project',
      ['/repo/AGENTS.md'],
    ],
  ] as const)('%s', (_name, tree, walk, expected) => {
    const memory = createMemoryFileSystem(tree as Record<string, string | { symlink: string }>);
    memory.set('/repo/pkg/src', { dir: true });
    const chain = walkChain(memory, { workDir: '/repo/pkg', walk, projectRootMarkers: ['.git'], candidates });
    expect(chain.files.map((file) => file.path)).toEqual(expected);
  });

  test('a refused symlinked candidate is reported with its target', () => {
    const memory = createMemoryFileSystem({
      '/repo/.git/HEAD': 'x',
      '/repo/AGENTS.md': { symlink: '/etc/passwd' },
      '/etc/passwd': 'root',
    });
    const chain = walkChain(memory, {
      workDir: '/repo',
      walk: 'project',
      projectRootMarkers: ['.git'],
      candidates,
    });
    expect(chain.diagnostics).toEqual([
      {
        level: 'warn',
        code: 'symlink-rejected',
        message: '/repo/AGENTS.md is a symlink to /etc/passwd, outside /repo; it is not followed',
        layer: 'chain',
        entry: 'AGENTS.md',
        path: '/repo/AGENTS.md',
      },
    ]);
  });

  test('depth counts from the start of the chain', () => {
    const memory = createMemoryFileSystem({
      '/repo/.git/x': '',
      '/repo/AGENTS.md': 'a',
      '/repo/a/b/AGENTS.md': 'b',
    });
    const chain = walkChain(memory, {
      workDir: '/repo/a/b',
      walk: 'project',
      projectRootMarkers: ['.git'],
      candidates,
    });
    expect(chain.start).toBe('/repo');
    expect(chain.files.map((file) => [file.path, file.depth])).toEqual([
      ['/repo/AGENTS.md', 0],
      ['/repo/a/b/AGENTS.md', 2],
    ]);
  });
});

describe('one ordered list from every source', () => {
  test('user file, chain, layers, extra files; deduped; with provenance', async () => {
    const { resolver } = await memoryResolver(
      { 'AGENTS.md': 'work dir file', 'docs/rules.md': 'layer file' },
      {
        contextPaths: ['AGENTS.md', 'docs/rules.md'],
        instructions: {
          walk: 'root',
          userFile: '~/.config/ctxfiles/AGENTS.md',
          extraFiles: ['/opt/team/STYLE.md', '~/notes.md'],
        },
      },
      {
        workDir: '/repo/w',
        outside: {
          '/repo/AGENTS.md': 'repo root',
          '/home/u/.config/ctxfiles/AGENTS.md': 'user',
          '/opt/team/STYLE.md': 'team',
          '/home/u/notes.md': 'notes',
        },
      },
    );
    const result = await resolver.resolve();
    expect(result.files.map((file) => [file.path, file.source, file.layer, file.entry, file.depth])).toEqual([
      ['/home/u/.config/ctxfiles/AGENTS.md', 'user', 'user', '~/.config/ctxfiles/AGENTS.md', null],
      ['/repo/AGENTS.md', 'chain', 'chain', 'AGENTS.md', 1],
      ['/repo/w/AGENTS.md', 'chain', 'chain', 'AGENTS.md', 2],
      ['/repo/w/docs/rules.md', 'layer', 'global', 'docs/rules.md', 1],
      ['/opt/team/STYLE.md', 'extra', 'extra', '/opt/team/STYLE.md', null],
      ['/home/u/notes.md', 'extra', 'extra', '~/notes.md', null],
    ]);
    // The work dir's AGENTS.md came first through the chain; the global layer's copy is a duplicate.
    expect(result.diagnostics.find((d) => d.code === 'deduped')).toMatchObject({
      layer: 'global',
      path: '/repo/w/AGENTS.md',
    });
  });

  test('walk: off (the default) keeps the spec-003 output byte-identical', async () => {
    const tree = { 'AGENTS.md': 'root' };
    const plain = await memoryResolver(
      tree,
      { contextPaths: ['AGENTS.md'] },
      { outside: { '/AGENTS.md': 'fs root' } },
    );
    const off = await memoryResolver(
      tree,
      { contextPaths: ['AGENTS.md'], instructions: { walk: 'off', candidates: ['X.md'] } },
      { outside: { '/AGENTS.md': 'fs root' } },
    );
    expect((await off.resolver.resolve()).text).toBe((await plain.resolver.resolve()).text);
    expect((await plain.resolver.resolve()).text).toBe(
      '# Project-Specific Context\n Make sure to follow the instructions in the context below\n# From:/w/AGENTS.md\nroot',
    );
  });

  test('a missing user file is skipped quietly', async () => {
    const { resolver } = await memoryResolver(
      { 'AGENTS.md': 'a' },
      { contextPaths: ['AGENTS.md'], instructions: { userFile: '~/AGENTS.md' } },
    );
    const result = await resolver.resolve();
    expect(result.files.map((file) => file.path)).toEqual(['/w/AGENTS.md']);
    expect(result.diagnostics).toContainEqual({
      level: 'debug',
      code: 'missing',
      message: '/home/u/AGENTS.md does not exist',
      layer: 'user',
      entry: '~/AGENTS.md',
      path: '/home/u/AGENTS.md',
    });
  });
});

describe('candidate validation', () => {
  test.each([
    ['', 'instructions.candidates[0]'],
    ['.', 'instructions.candidates[0]'],
    ['..', 'instructions.candidates[0]'],
    ['../AGENTS.md', 'instructions.candidates[0]'],
    ['docs/../AGENTS.md', 'instructions.candidates[0]'],
    ['./AGENTS.md', 'instructions.candidates[0]'],
    ['/etc/AGENTS.md', 'instructions.candidates[0]'],
    ['docs//AGENTS.md', 'instructions.candidates[0]'],
    ['docs/', 'instructions.candidates[0]'],
    ['C:AGENTS.md', 'instructions.candidates[0]'],
    ['docs\\AGENTS.md', 'instructions.candidates[0]'],
  ])('%j is a config error naming the entry', async (candidate, keyPath) => {
    const root = tempTree({
      '.opencode.json': JSON.stringify({ instructions: { candidates: [candidate] } }),
    });
    const error = await loadConfig({ cwd: root, stopDir: root, displayCwd: root }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toMatchObject({ code: 'config-invalid', keyPath });
    expect((error as Error).message).toContain('must be a file name or a relative sub-path');
  });

  test.each([
    [{ extraFiles: ['relative.md'] }, 'instructions.extraFiles[0]', 'must be an absolute path'],
    [{ extraFiles: ['/abs/notes.txt'] }, 'instructions.extraFiles[0]', 'must name a .md file'],
    [{ userFile: 'AGENTS.md' }, 'instructions.userFile', 'must be an absolute path'],
    [{ walk: 'up' }, 'instructions.walk', 'Invalid option'],
  ])('%j is a config error', async (instructions, keyPath, message) => {
    await expect(parseConfig({ instructions })).rejects.toMatchObject({ code: 'config-invalid', keyPath });
    await expect(parseConfig({ instructions })).rejects.toThrow(message);
  });
});

describe('real disk', () => {
  test('markers, user file with ~, FIFO and socket candidates', async () => {
    const home = tempTree({ '.ctx/AGENTS.md': 'user rules' });
    const root = tempTree({ 'repo/.git/HEAD': 'ref', 'repo/AGENTS.md': 'repo rules', 'repo/pkg/x': '' });
    const pkg = path.join(root, 'repo/pkg');
    execFileSync('mkfifo', [path.join(pkg, 'AGENTS.override.md')]);
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(path.join(pkg, 'AGENTS.md'), resolve));
    fs.writeFileSync(path.join(pkg, 'CLAUDE.md'), 'pkg rules');
    try {
      const { config } = await parseConfig({
        contextPaths: [],
        instructions: { walk: 'project', userFile: '~/.ctx/AGENTS.md' },
      });
      const resolver = await createResolver({ workDir: pkg, config, env: {}, homeDir: home });
      const result = await resolver.resolve({ format: 'xml' });
      expect(result.text).toBe(
        '<project_context>\n' +
          '<project_instructions path="~/.ctx/AGENTS.md">\nuser rules\n</project_instructions>\n' +
          `<project_instructions path="${root}/repo/AGENTS.md">\nrepo rules\n</project_instructions>\n` +
          '<project_instructions path="CLAUDE.md">\npkg rules\n</project_instructions>\n' +
          '</project_context>',
      );
    } finally {
      server.close();
    }
  }, 10_000);
});

// The keys the opencode preset turns on (docs/config.md, docs/chains.md); each on its own here.
describe('chain order, candidate scope, root fallback and blank files', () => {
  const tree = {
    '/repo/.git/HEAD': 'x',
    '/repo/CLAUDE.md': 'root claude',
    '/repo/pkg/CLAUDE.md': 'pkg claude',
    '/repo/pkg/src/AGENTS.md': 'src agents',
  };
  const walk = (options: Partial<Parameters<typeof walkChain>[1]>, files: Record<string, string> = tree) =>
    walkChain(createMemoryFileSystem(files), {
      workDir: '/repo/pkg/src',
      walk: 'project',
      projectRootMarkers: ['.git'],
      candidates: ['AGENTS.md', 'CLAUDE.md'],
      ...options,
    }).files.map((file) => file.path);

  test('candidateScope directory: each directory picks its own candidate', () => {
    expect(walk({})).toEqual(['/repo/CLAUDE.md', '/repo/pkg/CLAUDE.md', '/repo/pkg/src/AGENTS.md']);
  });

  test('candidateScope walk: the first candidate found anywhere is the only one taken', () => {
    expect(walk({ candidateScope: 'walk' })).toEqual(['/repo/pkg/src/AGENTS.md']);
    const noAgents = Object.fromEntries(Object.entries(tree).filter(([file]) => !file.endsWith('AGENTS.md')));
    expect(walk({ candidateScope: 'walk' }, noAgents)).toEqual(['/repo/CLAUDE.md', '/repo/pkg/CLAUDE.md']);
  });

  test('projectRootFallback root: with no marker the walk starts at the filesystem root', () => {
    const files = { '/AGENTS.md': 'top', '/repo/pkg/src/AGENTS.md': 'src' };
    expect(walk({}, files)).toEqual(['/repo/pkg/src/AGENTS.md']);
    expect(walk({ projectRootFallback: 'root' }, files)).toEqual(['/AGENTS.md', '/repo/pkg/src/AGENTS.md']);
  });

  test('order closest-first and skipBlank empty, through a resolution', async () => {
    const files = {
      '/repo/.git/HEAD': 'x',
      '/repo/AGENTS.md': 'Root.\n',
      '/repo/pkg/AGENTS.md': ' \n',
      '/repo/pkg/src/AGENTS.md': '',
    };
    const instructions = { walk: 'project', candidates: ['AGENTS.md'] };
    // `order` is a host profile's (OpenCode's closest-first), not a config key.
    const paths = async (extra: object, profile: object = {}) => {
      const input = { instructions: { ...instructions, ...extra }, contextPaths: [], rules: { sources: [] } };
      const config = normalizeConfig(input as never, profile);
      const { resolver } = await memoryResolver(files, config, { workDir: '/repo/pkg/src' });
      return (await resolver.resolve()).files.map((file) => file.path);
    };
    expect(await paths({})).toEqual(['/repo/AGENTS.md']);
    expect(await paths({ skipBlank: 'empty' }, { order: 'closest-first' })).toEqual([
      '/repo/pkg/AGENTS.md',
      '/repo/AGENTS.md',
    ]);
  });
});
