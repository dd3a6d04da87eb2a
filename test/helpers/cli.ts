import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { run } from '../../src/cli/run.js';

/** Absolute path of the built bin. `npm test` builds before it runs vitest. */
export const BIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../dist/bin/ctxfiles.cjs');

/** Runs the CLI in-process and captures its output. */
export async function cli(
  argv: readonly string[],
  options: { cwd: string; env?: Record<string, string>; stdin?: NodeJS.ReadableStream },
) {
  let stdout = '';
  let stderr = '';
  const code = await run(argv, {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
    env: options.env ?? {},
    cwd: options.cwd,
    ...(options.stdin === undefined ? {} : { stdin: options.stdin }),
  });
  return { code, stdout, stderr };
}

/** Spawns the built bin. */
export function spawnBin(
  argv: readonly string[],
  options: { cwd: string; input?: string; env?: Record<string, string> },
) {
  const result = spawnSync(process.execPath, [BIN, ...argv], {
    cwd: options.cwd,
    input: options.input ?? '',
    encoding: 'utf8',
    env: {
      PATH: process.env['PATH'] ?? '',
      HOME: options.cwd,
      // The compile cache (docs/performance.md) goes where vitest.config.ts says, not into `cwd`.
      ...(process.env['XDG_CACHE_HOME'] === undefined
        ? {}
        : { XDG_CACHE_HOME: process.env['XDG_CACHE_HOME'] }),
      ...options.env,
    },
    timeout: 20_000,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}
