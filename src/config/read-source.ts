import path from 'node:path';
import { CtxfilesError, formatProblem, type CtxfilesErrorCode } from '../errors.js';
import { errorCode, isAbsent, type FileKind, type FileSystem } from '../fs/file-system.js';

/** Config and flow files larger than this are refused before parsing. */
export const MAX_SOURCE_BYTES = 1_048_576;

/**
 * Reads a config or flow file through the port as UTF-8 text, refusing anything that is not a
 * regular file (symlinks are followed) or is larger than {@link MAX_SOURCE_BYTES}. `display` is the
 * path shown in messages. The byte cap is the port's own bounded read.
 * @throws CtxfilesError with `code` when the file is missing, not a file, too large or unreadable.
 */
export function readSourceFile(
  fs: FileSystem,
  file: string,
  display: string,
  code: CtxfilesErrorCode,
): string {
  const fail = (problem: string, cause?: unknown): never => {
    throw new CtxfilesError(code, [formatProblem({ file: display }, problem)], { cause });
  };
  try {
    const info = fs.stat(file);
    if (info.kind !== 'file') return fail(describeKind(info.kind));
    if (info.size > MAX_SOURCE_BYTES)
      return fail(`the file is ${info.size} bytes; at most ${MAX_SOURCE_BYTES} are accepted`);
    // The port never follows a final symlink; a config search refuses links that leave their
    // directory before this read (config-search.ts), so the real path is the file meant.
    const read = fs.readFile(fs.realpath(file), { maxBytes: MAX_SOURCE_BYTES, expect: info });
    if (read.truncated) return fail(`the file is larger than ${MAX_SOURCE_BYTES} bytes`);
    return Buffer.from(read.bytes.buffer, read.bytes.byteOffset, read.bytes.byteLength).toString('utf8');
  } catch (error) {
    if (error instanceof CtxfilesError) throw error;
    if (isAbsent(error)) return fail('the file does not exist', error);
    return fail(`cannot read the file (${errorCode(error)})`, error);
  }
}

/**
 * True when `file` is a regular file (symlinks followed), false when it is absent (`ENOENT`,
 * `ENOTDIR`) or something else.
 * @throws CtxfilesError with `code` for any other error (`EACCES`, `EIO`, ...): a config the user
 * may have meant must not be skipped silently.
 */
export function isSourceFile(
  fs: FileSystem,
  file: string,
  display: string,
  code: CtxfilesErrorCode,
): boolean {
  return probeSourceFile(fs, file, display, code) === 'file';
}

/**
 * What is at a search place: a regular file (symlinks followed), nothing (`ENOENT`, `ENOTDIR`), or
 * something else (a directory, a FIFO, a device). `display` may be a function: the search calls this
 * for every place of every directory up to home, and the shown path costs as much as the depth.
 * @throws CtxfilesError with `code` for any other error, as {@link isSourceFile}.
 */
export function probeSourceFile(
  fs: FileSystem,
  file: string,
  display: string | (() => string),
  code: CtxfilesErrorCode,
): 'file' | 'absent' | 'directory' | 'other' {
  try {
    const kind = statKind(fs, file);
    if (kind === null) return 'absent';
    return kind === 'file' ? 'file' : kind === 'directory' ? 'directory' : 'other';
  } catch (error) {
    if (isAbsent(error)) return 'absent';
    throw new CtxfilesError(
      code,
      [
        formatProblem(
          { file: typeof display === 'string' ? display : display() },
          `cannot read the file (${errorCode(error)})`,
        ),
      ],
      { cause: error },
    );
  }
}

/**
 * What `stat` says `file` is, or `null` where `stat` would fail with `ENOENT` or `ENOTDIR`: asked with
 * the port's `probe` first, which answers an absent path without an error (most search places are
 * absent, and an error costs more than the call: Node builds it with its stack), then with `stat`
 * only for a symlink, to follow it.
 * @throws the port's error for anything else (`EACCES`, `ELOOP`, …), or for a link that leads nowhere
 * (`ENOENT`, which callers read as absent).
 */
export function statKind(fs: FileSystem, file: string): FileKind | null {
  const info = fs.probe(file);
  if (info === null) return null;
  return info.kind === 'symlink' ? fs.stat(file).kind : info.kind;
}

/**
 * Checks a config file named on purpose (`--config`, `--user-config`), with one `stat`.
 * @throws CtxfilesError `config-not-found` when it is absent (`ENOENT`, `ENOTDIR`: "the `what` file
 * does not exist"), a directory or not a regular file (a device such as `/dev/null`, a FIFO);
 * `config-syntax` when it cannot be checked (`EACCES`, `EIO`, ...).
 */
export function requireSourceFile(fs: FileSystem, file: string, display: string, what: string): void {
  let kind: string;
  try {
    kind = fs.stat(file).kind;
  } catch (error) {
    if (isAbsent(error))
      throw new CtxfilesError('config-not-found', [
        formatProblem({ file: display }, `the ${what} file does not exist`),
      ]);
    throw new CtxfilesError(
      'config-syntax',
      [formatProblem({ file: display }, `cannot read the file (${errorCode(error)})`)],
      { cause: error },
    );
  }
  if (kind !== 'file')
    throw new CtxfilesError('config-not-found', [formatProblem({ file: display }, describeKind(kind))]);
}

function describeKind(kind: string): string {
  return kind === 'directory' ? 'a directory, not a file' : 'not a regular file';
}

/** How config and flow paths are shown in messages: relative to `displayCwd` when possible. */
export function relativeDisplay(displayCwd: string): (file: string) => string {
  return (file) => {
    const relative = path.relative(displayCwd, file);
    if (path.isAbsolute(relative)) return file;
    // Above the display dir a path stays relative (`../../.opencode.json` of a monorepo), unless it
    // climbs to the root: `../../dev/null` says less than `/dev/null`.
    if ((relative.startsWith(`..${path.sep}`) || relative === '..') && topOf(file) !== topOf(displayCwd))
      return file;
    return relative || path.basename(file);
  };
}

/** The first directory below the root (`tmp` of `/tmp/a/b`). */
function topOf(file: string): string {
  return file.slice(path.parse(file).root.length).split(path.sep)[0] ?? '';
}
