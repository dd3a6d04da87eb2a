import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { createResolver } from '../src/index.js';
import { loadConfig } from '../src/index.js';
import { walkChain, type ChainOptions } from '../src/discover/chain-walk.js';
import { createMemoryFileSystem } from '../src/fs/memory-file-system.js';
import { tempTree } from './helpers/disk.js';
import { memoryResolver } from './helpers/memory.js';

// Where a `project` walk starts: `instructions.walkFrom` (a marker was found) and
// `instructions.projectRootFallback` (none was), docs/chains.md "The chain".
describe('walkFrom and projectRootFallback: homeParent', () => {
  const tree = {
    '/AGENTS.md': 'top',
    '/home/AGENTS.md': 'home parent',
    '/home/me/AGENTS.md': 'home',
    '/home/me/w/AGENTS.md': 'w',
    '/home/me/w/repo/.git/HEAD': 'x',
    '/home/me/w/repo/AGENTS.md': 'repo',
    '/home/me/w/repo/src/AGENTS.md': 'src',
    '/home/me/w/loose/AGENTS.md': 'loose',
    '/srv/AGENTS.md': 'srv',
    '/srv/x/AGENTS.md': 'srv x',
  };
  const walk = (workDir: string, options: Partial<ChainOptions>, files: Record<string, string> = tree) => {
    const chain = walkChain(createMemoryFileSystem(files), {
      workDir,
      walk: 'project',
      projectRootMarkers: ['.git'],
      candidates: ['AGENTS.md'],
      homeDir: '/home/me',
      ...options,
    });
    return { start: chain.start, files: chain.files.map((file) => file.path) };
  };

  test.each([
    // workDir, options, chain start
    ['/home/me/w/repo/src', {}, '/home/me/w/repo'],
    ['/home/me/w/repo/src', { walkFrom: 'projectRoot' }, '/home/me/w/repo'],
    ['/home/me/w/repo/src', { walkFrom: 'projectRootParent' }, '/home/me/w'],
    // The fallback is where it says: walkFrom does not move it.
    ['/home/me/w/loose', { walkFrom: 'projectRootParent' }, '/home/me/w/loose'],
    ['/home/me/w/loose', { projectRootFallback: 'workDir' }, '/home/me/w/loose'],
    ['/home/me/w/loose', { projectRootFallback: 'root' }, '/'],
    ['/home/me/w/loose', { projectRootFallback: 'homeParent' }, '/home'],
    ['/home/me/w/loose', { projectRootFallback: 'homeParent', walkFrom: 'projectRootParent' }, '/home'],
    // A marker wins over the fallback.
    ['/home/me/w/repo/src', { projectRootFallback: 'homeParent' }, '/home/me/w/repo'],
    // The work dir is the home directory's parent, or the home directory itself.
    ['/home', { projectRootFallback: 'homeParent' }, '/home'],
    ['/home/me', { projectRootFallback: 'homeParent' }, '/home'],
    // Outside the home directory's parent: up to `/`.
    ['/srv/x', { projectRootFallback: 'homeParent' }, '/'],
    // No home directory known: the work dir alone.
    ['/home/me/w/loose', { projectRootFallback: 'homeParent', homeDir: undefined }, '/home/me/w/loose'],
    // A ceiling (an untrusted project config chose the walk) still bounds both.
    ['/home/me/w/repo/src', { walkFrom: 'projectRootParent', ceiling: '/home/me/w/repo' }, '/home/me/w/repo'],
    [
      '/home/me/w/loose',
      { projectRootFallback: 'homeParent', ceiling: '/home/me/w/loose' },
      '/home/me/w/loose',
    ],
  ] as const)('%s with %j starts at %s', (workDir, options, start) => {
    expect(walk(workDir, options).start).toBe(start);
  });

  test('the chain reads every directory from its start down to the work dir', () => {
    expect(walk('/home/me/w/repo/src', { walkFrom: 'projectRootParent' }).files).toEqual([
      '/home/me/w/AGENTS.md',
      '/home/me/w/repo/AGENTS.md',
      '/home/me/w/repo/src/AGENTS.md',
    ]);
    expect(walk('/home/me/w/loose', { projectRootFallback: 'homeParent' }).files).toEqual([
      '/home/AGENTS.md',
      '/home/me/AGENTS.md',
      '/home/me/w/AGENTS.md',
      '/home/me/w/loose/AGENTS.md',
    ]);
    expect(walk('/srv/x', { projectRootFallback: 'homeParent' }).files).toEqual([
      '/AGENTS.md',
      '/srv/AGENTS.md',
      '/srv/x/AGENTS.md',
    ]);
  });

  test('a nested repository: the inner root is found first, the walk starts above it', () => {
    const nested = { ...tree, '/home/me/w/repo/src/.git/HEAD': 'x' };
    expect(walk('/home/me/w/repo/src', { walkFrom: 'projectRootParent' }, nested).files).toEqual([
      '/home/me/w/repo/AGENTS.md',
      '/home/me/w/repo/src/AGENTS.md',
    ]);
  });

  test('the config keys reach the walk of a resolution, and its rule folders', async () => {
    const files = {
      ...tree,
      '/home/me/w/.cursor/rules/w.mdc': '---\nalwaysApply: true\n---\nW rule.',
    };
    const { resolver } = await memoryResolver(
      files,
      {
        contextPaths: [],
        rules: { sources: ['cursor'] },
        // Qwen Code's walk start comes with its preset's host profile.
        preset: 'qwen-code',
        instructions: { candidates: ['AGENTS.md'], userFile: null },
      },
      { workDir: '/home/me/w/repo/src', homeDir: '/home/me' },
    );
    expect((await resolver.resolve()).files.map((file) => file.path)).toEqual([
      '/home/me/w/AGENTS.md',
      '/home/me/w/repo/AGENTS.md',
      '/home/me/w/repo/src/AGENTS.md',
      '/home/me/w/.cursor/rules/w.mdc',
    ]);
    const { resolver: loose } = await memoryResolver(
      tree,
      {
        contextPaths: [],
        rules: { sources: [] },
        preset: 'qwen-code',
        instructions: { candidates: ['AGENTS.md'], userFile: null },
      },
      { workDir: '/home/me/w/loose', homeDir: '/home/me' },
    );
    expect((await loose.resolve()).files.map((file) => file.path)).toEqual([
      '/home/AGENTS.md',
      '/home/me/AGENTS.md',
      '/home/me/w/AGENTS.md',
      '/home/me/w/loose/AGENTS.md',
    ]);
  });
});

