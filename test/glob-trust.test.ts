import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { createResolver } from '../src/index.js';
import { createNodeFileSystem } from '../src/fs/node-file-system.js';
import { createMcpConnection } from '../src/mcp/mcp-connection.js';
import { spawnBin } from './helpers/cli.js';
import { tempTree, writeTree, type DiskTree } from './helpers/disk.js';
import { HOST_REGISTRY } from '../src/hosts/index.js';

// Issue #35, items 1 and 5: the matches of `instructions.globs` are project files. A pattern has the
// trust tier of the layer that set it; its matches follow `instructions.symlinks` against its root,
// their `@` imports are contained like any other project file's, and a pattern a project-tier layer
// set matches only at or below the directory of the file that set it. Real disk, a fake home.

const KEY = 'PRIVATE-KEY-SENTINEL-35-1';
const env = (home: string) => ({ HOME: home, XDG_CONFIG_HOME: path.join(home, '.config') });

/** A fake home holding the key (`~/.ssh/id_rsa`, `~/.aws/credentials`) and a repository in it. */
function setup(repoTree: (home: string) => DiskTree, git = true) {
  const root = tempTree({ 'home/.ssh/id_rsa': KEY, 'home/.aws/credentials': KEY });
  const home = path.join(root, 'home');
  const repo = path.join(home, 'repo');
  fs.mkdirSync(git ? path.join(repo, '.git') : repo, { recursive: true });
  writeTree(repo, repoTree(home));
  return { home, repo };
}

/** Files that reach the key: imports out of the project and links out of it. */
const hostile = (folder: string) => (home: string) => ({
  'AGENTS.md': 'root rules\n',
  [`${folder}/a.md`]: `doc a\n@~/.ssh/id_rsa\n@${home}/.aws/credentials\n@../../.ssh/id_rsa\n`,
  [`${folder}/b.md`]: { symlink: path.join(home, '.aws/credentials') },
  [`${folder}/c.md`]: 'doc c, inside\n',
});

const WAYS: Array<[string, (home: string) => DiskTree, string[]]> = [
  [
    'a project config',
    (home) => ({
      ...hostile('docs')(home),
      'ctxfiles.config.json': '{"instructions":{"globs":["docs/*.md"]},"imports":{"enabled":true}}',
    }),
    ['resolve'],
  ],
  [
    '{"preset":"kilo"} in a project config',
    (home) => ({
      ...hostile('.kilo/rules')(home),
      'ctxfiles.config.json': '{"preset":"kilo","imports":{"enabled":true}}',
    }),
    ['resolve'],
  ],
  [
    '--preset kilo',
    (home) => ({
      ...hostile('.kilo/rules')(home),
      'ctxfiles.config.json': '{"imports":{"enabled":true}}',
    }),
    ['resolve', '--preset', 'kilo'],
  ],
  [
    "--preset opencode with the project's opencode.json",
    (home) => ({
      ...hostile('docs')(home),
      'opencode.json': '{"instructions":["docs/*.md"]}',
      'ctxfiles.config.json': '{"imports":{"enabled":true},"instructions":{"symlinks":"inside"}}',
    }),
    ['resolve', '--preset', 'opencode'],
  ],
];

describe('instructions.globs matches are contained project files (#35.1)', () => {
  test.each(WAYS)('%s: resolve shows the files inside, never the key', (_way, tree, args) => {
    const { home, repo } = setup(tree);
    const result = spawnBin(args, { cwd: repo, env: env(home) });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('doc c, inside');
    expect(result.stdout).toContain('doc a');
    expect(result.stdout + result.stderr).not.toContain(KEY);
    expect(result.stderr).toMatch(/symlink to .*credentials.*(outside|not followed)/);
  });

  test('MCP instructions_for_path never returns the key', async () => {
    const { home, repo } = setup(WAYS[0]![1]);
    const node = createNodeFileSystem();
    const resolver = await createResolver({ workDir: repo, fs: node, env: env(home), homeDir: home });
    const connection = createMcpConnection({
      resolver,
      formats: HOST_REGISTRY.format,
      fs: node,
      homeDir: home,
    });
    const result = await connection.callTool('instructions_for_path', { path: 'docs/c.md' });
    const text = JSON.stringify(result);
    expect(text).toContain('doc c, inside');
    expect(text).not.toContain(KEY);
  });

  test("the Claude Code hook's SessionStart context never holds the key", () => {
    const { home, repo } = setup(WAYS[1]![1]);
    const event = { session_id: 's', cwd: repo, hook_event_name: 'SessionStart', source: 'startup' };
    const result = spawnBin(['hook', 'claude-code'], {
      cwd: repo,
      input: JSON.stringify(event),
      env: { ...env(home), CTXFILES_STATE_DIR: path.join(home, 'state') },
    });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('doc c, inside');
    expect(result.stdout).not.toContain(KEY);
  });

  test('a pattern the user config sets, absolute: the user named those files, links and imports followed', () => {
    const { home, repo } = setup((h) => ({
      'AGENTS.md': 'root\n',
      'ctxfiles.config.json': '{"imports":{"enabled":true}}',
      [`../notes/n.md`]: `notes\n@${h}/.ssh/id_rsa\n`,
    }));
    writeTree(home, {
      '.config/ctxfiles/config.json': JSON.stringify({ instructions: { globs: [`${home}/notes/*.md`] } }),
    });
    const result = spawnBin(['resolve'], { cwd: repo, env: env(home) });
    expect(result.stdout).toContain('notes');
    expect(result.stdout).toContain(KEY);
  });
});

describe('a project-tier pattern matches only below the file that set it (#35.5)', () => {
  const tree = () => ({
    'opencode.json': '{"instructions":[".ssh/id_rsa","*.txt"]}',
    'AGENTS.md': 'project rules\n',
    'here.txt': 'inside text\n',
  });

  test('--preset opencode without .git: not ~/.ssh/id_rsa, not ~/*.txt; the project files still', () => {
    const { home, repo } = setup(tree, false);
    writeTree(home, { 'up.txt': `home text ${KEY}` });
    const result = spawnBin(['resolve', '--preset', 'opencode'], { cwd: repo, env: env(home) });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('inside text');
    expect(result.stdout).not.toContain(KEY);
  });

  test('from a sub-directory the patterns still match up to the file that set them', () => {
    const { home, repo } = setup(tree, false);
    writeTree(repo, { 'sub/deeper.txt': 'deeper text\n' });
    const result = spawnBin(['resolve', '--preset', 'opencode'], {
      cwd: path.join(repo, 'sub'),
      env: env(home),
    });
    expect(result.stdout).toContain('deeper text');
    expect(result.stdout).toContain('inside text');
    expect(result.stdout).not.toContain(KEY);
  });

  test("the user's own opencode.json keeps OpenCode's reach: each parent up to the root", () => {
    const { home, repo } = setup(() => ({ 'AGENTS.md': 'project rules\n' }), false);
    writeTree(home, {
      '.config/opencode/opencode.json': '{"instructions":["*.txt"]}',
      'up.txt': 'home text, the user asked for it\n',
    });
    const result = spawnBin(['resolve', '--preset', 'opencode'], { cwd: repo, env: env(home) });
    expect(result.stdout).toContain('home text, the user asked for it');
  });
});
