import type { Diagnostic } from '../errors.js';
import { escapeControl } from '../render/escape.js';

/** Where the CLI writes and what it reads. The bin passes the real process's. */
export interface CliIo {
  readonly stdout: { write(text: string): unknown };
  readonly stderr: { write(text: string): unknown };
  readonly stdin?: NodeJS.ReadableStream;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
}

/** Exit codes: 0 done, 1 invalid input, 2 wrong usage (docs/cli.md). */
export const EXIT = Object.freeze({ ok: 0, invalid: 1, usage: 2 });

/** Prints the `warn` diagnostics on stderr, each tagged with its code (docs/diagnostics.md). */
export function writeDiagnostics(diagnostics: readonly Diagnostic[], io: CliIo): void {
  for (const diagnostic of diagnostics) {
    if (diagnostic.level === 'warn')
      io.stderr.write(`ctxfiles: warning: ${escapeControl(diagnostic.message)} [${diagnostic.code}]\n`);
  }
}

/** Prints a `CtxfilesError` line by line, anything else as an internal error; returns the exit code. */
export function reportError(error: unknown, io: CliIo): number {
  if (typeof error === 'object' && error !== null && (error as { name?: string }).name === 'CtxfilesError') {
    const { code, message } = error as { code: string; message: string };
    for (const line of message.split('\n')) io.stderr.write(`ctxfiles: error: ${escapeControl(line)}\n`);
    return code === 'usage' ? EXIT.usage : EXIT.invalid;
  }
  io.stderr.write(
    `ctxfiles: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  return EXIT.invalid;
}