// `imports.root` (docs/imports.md, "Where imports may lead").
describe('imports.root', () => {
  const tree = {
    '/h/me/w/AGENTS.md': 'W.\n@sib.md\n',
    '/h/me/w/sib.md': 'Sib.',
    '/h/me/w/other.md': 'Other.',
    '/h/me/w/repo/.git/HEAD': 'x',
    '/h/me/w/repo/AGENTS.md': 'Repo.\n@../other.md\n@x.md\n',
    '/h/me/w/repo/x.md': 'X.',
    '/h/me/w/repo/pkg/docs/a.md': 'A.\n@../../up.md\n@b.md\n',
    '/h/me/w/repo/pkg/docs/b.md': 'B.',
    '/h/me/w/repo/up.md': 'Up.',
  };
  // Loaded from a user config, as the CLI does: the project's own files are not trusted, so their
  // imports keep to a root (an API config object would trust them).
  const texts = async (root: 'source' | 'marker', workDir: string, config: object) => {
    const memory = createMemoryFileSystem(tree);
    const userConfig = '/h/me/.config/ctxfiles/config.json';
    const imports = { enabled: true, mode: 'inline', failed: 'comment', root };
    memory.set(userConfig, JSON.stringify({ rules: { sources: [] }, imports, ...config }));
    const resolver = await createResolver({ workDir, fs: memory, env: {}, homeDir: '/h/me', userConfig });
    return (await resolver.resolve()).files.map((file) => file.text);
  };
  const chain = {
    contextPaths: [],
    preset: 'qwen-code',
    instructions: { candidates: ['AGENTS.md'], userFile: null },
  };

  test('source: a chain file imports from anywhere below the chain start', async () => {
    expect(await texts('source', '/h/me/w/repo', chain)).toEqual([
      'W.\n<!-- Imported from: sib.md -->\nSib.\n<!-- End of import from: sib.md -->\n',
      'Repo.\n<!-- Imported from: ../other.md -->\nOther.\n<!-- End of import from: ../other.md -->\n' +
        '<!-- Imported from: x.md -->\nX.\n<!-- End of import from: x.md -->\n',
    ]);
  });

  test('marker: each file imports from below its nearest marker, else its own directory', async () => {
    expect(await texts('marker', '/h/me/w/repo', chain)).toEqual([
      'W.\n<!-- Imported from: sib.md -->\nSib.\n<!-- End of import from: sib.md -->\n',
      'Repo.\n<!-- Import failed: ../other.md - Path traversal attempt -->\n' +
        '<!-- Imported from: x.md -->\nX.\n<!-- End of import from: x.md -->\n',
    ]);
  });

  test('marker never reaches above the root of the file source', async () => {
    // `contextPaths` resolve against the work dir, below the marker: the marker does not widen it.
    const layer = { contextPaths: ['docs/a.md'], instructions: { walk: 'off' } };
    const expected = [
      'A.\n<!-- Import failed: ../../up.md - Path traversal attempt -->\n' +
        '<!-- Imported from: b.md -->\nB.\n<!-- End of import from: b.md -->\n',
    ];
    expect(await texts('source', '/h/me/w/repo/pkg', layer)).toEqual(expected);
    expect(await texts('marker', '/h/me/w/repo/pkg', layer)).toEqual(expected);
  });
});

