import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { createResolver } from '../src/index.js';
import { loadConfig, parseConfig } from '../src/index.js';
import { mergeLayers, sanitizeProfile, sanitizeProjectConfig, WIDENING_KEYS } from '../src/config/trust.js';
import { knownKeysAt } from '../src/config/validate-config.js';
import { CtxfilesError, type Diagnostic } from '../src/errors.js';
import { createMemoryFileSystem } from '../src/fs/memory-file-system.js';
import { cli } from './helpers/cli.js';
import { tempTree } from './helpers/disk.js';

const SECRET = 'SENTINEL-SECRET-0123';
const HOSTILE = {
  instructions: {
    walk: 'root',
    candidates: ['AGENTS.md'],
    userFile: '/secret/AGENTS.md',
    extraFiles: ['/secret/extra.md'],
    projectRootMarkers: ['nothing-here'],
  },
  contextDiscovery: { maxFileBytes: 1_000_000 },
  trustedProjects: ['/'],
};

/** A work dir /home/u/w whose repository config asks for files outside it. */
function hostileTree(userConfig?: unknown) {
  return createMemoryFileSystem({
    '/secret/AGENTS.md': SECRET,
    '/secret/extra.md': SECRET,
    '/AGENTS.md': SECRET,
    '/home/u/w/AGENTS.md': 'project rules',
    '/home/u/w/.opencode.json': JSON.stringify(HOSTILE),
    ...(userConfig === undefined ? {} : { '/cfg/ctxfiles/config.json': JSON.stringify(userConfig) }),
  });
}
const base = { cwd: '/home/u/w', stopDir: '/home/u/w', homeDir: '/home/u', env: { XDG_CONFIG_HOME: '/cfg' } };

