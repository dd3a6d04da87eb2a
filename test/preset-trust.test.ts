import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { createResolver } from '../src/index.js';
import { loadConfig } from '../src/index.js';
import { createNodeFileSystem } from '../src/fs/node-file-system.js';
import { createMcpConnection } from '../src/mcp/mcp-connection.js';
import { spawnBin } from './helpers/cli.js';
import { tempTree, writeTree, type DiskTree } from './helpers/disk.js';
import { HOST_REGISTRY } from '../src/hosts/index.js';

// Issue #26, item 1: a preset named by a config the search finds has the project's tier. The keys
// of it that widen reads (walk: root, userFile, symlinks: follow, ...) are dropped as if the project
// had set them, so none of these repositories reads the fake home's key (DESIGN §12, "Trust").

const KEY = 'PRIVATE-KEY-SENTINEL-26-1';

/** Ways a repository config names the preset. */
const NAMINGS: Record<string, DiskTree> = {
  'ctxfiles.config.json': { 'ctxfiles.config.json': '{"preset":"claude-code"}' },
  'package.json "ctxfiles"': { 'package.json': '{"name":"x","ctxfiles":{"preset":"claude-code"}}' },
  '.opencode.yaml': { '.opencode.yaml': 'preset: claude-code\n' },
};

/** Ways a repository reaches a file outside it; `outside` is the directory holding the key. */
const ATTACKS: Record<string, (home: string, outside: string) => DiskTree> = {
  '@~/ import': () => ({ 'CLAUDE.md': 'hi\n@~/.ssh/id_rsa\n' }),
  '@/abs import': (home) => ({ 'CLAUDE.md': `hi\n@${home}/.ssh/id_rsa\n` }),
  'symlinked CLAUDE.md': (_home, outside) => ({ 'CLAUDE.md': { symlink: path.join(outside, 'key.md') } }),
  'symlinked AGENTS.md': (_home, outside) => ({
    'CLAUDE.md': '@AGENTS.md\n',
    'AGENTS.md': { symlink: path.join(outside, 'key.md') },
  }),
  'imported symlink': (_home, outside) => ({
    'CLAUDE.md': '@notes.md\n',
    'notes.md': { symlink: path.join(outside, 'key.md') },
  }),
  '.claude/rules linked outside': (_home, outside) => ({
    'CLAUDE.md': 'hi\n',
    '.claude/rules': { symlink: outside },
  }),
};

function hostileRepo(naming: DiskTree, attack: (home: string, outside: string) => DiskTree) {
  const root = tempTree({
    'home/.ssh/id_rsa': KEY,
    'home/.claude/CLAUDE.md': `user file ${KEY}`,
    'outside/key.md': KEY,
  });
  const home = path.join(root, 'home');
  const outside = path.join(root, 'outside');
  const repo = path.join(root, 'repo');
  fs.mkdirSync(path.join(repo, '.git'), { recursive: true });
  writeTree(repo, { ...naming, ...attack(home, outside) });
  return { root, home, repo };
}

const env = (home: string) => ({ HOME: home, XDG_CONFIG_HOME: path.join(home, '.config') });

describe('a preset named by the project has project trust', () => {
  const cases = Object.entries(NAMINGS).flatMap(([naming, files]) =>
    Object.entries(ATTACKS).map(([attack, make]) => [naming, attack, files, make] as const),
  );

  test.each(cases)('%s + %s: resolve and explain never print the key', (_naming, _attack, files, make) => {
    const { home, repo } = hostileRepo(files, make);
    for (const command of ['resolve', 'explain']) {
      const result = spawnBin([command], { cwd: repo, env: env(home) });
      expect(result.stdout + result.stderr).not.toContain(KEY);
      expect(result.code).toBe(0);
    }
  });

  test.each(Object.entries(ATTACKS))(
    'MCP instructions_for_path, %s: never the key',
    async (_attack, make) => {
      const { home, repo } = hostileRepo(NAMINGS['ctxfiles.config.json'] as DiskTree, make);
      const node = createNodeFileSystem();
      const resolver = await createResolver({ workDir: repo, fs: node, env: env(home), homeDir: home });
      const connection = createMcpConnection({
        resolver,
        formats: HOST_REGISTRY.format,
        fs: node,
        homeDir: home,
      });
      const result = await connection.callTool('instructions_for_path', { path: 'CLAUDE.md' });
      expect(JSON.stringify(result)).not.toContain(KEY);
    },
  );

  test('explain and validate say which keys of the preset were dropped and why', () => {
    const { home, repo } = hostileRepo(NAMINGS['ctxfiles.config.json'] as DiskTree, ATTACKS['@~/ import']!);
    const explained = spawnBin(['explain'], { cwd: repo, env: env(home) });
    expect(explained.stdout).toContain(
      'warn  untrusted-key: ctxfiles.config.json: instructions.walk: ignored: it comes from the preset "claude-code" that a project config names',
    );
    expect(explained.stdout).toContain('instructions.userFile: ignored');
    expect(explained.stdout).toContain('instructions.symlinks: ignored');
    const validated = spawnBin(['validate'], { cwd: repo, env: env(home) });
    expect(validated.stdout).toContain(
      'not trusted, ignored: preset claude-code: instructions.walk, instructions.userFile, instructions.symlinks',
    );
    expect(validated.stderr).toContain('[untrusted-key]');
  });

  test('named by the user, with --preset, or for a trusted project, the preset has full effect', () => {
    const { home, repo } = hostileRepo(NAMINGS['ctxfiles.config.json'] as DiskTree, ATTACKS['@~/ import']!);
    // Control: the same repository through a preset the user names reads the key, so the tests above
    // can fail.
    expect(spawnBin(['resolve', '--preset', 'claude-code'], { cwd: repo, env: env(home) }).stdout).toContain(
      KEY,
    );
    writeTree(home, { '.config/ctxfiles/config.json': JSON.stringify({ trustedProjects: [repo] }) });
    expect(spawnBin(['resolve'], { cwd: repo, env: env(home) }).stdout).toContain(KEY);
    writeTree(home, { '.config/ctxfiles/config.json': '{"preset":"claude-code"}' });
    expect(spawnBin(['resolve'], { cwd: repo, env: env(home) }).stdout).toContain(KEY);
  });

  test('--config naming the file keeps the preset whole; the API too', async () => {
    const { home, repo } = hostileRepo(NAMINGS['ctxfiles.config.json'] as DiskTree, ATTACKS['@~/ import']!);
    const named = spawnBin(['resolve', '--config', 'ctxfiles.config.json'], { cwd: repo, env: env(home) });
    expect(named.stdout).toContain(KEY);
    const loaded = await loadConfig({ cwd: repo, stopDir: repo, homeDir: home, userConfig: null });
    expect(loaded.dropped?.map((key) => [key.keyPath, key.preset])).toEqual([
      ['instructions.walk', 'claude-code'],
      ['instructions.userFile', 'claude-code'],
      ['instructions.symlinks', 'claude-code'],
      ['rules.userFolders', 'claude-code'],
    ]);
    expect(loaded.config.instructions).toMatchObject({ walk: 'off', userFile: null, symlinks: 'inside' });
    const api = await createResolver({
      workDir: repo,
      config: { preset: 'claude-code' },
      env: env(home),
      homeDir: home,
    });
    expect((await api.resolve()).text).toContain(KEY);
  });
});
