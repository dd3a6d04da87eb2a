import type { NestedFile } from '../discover/nested-index.js';
import type { Diagnostic } from '../errors.js';
import { errorCode, isAbsent } from '../fs/file-system.js';
import { decodingWarnings, type InstructionRead } from '../fs/read-instruction.js';

/** Why a session could not use a file: a thrown filesystem error, or a failed bounded read. */
export type ReadFailure = { readonly error: unknown } | Extract<InstructionRead, { ok: false }>;

/** A successful bounded read, as both session readers keep it. */
export type ReadBody = Extract<InstructionRead, { ok: true }>;

/**
 * Change tracking: a file that cannot be checked or read now is kept as it was and checked again
 * after the next tool call (`temporarily-unavailable`, debug). The message carries the filesystem
 * code, or the fault in capitals (`TOO-LARGE`, `BINARY`).
 */
export function unavailable(file: string, doing: 'checked' | 'read', failure: ReadFailure): Diagnostic {
  const code = 'error' in failure ? errorCode(failure.error) : (failure.code ?? failure.fault.toUpperCase());
  return {
    level: 'debug',
    code: 'temporarily-unavailable',
    message: `${file} cannot be ${doing} now (${code}); it is kept as it was`,
    path: file,
  };
}

/**
 * Injection: a nested file that cannot be injected is a warning named after the fault. Only
 * `ENOENT` and `ENOTDIR` mean it vanished; any other error code is `unreadable`.
 */
export function notInjected(
  file: Pick<NestedFile, 'path' | 'relativePath'>,
  failure: ReadFailure,
  maxBytes: number,
): Diagnostic {
  const shown = file.relativePath;
  const fault =
    'error' in failure
      ? { fault: isAbsent(failure.error) ? 'vanished' : 'unreadable', code: errorCode(failure.error) }
      : failure;
  const messages = {
    vanished: `${shown} no longer exists and is not injected`,
    unreadable: `${shown} cannot be read (${fault.code ?? 'error'}) and is not injected`,
    'too-large': `${shown} is larger than maxFileBytes (${maxBytes}) and is never injected`,
    binary: `${shown} looks binary and is not injected`,
  } as const;
  const code = fault.fault as keyof typeof messages;
  return { level: 'warn', code, message: messages[code], path: file.path };
}

/** Warnings about a file that is injected anyway: invalid UTF-8, hidden Unicode. */
export function readWarnings(file: Pick<NestedFile, 'path' | 'relativePath'>, read: ReadBody): Diagnostic[] {
  return decodingWarnings(file.relativePath, read, { path: file.path });
}