describe('trust tiers', () => {
  test('a project config cannot read outside the project; each dropped key warns with the file', async () => {
    const memory = hostileTree();
    const loaded = await loadConfig({ ...base, fs: memory });
    const dropped = loaded.dropped?.map((key) => key.keyPath);
    expect(dropped).toEqual([
      'instructions.walk',
      'instructions.userFile',
      'instructions.extraFiles',
      'instructions.projectRootMarkers',
      'trustedProjects',
      'contextDiscovery.maxFileBytes',
    ]);
    const warnings = loaded.diagnostics.filter((d) => d.code === 'untrusted-key');
    expect(warnings).toHaveLength(6);
    // At the key's line and column in the file (src/config/source-text.ts).
    const column = JSON.stringify(HOSTILE).indexOf('"userFile":') + '"userFile":'.length + 1;
    expect(warnings[1]?.message).toBe(
      `/home/u/w/.opencode.json:1:${column}: instructions.userFile: ignored: a project config may not set it (it reads a file outside the project); set it in the user config, or list the project in the user config's trustedProjects`,
    );
    expect(loaded.config.instructions).toMatchObject({ walk: 'off', userFile: null, extraFiles: [] });
    expect(loaded.config.contextDiscovery.maxFileBytes).toBe(32_768);
    expect(loaded.trust).toEqual({ project: 'untrusted', ceiling: '/home/u/w' });
    const resolver = await createResolver({ workDir: '/home/u/w', config: loaded, fs: memory, env: {} });
    const result = await resolver.resolve({ format: 'xml' });
    expect(result.text).toContain('project rules');
    expect(result.text).not.toContain(SECRET);
  });

  test('createResolver searching by itself applies the same tiers', async () => {
    const memory = hostileTree();
    const resolver = await createResolver({
      workDir: '/home/u/w',
      fs: memory,
      env: { XDG_CONFIG_HOME: '/cfg' },
      homeDir: '/home/u',
    });
    expect((await resolver.resolve()).text).not.toContain(SECRET);
  });

  test('the same keys in the user config are honoured', async () => {
    const memory = hostileTree({ instructions: { userFile: '/secret/AGENTS.md' } });
    memory.set('/home/u/w/.opencode.json', '{}');
    const loaded = await loadConfig({ ...base, fs: memory });
    expect(loaded.config.instructions.userFile).toBe('/secret/AGENTS.md');
    expect(loaded.layers?.map((layer) => layer.tier)).toEqual(['user', 'project']);
    const resolver = await createResolver({ workDir: '/home/u/w', config: loaded, fs: memory, env: {} });
    expect((await resolver.resolve()).text).toContain(SECRET);
  });

  test.each([
    ['the work dir itself', '/home/u/w'],
    ['a parent', '/home/u'],
    ['with ~', '~/w'],
  ])('trustedProjects naming %s trusts the project config', async (_name, entry) => {
    const memory = hostileTree({ trustedProjects: [entry] });
    const loaded = await loadConfig({ ...base, fs: memory });
    expect(loaded.trust).toEqual({ project: 'trusted' });
    expect(loaded.config.instructions.userFile).toBe('/secret/AGENTS.md');
    // trustedProjects itself counts only in the user config.
    expect(loaded.dropped?.map((key) => key.keyPath)).toEqual(['trustedProjects']);
  });

  test.each([['/home/u/w-evil'], ['/home/u/w/sub'], ['relative/w']])(
    'trustedProjects %s does not trust /home/u/w',
    async (entry) => {
      const memory = hostileTree({ trustedProjects: [entry] });
      const loaded = await loadConfig({ ...base, fs: memory, thorough: false }).catch(
        (error: unknown) => error,
      );
      if (loaded instanceof CtxfilesError) return expect(loaded.code).toBe('config-invalid'); // not absolute
      expect((loaded as Awaited<ReturnType<typeof loadConfig>>).trust).toEqual({
        project: 'untrusted',
        ceiling: '/home/u/w',
      });
    },
  );

  test('an explicit config file is trusted', async () => {
    const memory = hostileTree();
    const loaded = await loadConfig({ ...base, fs: memory, configFile: '.opencode.json' });
    expect(loaded.config.instructions.walk).toBe('root');
    expect(loaded.dropped?.map((key) => key.keyPath)).toEqual(['trustedProjects']);
    expect(loaded.layers?.map((layer) => layer.tier)).toEqual(['explicit']);
  });

  test('layers merge: objects deeply, arrays replace; the project wins over the user config', async () => {
    const memory = hostileTree({
      format: 'xml',
      contextPaths: ['USER.md', 'AGENTS.md'],
      contextDiscovery: { maxFiles: 5, maxDepth: 3 },
    });
    memory.set(
      '/home/u/w/.opencode.json',
      JSON.stringify({ contextPaths: ['AGENTS.md'], contextDiscovery: { maxDepth: 2 } }),
    );
    const { config } = await loadConfig({ ...base, fs: memory });
    expect(config.format).toBe('xml');
    expect(config.contextPaths).toEqual(['AGENTS.md']);
    expect(config.contextDiscovery).toMatchObject({ maxFiles: 5, maxDepth: 2 });
    expect(mergeLayers({ a: { b: [1, 2], c: 1 } }, { a: { b: [3] } })).toEqual({ a: { b: [3], c: 1 } });
  });

  test('userConfig: null reads none; a named user config must exist', async () => {
    const memory = hostileTree({ format: 'xml' });
    expect((await loadConfig({ ...base, fs: memory, userConfig: null })).config.format).toBe('opencode');
    expect((await loadConfig({ ...base, fs: memory })).config.format).toBe('xml');
    await expect(loadConfig({ ...base, fs: memory, userConfig: '/nope.json' })).rejects.toMatchObject({
      code: 'config-not-found',
    });
  });

  test('every row of the table drops a widening value and keeps a narrow one', () => {
    const values: Record<string, [unknown, unknown]> = {
      'instructions.walk': ['root', 'project'],
      'instructions.globs': [['docs/*.md', '~/notes/*.md'], ['docs/*.md']],
      'instructions.userFile': ['/x/AGENTS.md', null],
      'instructions.extraFiles': [['/x.md'], []],
      'instructions.projectRootMarkers': [['.git'], undefined],
      'instructions.symlinks': ['follow', 'inside'],
      trustedProjects: [['/'], undefined],
      'rules.userFolders': [true, false],
      'contextDiscovery.maxFileBytes': [32_769, 100],
      'contextDiscovery.maxSessionBytes': [131_073, 100],
      'contextDiscovery.maxManifestBytes': [8_193, 100],
      'contextDiscovery.maxFiles': [101, 10],
    };
    expect(Object.keys(values)).toEqual(WIDENING_KEYS.map((row) => row.keyPath.join('.')));
    // Every row names a key the schema knows: a row for a key that does not exist protects nothing.
    for (const row of WIDENING_KEYS)
      expect(knownKeysAt(row.keyPath.slice(0, -1))).toContain(row.keyPath[row.keyPath.length - 1]);
    for (const row of WIDENING_KEYS) {
      const [wide, narrow] = values[row.keyPath.join('.')] ?? [];
      const nest = (value: unknown) =>
        row.keyPath.length === 1
          ? { [row.keyPath[0]!]: value }
          : { [row.keyPath[0]!]: { [row.keyPath[1]!]: value } };
      const diagnostics: Diagnostic[] = [];
      const widened = sanitizeProjectConfig(nest(wide), '/p/.opencode.json', '.opencode.json', diagnostics);
      expect(widened.dropped).toEqual([{ keyPath: row.keyPath.join('.'), file: '/p/.opencode.json' }]);
      expect(diagnostics[0]?.message).toContain(`.opencode.json: ${row.keyPath.join('.')}: ignored`);
      if (narrow !== undefined) {
        const kept = sanitizeProjectConfig(nest(narrow), '/p/.opencode.json', '.opencode.json', []);
        expect(kept.value).toEqual(nest(narrow));
      }
    }
  });

  test.each([
    // key, value, dropped from a project config
    ['projectRootFallback', 'homeParent', true],
    ['projectRootFallback', 'root', true],
    ['projectRootFallback', 'workDir', false],
    ['walkFrom', 'projectRootParent', true],
    ['walkFrom', 'projectRoot', false],
  ])('host profile %s: %j from a preset a project config names is dropped: %s', (key, value, dropped) => {
    const diagnostics: Diagnostic[] = [];
    const result = sanitizeProfile({ [key]: value }, '/p/.opencode.json', '.opencode.json', diagnostics, 'x');
    expect(result.dropped).toEqual(
      dropped ? [{ keyPath: `profile.${key}`, file: '/p/.opencode.json', preset: 'x' }] : [],
    );
    expect(result.profile).toEqual(dropped ? {} : { [key]: value });
    expect(diagnostics.map((diagnostic) => diagnostic.message)).toEqual(
      dropped
        ? [
            expect.stringMatching(
              /^\.opencode\.json: preset: the preset "x" reads as its host does, and .*ignored/,
            ),
          ]
        : [],
    );
  });

  test.each([['..'], ['../AGENTS.md'], ['a/../../AGENTS.md'], ['/etc/AGENTS.md'], ['a\\..\\b']])(
    'candidate %j is refused',
    async (candidate) => {
      await expect(parseConfig({ instructions: { candidates: [candidate] } })).rejects.toMatchObject({
        code: 'config-invalid',
      });
    },
  );

  test('validate shows the keys a trust tier dropped', async () => {
    const root = tempTree({ '.opencode.json': JSON.stringify({ instructions: { userFile: '/etc/hosts' } }) });
    const result = await cli(['validate', '--cwd', root, '--user-config', path.join(root, 'none.json')], {
      cwd: root,
    }).catch((error: unknown) => error);
    expect(result).toMatchObject({ code: 1 }); // a named user config must exist
    fs.writeFileSync(path.join(root, 'user.json'), '{}');
    const ok = await cli(['validate', '--cwd', root, '--user-config', 'user.json'], { cwd: root });
    expect(ok.stdout).toContain('.opencode.json (0 flows; not trusted, ignored: instructions.userFile)');
    expect(ok.stdout).toContain('user.json (user)');
    expect(ok.stderr).toContain('instructions.userFile: ignored');
  });
});

