import { readFdBounded } from '../fs/bounded-input.js';
import { quickHook } from '../hooks/quick-hook.js';
import type { runHook } from '../hooks/run-hook.js';
import type { LoadBundle } from './bin.js';
import { fdWriter } from './fd-writer.js';
import { hookCommand, MAX_HOOK_INPUT_BYTES, readStream } from './hook-command.js';
import { useBundleLoader } from './lazy-hosts.js';

/**
 * The entry of the hook bundle (`dist/bin/hook.cjs`). An agent runs `ctxfiles hook` on every tool
 * call: this bundle holds the hook command's parser and its quick check alone (no commander, no
 * config loading, no resolver) and reads its one event from stdin in a single call
 * (docs/hooks.md). An event the quick check cannot answer loads the rest of the hook, the
 * `hook-run` bundle (src/cli/entry-hook-run.ts), which answers it from the start.
 */
export function main(argv: readonly string[], load: LoadBundle): Promise<number> {
  useBundleLoader(load);
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
    answer: (options) =>
      quickHook(options) ?? (load('hook-run') as { runHook: typeof runHook }).runHook(options),
  });
}
