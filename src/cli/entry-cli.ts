import type { LoadBundle } from './bin.js';
import { fdWriter, guardStream, stdoutIsTerminal } from './fd-writer.js';
import { useBundleLoader } from './lazy-hosts.js';
import { run } from './run.js';

/**
 * The entry of the CLI bundle (`dist/bin/cli.cjs`): every command but `hook`, on the real process
 * descriptors. The bin (src/cli/bin.ts) loads this bundle and sets the exit code it returns; `load`
 * loads the other bundles (the hosts', src/cli/lazy-hosts.ts).
 */
export async function main(argv: readonly string[], load: LoadBundle): Promise<number> {
  useBundleLoader(load);
  // Output is never refused up front: a descriptor that only discards (`stdio: 'ignore'` and `>&-`
  // both leave /dev/null open read-write on fd 1) is a choice; only a write that fails is a fault.
  // `mcp` hands stdout to the MCP SDK, which needs a stream; every other command only writes.
  const streams = argv[0] === 'mcp';
  return run(argv, {
    stdout: streams ? guardStream(process.stdout) : Object.assign(fdWriter(1), { isTTY: stdoutIsTerminal() }),
    stderr: streams ? guardStream(process.stderr) : fdWriter(2),
    // process.stdin builds a stream on first access; only `session` reads it.
    get stdin() {
      return process.stdin;
    },
    env: process.env,
    cwd: process.cwd(),
  });
}
