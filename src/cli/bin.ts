#!/usr/bin/env node
import { readFileSync } from 'node:fs';
import nodeModule from 'node:module';

// Node 22.1+ can keep V8's compiled code of the CLI's chunks between runs (in the OS temp dir;
// NODE_DISABLE_COMPILE_CACHE=1 turns it off). Node 20 has no such function: nothing happens.
(nodeModule as { enableCompileCache?: () => unknown }).enableCompileCache?.();

/** The status a shell reports for a process ended by SIGPIPE (128 + 13). */
const SIGPIPE_STATUS = 141;

// A reader that stops early (`ctxfiles resolve | head -1`) closes the pipe: end quietly, with the
// status a shell gives a process killed by SIGPIPE (Node ignores the signal and reports EPIPE instead).
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    process.exit(error.code === 'EPIPE' ? SIGPIPE_STATUS : 1);
  });
}

const argv = process.argv.slice(2);
if (argv[0] === 'hook') {
  // An agent runs `ctxfiles hook` on every tool call: start it without loading the rest of the CLI
  // (commander, the other commands) and read its one event from stdin in a single call.
  const { hookCommand, readStream } = await import('./hook-command.js');
  process.exitCode = await hookCommand(argv.slice(1), {
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
    cwd: process.cwd(),
    readStdin: () => {
      try {
        return readFileSync(0, 'utf8');
      } catch {
        // A non-blocking or closed stdin (EAGAIN, EOF on a TTY): read it as a stream.
        return readStream(process.stdin);
      }
    },
  });
} else {
  const { run } = await import('./run.js');
  process.exitCode = await run(argv, {
    stdout: process.stdout,
    stderr: process.stderr,
    // process.stdin builds a stream on first access; only `session` reads it.
    get stdin() {
      return process.stdin;
    },
    env: process.env,
    cwd: process.cwd(),
  });
}
