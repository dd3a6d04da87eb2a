import { spawnSync } from 'node:child_process';
import { describe, expect, test } from 'vitest';
import { BIN } from './helpers/cli.js';
import { tempTree } from './helpers/disk.js';

// An embedder or a service that discards the output spawns ctxfiles with `stdio: 'ignore'`: Node
// then opens /dev/null read-write on fds 0–2 (as it does for a descriptor closed with `>&-`). Writes
// there succeed, so no command may refuse to run: only a write that fails is a closed stdout
// (docs/cli.md, "Exit codes"; issues 41 and 42).

const TREE = {
  '.git/HEAD': 'ref: refs/heads/main\n',
  'AGENTS.md': '# Agents\nRun the tests.\n',
  'pkg/AGENTS.md': 'Package rules.\n',
  'ctxfiles.config.json': '{ "agents": { "coder": {} } }\n',
};

const COMMANDS: readonly (readonly string[])[] = [
  ['resolve'],
  ['resolve', '--json'],
  ['manifest'],
  ['explain'],
  ['doctor'],
  ['presets'],
  ['presets', 'show', 'codex'],
  ['validate'],
  ['schema'],
  ['prompt'],
  ['session'],
  ['mcp'],
  ['hook', 'claude-code'],
  ['init', 'claude-code', '--dry-run'],
  ['--version'],
  ['--help'],
];

function spawnIgnored(argv: readonly string[], stdio: 'ignore' | 'pipe') {
  const root = tempTree(TREE);
  return spawnSync(process.execPath, [BIN, ...argv], {
    cwd: root,
    stdio,
    encoding: 'utf8',
    env: {
      PATH: process.env['PATH'] ?? '',
      HOME: root,
      ...(process.env['XDG_CACHE_HOME'] === undefined
        ? {}
        : { XDG_CACHE_HOME: process.env['XDG_CACHE_HOME'] }),
    },
    timeout: 30_000,
  });
}

describe("every command spawned with stdio: 'ignore' runs and exits 0", { timeout: 120_000 }, () => {
  test.each(COMMANDS.map((argv) => [argv.join(' '), argv] as const))('%s', (_name, argv) => {
    // The same command with pipes exits 0 too, so the status below is the command's own.
    const piped = spawnIgnored(argv, 'pipe');
    expect([piped.status, piped.stderr]).toEqual([0, expect.not.stringContaining('error')]);
    const ignored = spawnIgnored(argv, 'ignore');
    expect([ignored.status, ignored.signal, ignored.error]).toEqual([0, null, undefined]);
  });
});
