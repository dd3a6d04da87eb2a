import path from 'node:path';
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

/** The environment variable that adds the stack to an internal error (docs/cli.md). */
const DEBUG_ENV = 'CTXFILES_DEBUG';

/** Prints the `warn` diagnostics on stderr, each tagged with its code (docs/diagnostics.md). */
export function writeDiagnostics(diagnostics: readonly Diagnostic[], io: CliIo): void {
  for (const diagnostic of diagnostics) {
    if (diagnostic.level === 'warn')
      io.stderr.write(`ctxfiles: warning: ${escapeControl(diagnostic.message)} [${diagnostic.code}]\n`);
  }
}

type JsonProblem = Readonly<Record<string, unknown>>;

/** The error object `--json` prints on stdout when a command fails (docs/cli.md). */
interface JsonError {
  readonly error: {
    readonly code: string;
    readonly message: string;
    readonly problems?: readonly JsonProblem[];
  };
}

/**
 * Prints a `CtxfilesError` line by line, anything else as a one-line internal error (its stack only
 * when `CTXFILES_DEBUG` is set); with `json`, the error object on stdout too. Returns the exit code.
 */
export function reportError(error: unknown, io: CliIo, json = false): number {
  if (typeof error === 'object' && error !== null && (error as { name?: string }).name === 'CtxfilesError') {
    const { code, message, problems } = error as { code: string; message: string; problems?: unknown };
    for (const line of message.split('\n')) io.stderr.write(`ctxfiles: error: ${escapeControl(line)}\n`);
    if (json)
      writeJsonError(io, code, message, Array.isArray(problems) ? (problems as JsonProblem[]) : undefined);
    return code === 'usage' ? EXIT.usage : EXIT.invalid;
  }
  const message = error instanceof Error ? `${error.name}: ${error.message}` : safeString(error);
  const debug = io.env[DEBUG_ENV] !== undefined && io.env[DEBUG_ENV] !== '' && io.env[DEBUG_ENV] !== '0';
  if (debug && error instanceof Error && error.stack !== undefined)
    io.stderr.write(`ctxfiles: internal error: ${error.stack}\n`);
  else
    io.stderr.write(
      `ctxfiles: internal error: ${escapeControl(message)} (set ${DEBUG_ENV}=1 for the stack; please report it)\n`,
    );
  if (json) writeJsonError(io, 'internal', message);
  return EXIT.invalid;
}

/** Prints `{"error": {code, message, problems?}}` on stdout. */
export function writeJsonError(
  io: CliIo,
  code: string,
  message: string,
  problems?: readonly JsonProblem[],
): void {
  const body: JsonError = { error: { code, message, ...(problems === undefined ? {} : { problems }) } };
  io.stdout.write(`${JSON.stringify(body, null, 2)}\n`);
}

function safeString(value: unknown): string {
  try {
    return String(value);
  } catch {
    return typeof value;
  }
}

/**
 * A path given on the command line, absolute: relative paths (`--config`, `--user-config`,
 * `--input`, `--mcp`, `--base`, `--fragments`, `--state`, `--state-dir`, `--out`, files of
 * `validate`) are relative to the shell's working directory for every command, never to `--cwd`
 * (docs/cli.md).
 */
export function fromShell<T extends string | undefined>(file: T, io: { readonly cwd: string }): T {
  return (file === undefined ? undefined : path.resolve(io.cwd, file)) as T;
}
