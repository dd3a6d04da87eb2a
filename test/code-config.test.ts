import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { loadConfig } from '../src/index.js';
import { spawnBin } from './helpers/cli.js';
import { tempTree, writeTree } from './helpers/disk.js';

// Issue #26, item 2: the config search reads data configs only (DESIGN §12, "Trust"). A code config
// it finds runs nothing unless --config names it or the user config trusts the project. Each code
// config here writes a marker file when it is loaded, so a test sees whether it ran.

/** A code config that leaves `ran` beside itself when it is evaluated. */
function codeConfig(kind: 'mjs' | 'cjs' | 'js'): string {
  const body =
    kind === 'mjs'
      ? `import fs from 'node:fs'; import url from 'node:url'; import path from 'node:path';\nfs.writeFileSync(path.join(path.dirname(url.fileURLToPath(import.meta.url)), 'ran'), 'x');\nexport default { contextPaths: ['CODE.md'] };\n`
      : `require('node:fs').writeFileSync(require('node:path').join(__dirname, 'ran'), 'x');\nmodule.exports = { contextPaths: ['CODE.md'] };\n`;
  return body;
}

function project(where: 'workdir' | 'parent', kind: 'mjs' | 'cjs' | 'js' = 'mjs') {
  const home = tempTree();
  const top = path.join(home, 'src');
  const repo = where === 'workdir' ? top : path.join(top, 'repo');
  writeTree(top, { [`ctxfiles.config.${kind}`]: codeConfig(kind) });
  writeTree(repo, { 'AGENTS.md': 'agents\n', 'CODE.md': 'from the code config\n', 'sub/x.txt': '' });
  return { home, top, repo, ran: path.join(top, 'ran') };
}

const env = (home: string) => ({ HOME: home, XDG_CONFIG_HOME: path.join(home, '.config') });

describe('a code config found by the search is refused', () => {
  test.each([
    ['in the work dir', 'workdir', '.', ['resolve']],
    ['in the work dir, validate', 'workdir', '.', ['validate']],
    ['in a parent directory up to home', 'parent', '.', ['resolve']],
    ['from a sub-directory cwd', 'workdir', 'sub', ['resolve']],
    ['explain', 'workdir', '.', ['explain']],
  ] as const)('%s: it never runs, and a warn names it', (_name, where, cwd, argv) => {
    const { home, top, repo, ran } = project(where);
    const result = spawnBin([...argv], { cwd: path.join(repo, cwd), env: env(home) });
    expect(fs.existsSync(ran)).toBe(false);
    expect(result.code).toBe(0);
    const shown = path.relative(path.join(repo, cwd), path.join(top, 'ctxfiles.config.mjs'));
    expect(result.stdout + result.stderr).toContain(
      `${shown}: not loaded: a config found by the search runs no code; name it with --config (configFile), or list the project in the user config's trustedProjects`,
    );
    expect(result.stdout).not.toContain('from the code config');
  });

  test("the Claude Code hook's SessionStart never runs it", () => {
    const { home, repo, ran } = project('workdir', 'cjs');
    const result = spawnBin(['hook', 'claude-code', '--state-dir', path.join(home, 'state')], {
      cwd: repo,
      env: env(home),
      input: JSON.stringify({ hook_event_name: 'SessionStart', session_id: 's1', cwd: repo }),
    });
    expect(fs.existsSync(ran)).toBe(false);
    expect(result.code).toBe(0);
    expect(result.stdout + result.stderr).toContain('ctxfiles.config.cjs: not loaded');
  });

  test.each(['mjs', 'cjs', 'js'] as const)(
    'loadConfig: .%s is refused and the search goes on',
    async (kind) => {
      const { home, top, ran } = project('workdir', kind);
      writeTree(top, { 'package.json': '{"ctxfiles": {"contextPaths": ["PKG.md"]}}' });
      const loaded = await loadConfig({
        cwd: top,
        stopDir: top,
        userConfig: null,
        homeDir: home,
        displayCwd: top,
      });
      expect(fs.existsSync(ran)).toBe(false);
      expect(loaded.filepath).toBe(path.join(top, 'package.json'));
      expect(loaded.config.contextPaths).toEqual(['PKG.md']);
      expect(loaded.diagnostics).toContainEqual({
        level: 'warn',
        code: 'code-config-refused',
        message: expect.stringMatching(new RegExp(`^ctxfiles\\.config\\.${kind}: not loaded`)),
        path: path.join(top, `ctxfiles.config.${kind}`),
      });
    },
  );

  test('--config naming it, or a trusted project, loads it', async () => {
    const { home, top, repo, ran } = project('workdir');
    const named = spawnBin(['resolve', '--config', 'ctxfiles.config.mjs'], { cwd: repo, env: env(home) });
    expect(named.stdout).toContain('from the code config');
    expect(fs.existsSync(ran)).toBe(true);
    fs.rmSync(ran);
    writeTree(home, { '.config/ctxfiles/config.json': JSON.stringify({ trustedProjects: [top] }) });
    const trusted = spawnBin(['resolve'], { cwd: repo, env: env(home) });
    expect(trusted.stdout).toContain('from the code config');
    expect(trusted.stderr).not.toContain('not loaded');
    expect(fs.existsSync(ran)).toBe(true);
  });
});
