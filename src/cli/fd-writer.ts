import fs from 'node:fs';
import { createRequire } from 'node:module';

// node:tty loads only on Windows, to tell a console from a pipe.
const requireBuiltin = createRequire(import.meta.url);

/** The status a shell reports for a process ended by SIGPIPE (128 + 13). */
export const SIGPIPE_STATUS = 141;

const guarded = new WeakSet<NodeJS.WritableStream>();

/**
 * Returns `stream` with a handler for its write faults: a reader that stops early
 * (`ctxfiles resolve | head -1`) closes the pipe, and the process ends quietly with the status a
 * shell gives a process killed by SIGPIPE (Node ignores the signal and reports EPIPE instead).
 */
export function guardStream(stream: NodeJS.WritableStream): NodeJS.WritableStream {
  if (!guarded.has(stream)) {
    guarded.add(stream);
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (stream === process.stdout) reportWriteFault(NODE_SYSTEM, error.code);
      process.exit(writeFaultStatus(error.code));
    });
  }
  return stream;
}

/**
 * A writer for the process's stdout (fd 1) or stderr (fd 2) that writes with `fs.writeSync`, so a
 * command that prints its answer once never builds Node's stream for the descriptor (with a pipe,
 * that loads the network modules: a few ms of every cold run; docs/performance.md, "Start-up").
 * When the descriptor is non-blocking and full (`EAGAIN`), the rest and every later write go
 * through the stream, in order. A reader that went away (`EPIPE`) ends the process quietly with
 * {@link SIGPIPE_STATUS}; any other write fault (a full disk, `> /dev/full`) ends it with status 1
 * after one line on stderr naming the fault, as {@link guardStream} does.
 */
export function fdWriter(fd: 1 | 2, system: WriterSystem = NODE_SYSTEM): { write(text: string): boolean } {
  // A Windows console takes text in its code page through WriteFile: only the stream writes UTF-16.
  let fallback: NodeJS.WritableStream | undefined = system.isWindowsConsole(fd)
    ? system.stream(fd)
    : undefined;
  return {
    write(text: string): boolean {
      if (fallback !== undefined) return fallback.write(text);
      const bytes = Buffer.from(text, 'utf8');
      let offset = 0;
      try {
        while (offset < bytes.length) offset += system.writeSync(fd, bytes, offset);
        return true;
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'EAGAIN') {
          fallback = system.stream(fd);
          return fallback.write(bytes.subarray(offset));
        }
        if (fd === 1) reportWriteFault(system, code);
        return system.exit(writeFaultStatus(code));
      }
    },
  };
}

/** One line on stderr for a fault writing stdout; a reader gone away is not one (`| head`). */
function reportWriteFault(system: Pick<WriterSystem, 'writeSync'>, code: string | undefined): void {
  if (code === 'EPIPE') return;
  const line = Buffer.from(
    `ctxfiles: error: cannot write the output to stdout (${code ?? 'unknown error'})\n`,
  );
  try {
    system.writeSync(2, line, 0);
  } catch {
    // stderr is gone too: the exit status is all that is left.
  }
}

/**
 * True when stdout is a terminal: a character device other than /dev/null, told from one fstat
 * (node:tty would cost every run its load). A serial line or another device counts too: harmless,
 * as the answer only gains a final newline there.
 */
export function stdoutIsTerminal(): boolean {
  try {
    const stat = fs.fstatSync(1);
    return stat.isCharacterDevice() && stat.rdev !== fs.statSync('/dev/null').rdev;
  } catch {
    return false;
  }
}

/** The exit status after a write fault: {@link SIGPIPE_STATUS} for a reader gone away, else 1. */
function writeFaultStatus(code: string | undefined): number {
  return code === 'EPIPE' ? SIGPIPE_STATUS : 1;
}

/** What {@link fdWriter} uses of the process; tests replace it. */
export interface WriterSystem {
  writeSync(fd: number, bytes: Uint8Array, offset: number): number;
  /** The stream of `fd`, once writing to it directly would block. */
  stream(fd: 1 | 2): NodeJS.WritableStream;
  exit(status: number): never;
  /** True for a console on Windows, where the stream must do the writing. */
  isWindowsConsole(fd: 1 | 2): boolean;
}

const NODE_SYSTEM: WriterSystem = {
  writeSync: (fd, bytes, offset) => fs.writeSync(fd, bytes, offset),
  stream: (fd) => guardStream(fd === 1 ? process.stdout : process.stderr),
  exit: (status) => process.exit(status),
  isWindowsConsole: (fd) =>
    process.platform === 'win32' && (requireBuiltin('node:tty') as typeof import('node:tty')).isatty(fd),
};