// The walk crosses the real home directory: the preset's keys on a disk, and the trust tiers.
describe('on disk, across HOME', () => {
  const layout = () => {
    const base = tempTree({
      'QWEN.md': 'Above the home parent.\n',
      'users/QWEN.md': 'Home parent.\n',
      'users/me/QWEN.md': 'Home.\n',
      'users/me/.qwen/QWEN.md': 'User file.\n',
      'users/me/w/QWEN.md': 'Work.\n',
      'users/me/w/loose/QWEN.md': 'Loose.\n',
      'users/me/w/repo/.git/HEAD': 'ref: refs/heads/main\n',
      'users/me/w/repo/QWEN.md': 'Repo.\n',
      'users/me/w/repo/sub/QWEN.md': 'Sub.\n',
    });
    return { base, home: path.join(base, 'users/me') };
  };
  const paths = async (workDir: string, home: string, config: object) => {
    const resolver = await createResolver({
      workDir,
      config: config as never,
      env: { HOME: home },
      homeDir: home,
    });
    return (await resolver.resolve()).files.map((file) => file.path);
  };
  test.each([
    ['the qwen-code preset', { preset: 'qwen-code' }],
    // A config over it changes what it sets, not the walk's start (the preset's host profile).
    ['the preset under a config', { preset: 'qwen-code', contextPaths: [], rules: { sources: [] } }],
  ])('%s: up to the home directory parent with no .git, above the root with one', async (_name, config) => {
    const { base, home } = layout();
    expect(await paths(path.join(base, 'users/me/w/loose'), home, config)).toEqual([
      `${home}/.qwen/QWEN.md`,
      `${base}/users/QWEN.md`,
      `${base}/users/me/QWEN.md`,
      `${base}/users/me/w/QWEN.md`,
      `${base}/users/me/w/loose/QWEN.md`,
    ]);
    expect(await paths(path.join(base, 'users/me/w/repo/sub'), home, config)).toEqual([
      `${home}/.qwen/QWEN.md`,
      `${base}/users/me/w/QWEN.md`,
      `${base}/users/me/w/repo/QWEN.md`,
      `${base}/users/me/w/repo/sub/QWEN.md`,
    ]);
  });

  test('a project config cannot turn either on through the preset', async () => {
    const { base, home } = layout();
    const loose = path.join(base, 'users/me/w/loose');
    for (const [dir, value, preset] of [
      [loose, { preset: 'qwen-code' }, 'qwen-code'],
      [path.join(base, 'users/me/w/repo'), { preset: 'qwen-code' }, 'qwen-code'],
    ] as const) {
      fs.writeFileSync(path.join(dir, 'ctxfiles.config.json'), JSON.stringify(value));
      const loaded = await loadConfig({ cwd: dir, stopDir: dir, homeDir: home, userConfig: null });
      const dropped = loaded.dropped?.map((key) => key.keyPath) ?? [];
      expect(dropped).toContain('profile.projectRootFallback');
      expect(dropped).toContain('profile.walkFrom');
      if (preset !== undefined)
        expect(loaded.dropped?.filter((key) => key.preset === preset).length).toBe(dropped.length);
      const resolver = await createResolver({ workDir: dir, env: { HOME: home }, homeDir: home });
      const read = (await resolver.resolve()).files.map((file) => file.path);
      expect(read.filter((file) => !file.startsWith(`${dir}/`))).toEqual([]);
    }
  });
});
