import { readFdBounded } from '../fs/bounded-input.js';
import { fdWriter } from './fd-writer.js';
import { hookCommand, MAX_HOOK_INPUT_BYTES, readStream } from './hook-command.js';

/**
 * The entry of the hook bundle (`dist/bin/hook.cjs`). An agent runs `ctxfiles hook` on every tool
 * call: this bundle holds the hook command alone (no commander, no other command) and reads its
 * one event from stdin in a single call (docs/hooks.md).
 */
export function main(argv: readonly string[]): Promise<number> {
  return hookCommand(argv.slice(1), {
    stdout: fdWriter(1),
    stderr: fdWriter(2),
    env: process.env,
    cwd: process.cwd(),
    readStdin: () => {
      try {
        return readFdBounded(0, MAX_HOOK_INPUT_BYTES);
      } catch {
        // A non-blocking or closed stdin (EAGAIN, EOF on a TTY): read it as a stream.
        return readStream(process.stdin);
      }
    },
  });
}