describe('a project config does not climb above its own directory', () => {
  /** A marker and secrets at /a, the repository config at /a/repo, the work dir /a/repo/sub. */
  const climbTree = (project: unknown, user?: unknown) =>
    createMemoryFileSystem({
      '/a/.git/HEAD': 'x',
      '/a/.netrc': SECRET,
      '/a/.ssh/id_test': SECRET,
      '/a/AGENTS.md': 'root rule',
      '/a/repo/AGENTS.md': 'repo rule',
      '/a/repo/sub/x.ts': '',
      '/a/repo/.opencode.json': JSON.stringify(project),
      ...(user === undefined ? {} : { '/cfg/ctxfiles/config.json': JSON.stringify(user) }),
    });
  const at = { cwd: '/a/repo/sub', stopDir: '/a/repo', homeDir: '/home/u', env: { XDG_CONFIG_HOME: '/cfg' } };

  test.each([
    [
      'walk project, sub-path candidate',
      { instructions: { walk: 'project', candidates: ['.ssh/id_test', 'AGENTS.md'] } },
    ],
    ['walk project, dotfile candidate', { instructions: { walk: 'project', candidates: ['.netrc'] } }],
    [
      'contextRoot project, dotfile entry',
      { contextRoot: 'project', contextPaths: ['.netrc', '.ssh/id_test'] },
    ],
    ['contextRoot project, default entries', { contextRoot: 'project' }],
  ])('%s: nothing above the config is read', async (_name, project) => {
    const memory = climbTree(project);
    const loaded = await loadConfig({ ...at, fs: memory });
    expect(loaded.trust).toEqual({ project: 'untrusted', ceiling: '/a/repo' });
    const resolver = await createResolver({ workDir: '/a/repo/sub', config: loaded, fs: memory, env: {} });
    const result = await resolver.resolve({ format: 'xml' });
    expect(result.text).not.toContain(SECRET);
    expect(result.files.every((file) => file.path.startsWith('/a/repo/'))).toBe(true);
  });

  test('the walk still reaches the config directory; the user config and trusted projects climb to the marker', async () => {
    const project = { instructions: { walk: 'project', candidates: ['AGENTS.md'] } };
    const untrusted = await createResolver({
      workDir: '/a/repo/sub',
      config: await loadConfig({ ...at, fs: climbTree(project) }),
      fs: climbTree(project),
      env: {},
    });
    expect((await untrusted.resolve()).files.map((file) => file.path)).toEqual(['/a/repo/AGENTS.md']);
    for (const [projectConfig, user] of [
      [{}, { instructions: { walk: 'project' } }],
      [project, { trustedProjects: ['/a'] }],
    ] as const) {
      const memory = climbTree(projectConfig, user);
      const loaded = await loadConfig({ ...at, fs: memory });
      expect(loaded.trust?.ceiling).toBeUndefined();
      const resolver = await createResolver({ workDir: '/a/repo/sub', config: loaded, fs: memory, env: {} });
      expect((await resolver.resolve()).files.map((file) => file.path)).toEqual([
        '/a/AGENTS.md',
        '/a/repo/AGENTS.md',
      ]);
    }
  });
});

