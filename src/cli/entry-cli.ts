import { fdWriter, guardStream, stdoutIsTerminal, stdoutWasClosed } from './fd-writer.js';
import { run } from './run.js';

/**
 * The entry of the CLI bundle (`dist/bin/cli.cjs`): every command but `hook`, on the real process
 * descriptors. The bin (src/cli/bin.ts) loads this bundle and sets the exit code it returns.
 */
export async function main(argv: readonly string[]): Promise<number> {
  // An answer printed to a closed stdout would be lost without a word; `--help` and `--version`
  // print there too. Checked only when stdout is /dev/null, so an ordinary run pays one fstat.
  if (stdoutWasClosed()) {
    fdWriter(2).write(
      'ctxfiles: error: stdout is closed, so the output would be lost (use >/dev/null to discard it)\n',
    );
    return 1;
  }
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
