/**
 * The one narrow port through which ctxfiles touches a filesystem (ARCHITECTURE.md). It is synchronous
 * on purpose: every operation ctxfiles needs is a cheap metadata call or a bounded read, and a
 * synchronous port keeps walks iterative and allocation-light (see ARCHITECTURE.md). The public
 * API stays asynchronous.
 *
 * Every method throws an error carrying a string `code` (`ENOENT`, `EACCES`, …) on failure.
 */

/** What a path is, without following a final symlink for `lstat`/`readdir`. */
export type FileKind = 'file' | 'directory' | 'symlink' | 'fifo' | 'socket' | 'device' | 'other';

/** Metadata of one file. `dev`/`ino` identify it across spellings and links. */
export interface FileInfo {
  readonly kind: FileKind;
  readonly size: number;
  readonly mtimeMs: number;
  /**
   * When the file's metadata last changed (a write, a rename, a change of mode or owner, and for a
   * directory any entry added, removed or renamed). Unlike `mtimeMs` no program can set it back.
   * Optional so that ports written before it keep working: the walk index (docs/disclosure.md,
   * "The walk index") trusts no listing of a port that leaves it out.
   */
  readonly ctimeMs?: number;
  readonly dev: number;
  readonly ino: number;
}

/** One directory entry, typed from the directory listing itself (no extra stat). */
export interface DirEntry {
  readonly name: string;
  readonly kind: FileKind;
}

/** A bounded read of a regular file. */
export interface ReadResult {
  /** At most `maxBytes` bytes. */
  readonly bytes: Uint8Array;
  /** True when the file held more than `maxBytes` bytes. */
  readonly truncated: boolean;
  /** Metadata of the file that was actually opened. */
  readonly info: FileInfo;
}

/** Options of {@link FileSystem.readFile}. */
export interface ReadOptions {
  /** Read at most this many bytes (one more is read to detect truncation). */
  readonly maxBytes: number;
  /**
   * When set, the opened file must be this one (same device and inode); otherwise the read fails
   * with `ESTALE`. Closes the gap between checking a path and reading it.
   */
  readonly expect?: { readonly dev: number; readonly ino: number };
}

/** The filesystem port. Paths are absolute. */
export interface FileSystem {
  lstat(path: string): FileInfo;
  /**
   * Like `lstat`, but returns `null` when the path is absent (`ENOENT`, `ENOTDIR`) instead of
   * throwing: existence probes are the hot path of chain walks.
   */
  probe(path: string): FileInfo | null;
  stat(path: string): FileInfo;
  realpath(path: string): string;
  readdir(path: string): readonly DirEntry[];
  /**
   * Reads a regular file without following a final symlink and without blocking on FIFOs.
   * Fails with `EINVAL` for anything that is not a regular file, `ELOOP` for a final symlink. Rule
   * discovery reads a file listed as a plain file with no check before the read: this refusal is
   * what keeps a file swapped for a link out. The bytes returned belong to the
   * caller: an implementation never reuses or changes them (digests are computed later).
   */
  readFile(path: string, options: ReadOptions): ReadResult;
}

/** An error with the code a filesystem reported. */
export interface FsError extends Error {
  readonly code: string;
}

/** The `code` of a thrown filesystem error, or `EUNKNOWN`. */
export function errorCode(error: unknown): string {
  if (typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string') {
    return error.code;
  }
  return 'EUNKNOWN';
}

/** Only these codes mean "not there" (docs/diagnostics.md); every other code is a fault worth reporting. */
export function isAbsent(error: unknown): boolean {
  const code = errorCode(error);
  return code === 'ENOENT' || code === 'ENOTDIR';
}

/** Builds an error carrying a filesystem code. */
export function fsError(code: string, syscall: string, path: string): FsError {
  const error = new Error(`${code}: ${syscall} '${path}'`) as Error & {
    code: string;
    path: string;
    syscall: string;
  };
  error.code = code;
  error.path = path;
  error.syscall = syscall;
  return error;
}