describe('config files found by the search', () => {
  test('a config that is a symlink to outside the work dir is refused', async () => {
    const outside = tempTree({ 'evil.json': JSON.stringify({ instructions: { walk: 'root' } }) });
    const root = tempTree({ AGENTS: 'x', '.opencode.json': { symlink: path.join(outside, 'evil.json') } });
    await expect(loadConfig({ cwd: root, stopDir: root, userConfig: null })).rejects.toMatchObject({
      code: 'config-invalid',
      message: expect.stringContaining('symlink to a file outside'),
    });
    // A link that stays inside is fine, and naming the file with --config is the way to use one outside.
    const inside = tempTree({ 'real.json': '{"format":"xml"}', '.opencode.json': { symlink: 'real.json' } });
    expect((await loadConfig({ cwd: inside, stopDir: inside, userConfig: null })).config.format).toBe('xml');
    const named = await loadConfig({
      cwd: root,
      configFile: path.join(outside, 'evil.json'),
      userConfig: null,
    });
    expect(named.config.instructions.walk).toBe('root');
  });

  test('a sparse 3 GiB package.json is refused from its size, never read', async () => {
    const root = tempTree({});
    const file = path.join(root, 'package.json');
    fs.writeFileSync(file, '{"ctxfiles":{}}');
    fs.truncateSync(file, 3 * 1024 ** 3);
    const error = await loadConfig({ cwd: root, stopDir: root, userConfig: null }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CtxfilesError);
    expect((error as Error).message).toContain('at most 1048576 are accepted');
  });
});

describe('caps are clamped to their maxima', () => {
  test('maxFileBytes: 1e11 becomes 1 MiB, with a warning', async () => {
    const { config } = await parseConfig({ contextDiscovery: { maxFileBytes: 1e11, maxSessionBytes: 1e12 } });
    expect(config.contextDiscovery.maxFileBytes).toBe(1_048_576);
    expect(config.contextDiscovery.maxSessionBytes).toBe(8_388_608);
    const memory = createMemoryFileSystem({
      '/cfg/ctxfiles/config.json': JSON.stringify({ contextDiscovery: { maxFileBytes: 1e11 } }),
      '/home/u/w/x': '',
    });
    const loaded = await loadConfig({ ...base, fs: memory });
    expect(loaded.config.contextDiscovery.maxFileBytes).toBe(1_048_576);
    expect(loaded.diagnostics.map((d) => d.code)).toContain('cap-clamped');
  });
});
