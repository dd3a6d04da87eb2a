import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { cleanCopy, installTarball, packPackage, type PackedTarball } from '../bench/package.mjs';

// What a new user gets from a clone (issue 41): `npm pack` in a copy of the checkout with no dist/
// builds the package itself (`prepack`), and the tarball installed into an empty project runs every
// entry through node_modules/.bin/ctxfiles. The install is offline (bench/package.mjs,
// `installTarball`): the npm cache that `npm ci` filled is enough. Slow (one build of the package),
// so it runs once, in `beforeAll`.

const BUILD_TIMEOUT = 600_000;
let work = '';
let clone = '';
let packed: PackedTarball;
let modules = '';
let repo = '';

beforeAll(() => {
  work = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'ctxfiles-packed-')));
  clone = cleanCopy(path.join(work, 'clone'));
  expect(fs.existsSync(path.join(clone, 'dist'))).toBe(false);
  packed = packPackage({ from: clone, to: work });
  modules = installTarball(packed, work, path.join(work, 'project'));
  repo = path.join(work, 'repo');
  for (const [file, text] of Object.entries({
    '.git/HEAD': 'ref: refs/heads/main\n',
    'AGENTS.md': 'Root rules: run the tests.\n',
    // With a CLAUDE.md, Claude Code loads no AGENTS.md itself, so its hook delivers pkg/AGENTS.md.
    'CLAUDE.md': 'Claude rules.\n',
    'pkg/AGENTS.md': 'Package rules: no default exports.\n',
    'pkg/a.ts': 'export const a = 1;\n',
  })) {
    fs.mkdirSync(path.dirname(path.join(repo, file)), { recursive: true });
    fs.writeFileSync(path.join(repo, file), text);
  }
}, BUILD_TIMEOUT);

afterAll(() => {
  if (work !== '') fs.rmSync(work, { recursive: true, force: true });
});

function bin(argv: readonly string[], input = '') {
  const result = spawnSync(path.join(modules, '.bin', 'ctxfiles'), argv, {
    cwd: repo,
    input,
    encoding: 'utf8',
    env: {
      PATH: process.env['PATH'] ?? '',
      HOME: work,
      XDG_STATE_HOME: path.join(work, 'state'),
      XDG_CACHE_HOME: path.join(work, 'cache'),
    },
    timeout: 60_000,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe(
  'the package packed from a clean checkout, installed into an empty project',
  { timeout: 120_000 },
  () => {
    test('the tarball holds what prepack built: the bin, its bundles and the library', () => {
      const files = packed.files.map((file) => file.path);
      for (const file of [
        'dist/bin/ctxfiles.cjs',
        'dist/bin/cli.cjs',
        'dist/bin/hook.cjs',
        'dist/bin/hook-run.cjs',
        'dist/bin/resolve.cjs',
        'dist/index.js',
      ])
        expect(files).toContain(file);
      expect(fs.existsSync(path.join(clone, 'dist/bin/ctxfiles.cjs'))).toBe(true);
    });

    test('the install adds ctxfiles and its dependencies, as many packages as docs/mcp.md says', () => {
      const names = fs
        .readdirSync(modules)
        .filter((name) => !name.startsWith('.'))
        .flatMap((name) =>
          name.startsWith('@')
            ? fs.readdirSync(path.join(modules, name)).map((sub) => `${name}/${sub}`)
            : [name],
        );
      expect(names).toContain('ctxfiles');
      expect(fs.readFileSync('docs/mcp.md', 'utf8')).toContain(`an install adds ${names.length} packages`);
    });

    test('resolve prints the block', () => {
      const result = bin(['resolve']);
      expect([result.code, result.stderr]).toEqual([0, '']);
      expect(result.stdout).toContain('Root rules: run the tests.');
    });

    test('doctor runs and names the hosts', () => {
      const result = bin(['doctor']);
      expect(result.code).toBe(0);
      expect(result.stdout).toContain('codex');
      expect(result.stdout).toContain('AGENTS.md');
    });

    test('mcp answers initialize and a tools/call over stdio', () => {
      const messages = [
        {
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: {
            protocolVersion: '2025-06-18',
            capabilities: {},
            clientInfo: { name: 'test', version: '1' },
          },
        },
        { jsonrpc: '2.0', method: 'notifications/initialized' },
        {
          jsonrpc: '2.0',
          id: 2,
          method: 'tools/call',
          params: { name: 'instructions_for_path', arguments: { path: 'pkg/a.ts' } },
        },
      ];
      const result = bin(['mcp'], messages.map((message) => `${JSON.stringify(message)}\n`).join(''));
      expect(result.code).toBe(0);
      const answers = result.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { id: number; result: Record<string, unknown> });
      expect(answers.map((answer) => answer.id)).toEqual([1, 2]);
      expect(answers[0]?.result['serverInfo']).toEqual({ name: 'ctxfiles', version: packed.version });
      expect(JSON.stringify(answers[1]?.result)).toContain('Package rules: no default exports.');
    });

    test('a Claude Code hook event after a Read injects the nested file', () => {
      const event = {
        session_id: 'packed-1',
        transcript_path: path.join(work, 'transcript.jsonl'),
        cwd: repo,
        hook_event_name: 'PostToolUse',
        tool_name: 'Read',
        tool_input: { file_path: path.join(repo, 'pkg/a.ts') },
        tool_response: {},
      };
      const result = bin(['hook', 'claude-code'], JSON.stringify(event));
      expect([result.code, result.stderr]).toEqual([0, '']);
      const answer = JSON.parse(result.stdout) as { hookSpecificOutput: { additionalContext: string } };
      expect(answer.hookSpecificOutput.additionalContext).toContain('Package rules: no default exports.');
    });

    test('the library imports from the installed package', () => {
      const script =
        "const { createResolver } = await import('ctxfiles'); const r = await createResolver({ workDir: process.argv[1] }); process.stdout.write((await r.resolve()).text)";
      const result = spawnSync(process.execPath, ['--input-type=module', '-e', script, repo], {
        cwd: path.dirname(modules),
        encoding: 'utf8',
        timeout: 60_000,
      });
      expect(result.stderr).toBe('');
      expect(result.stdout).toContain('Root rules: run the tests.');
    });
  },
);
