import type { LoadBundle } from './bin.js';
import { fdWriter, stdoutIsTerminal } from './fd-writer.js';
import { reportError } from './io.js';
import { useBundleLoader } from './lazy-hosts.js';
import { manifestCommand, plainCommandLine, resolveCommand } from './resolve-command.js';

/**
 * The entry of the `resolve` bundle (`dist/bin/resolve.cjs`): a plain `ctxfiles resolve`, what a
 * runner starts for every agent, or `ctxfiles manifest`, without commander and the other commands. A command line it does
 * not take as plain (src/cli/resolve-command.ts, `plainCommandLine`: help, an unknown option, a
 * usage error…) goes to the CLI bundle, which answers it as it answers every command.
 */
export async function main(argv: readonly string[], load: LoadBundle): Promise<number> {
  useBundleLoader(load);
  const plain = plainCommandLine(argv);
  if (plain === undefined)
    return (load('cli') as { main: typeof import('./entry-cli.js').main }).main(argv, load);
  const { command, options } = plain;
  // The streams of the CLI bundle for every command but `mcp` (src/cli/entry-cli.ts).
  const io = {
    stdout: Object.assign(fdWriter(1), { isTTY: stdoutIsTerminal() }),
    stderr: fdWriter(2),
    get stdin() {
      return process.stdin;
    },
    env: process.env,
    cwd: process.cwd(),
  };
  try {
    return await (command === 'manifest' ? manifestCommand : resolveCommand)(options, io);
  } catch (error) {
    // As `run` reports an error its command threw (src/cli/run.ts).
    return reportError(error, io, argv.includes('--json'));
  }
}
