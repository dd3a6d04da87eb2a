import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { errorCode as code } from './file-system.js';

// node:crypto loads on the first write, not with the bin: most runs write nothing.
const require = createRequire(import.meta.url);
let randomBytes: typeof import('node:crypto').randomBytes | undefined;

/**
 * The user's cache directory, where ctxfiles keeps its own state between runs: the walk index
 * (src/fs/walk-index-store.ts) and the CLI's compile cache (src/cli/compile-cache.ts). Both are
 * read back as trusted input (a listing that hides files, code that runs), so every directory and
 * file here must be the user's own and writable by no one else (docs/cli.md, "Files the CLI writes
 * outside the project"). This is not the user's project: it is read with node:fs, not the port.
 * The one reader and writer of such state files, {@link readOwnFile} and {@link replaceFile}, serve
 * the hooks' session states (src/hooks/state-store.ts) too.
 */

/** Where the caches live. */
export interface UserCacheOptions {
  /** Read for `CTXFILES_NO_CACHE`, `XDG_CACHE_HOME` and, on Windows, `LOCALAPPDATA`. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The user's home directory, for the default locations. */
  readonly homeDir: string;
  /** Default: `process.platform`. */
  readonly platform?: NodeJS.Platform;
}

/** True when `CTXFILES_NO_CACHE` is set to anything but empty or `0`: no cache is read or written. */
export function cacheDisabledByEnv(env: Readonly<Record<string, string | undefined>>): boolean {
  const value = env['CTXFILES_NO_CACHE'];
  return value !== undefined && value !== '' && value !== '0';
}

/**
 * The directory of one cache: `$XDG_CACHE_HOME/ctxfiles/<name>`, else `~/.cache/ctxfiles/<name>`;
 * on Windows `%LOCALAPPDATA%\ctxfiles\<name>`, else `~\AppData\Local\ctxfiles\<name>`. Relative
 * values of the variables are ignored, as the XDG base directory specification asks; `null` when
 * no absolute directory is left (no home directory either).
 */
export function userCacheDirectory(name: string, options: UserCacheOptions): string | null {
  const { env, homeDir } = options;
  const windows = (options.platform ?? process.platform) === 'win32';
  const given = windows ? env['LOCALAPPDATA'] : env['XDG_CACHE_HOME'];
  const base =
    given !== undefined && path.isAbsolute(given)
      ? given
      : windows
        ? path.join(homeDir, 'AppData', 'Local')
        : path.join(homeDir, '.cache');
  return path.isAbsolute(base) ? path.join(base, 'ctxfiles', name) : null;
}

/**
 * Creates a cache dir and its `ctxfiles` parent (mode 0700) when missing, one level at a time so
 * that nothing is ever created through a symlink, and checks both; returns why it cannot be used.
 */
export function ensurePrivateDirectory(dir: string, checkOwner: boolean): string | undefined {
  // Every run but the first finds both: two lstat calls, and no mkdir.
  if (unsafePrivateDirectory(dir, checkOwner) === undefined) return undefined;
  const parent = path.dirname(dir);
  try {
    fs.mkdirSync(path.dirname(parent), { recursive: true, mode: 0o700 });
  } catch (error) {
    return `the cache dir ${path.dirname(parent)} cannot be created (${code(error)})`;
  }
  for (const level of [parent, dir]) {
    let problem = checkDirectory(level, checkOwner);
    if (problem === null) {
      try {
        fs.mkdirSync(level, { mode: 0o700 });
      } catch (error) {
        if (code(error) !== 'EEXIST') return `the cache dir ${level} cannot be created (${code(error)})`;
      }
      problem = checkDirectory(level, checkOwner);
    }
    if (problem !== undefined) return problem ?? `the cache dir ${level} vanished`;
  }
  return undefined;
}

/**
 * Why the cache dir and its `ctxfiles` parent must not be trusted, for reading: `null` when either
 * does not exist (no index yet), undefined when both are safe.
 */
export function unsafePrivateDirectory(dir: string, checkOwner: boolean): string | null | undefined {
  const parent = checkDirectory(path.dirname(dir), checkOwner);
  return parent !== undefined ? parent : checkDirectory(dir, checkOwner);
}

/**
 * Why one directory of the cache must not be trusted: a symlink, not a directory, not owned by this
 * user, or writable by others (who could plant an index that hides files). `null` when it does not
 * exist; undefined when it is safe.
 */
function checkDirectory(dir: string, checkOwner: boolean): string | null | undefined {
  let info: fs.Stats;
  try {
    info = fs.lstatSync(dir);
  } catch (error) {
    return code(error) === 'ENOENT' ? null : `the cache dir ${dir} cannot be checked (${code(error)})`;
  }
  const problem = unsafeEntry(info, checkOwner) ?? (info.isDirectory() ? undefined : 'is not a directory');
  return problem === undefined ? undefined : `the cache dir ${dir} ${problem}; it is not used`;
}

/** A symlink, or (where modes mean something) another user's or others-writable entry. */
export function unsafeEntry(info: fs.Stats, checkOwner: boolean): string | undefined {
  if (info.isSymbolicLink()) return 'is a symlink';
  if (!checkOwner) return undefined;
  const uid = process.getuid?.();
  if (uid !== undefined && info.uid !== uid) return 'is owned by another user';
  if ((info.mode & 0o022) !== 0) return 'is writable by others';
  return undefined;
}

/**
 * Deletes the entries of `dir` (regular files and symlinks, never directories) older than what
 * `maxAgeOf(name)` allows, or dated that far in the future (the clock was stepped back, so the
 * entry would otherwise outlive every sweep); `null` keeps an entry whatever its age. Cheap and bounded: one listing,
 * one `lstat` per entry, at most `maxEntries` entries looked at. Never throws: a sweep that fails
 * only leaves old files behind.
 */
export function sweepDirectory(
  dir: string,
  now: number,
  maxAgeOf: (name: string) => number | null,
  maxEntries: number = 2_000,
): void {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names.slice(0, maxEntries)) {
    const maxAge = maxAgeOf(name);
    if (maxAge === null) continue;
    const file = path.join(dir, name);
    try {
      const info = fs.lstatSync(file);
      if (!info.isDirectory() && Math.abs(now - info.mtimeMs) > maxAge) fs.unlinkSync(file);
    } catch {
      // Gone already, or another process removed it.
    }
  }
}

/** What {@link readOwnFile} found. */
export type OwnFileRead =
  | { readonly kind: 'read'; readonly data: Buffer }
  /** `ENOENT` or `ENOTDIR`: no file yet. */
  | { readonly kind: 'absent' }
  /** Larger than `maxBytes`: not read, and not a fault of the reader (the next write replaces it). */
  | { readonly kind: 'too-large' }
  /** Why the file is not trusted: `is a symlink`, `is not a regular file`, or {@link unsafeEntry}'s. */
  | { readonly kind: 'refused'; readonly problem: string }
  /** Any other fault of the open or the read, by its code. */
  | { readonly kind: 'failed'; readonly code: string };

/** Options of {@link readOwnFile}. */
export interface ReadOwnFileOptions {
  /** A larger file is not read. */
  readonly maxBytes: number;
  /** Refuse a file of another user or writable by others (where modes mean something). */
  readonly checkOwner: boolean;
  /**
   * When set, a file last modified longer ago than this has its time set to now once read, so
   * that a sweep by age keeps a file in use that nothing rewrites. Default: never.
   */
  readonly keepAliveAfterMs?: number;
}

/**
 * Reads one of ctxfiles' own state files, whole, as the bytes of one open descriptor: without
 * following a final symlink (`O_NOFOLLOW`) or blocking on a FIFO planted at its name
 * (`O_NONBLOCK`), and only when that descriptor is a regular file, safe by {@link unsafeEntry} and
 * at most `maxBytes` long. Never throws.
 */
export function readOwnFile(file: string, options: ReadOwnFileOptions): OwnFileRead {
  let fd: number;
  try {
    fd = fs.openSync(
      file,
      fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0) | (fs.constants.O_NONBLOCK ?? 0),
    );
  } catch (error) {
    const found = code(error);
    if (found === 'ENOENT' || found === 'ENOTDIR') return { kind: 'absent' };
    // FreeBSD answers EMLINK where Linux and macOS answer ELOOP.
    if (found === 'ELOOP' || found === 'EMLINK') return { kind: 'refused', problem: 'is a symlink' };
    return { kind: 'failed', code: found };
  }
  try {
    const info = fs.fstatSync(fd);
    const problem = info.isFile() ? unsafeEntry(info, options.checkOwner) : 'is not a regular file';
    if (problem !== undefined) return { kind: 'refused', problem };
    if (info.size > options.maxBytes) return { kind: 'too-large' };
    const data = fs.readFileSync(fd);
    const { keepAliveAfterMs } = options;
    if (keepAliveAfterMs !== undefined) keepAlive(fd, info, keepAliveAfterMs);
    return { kind: 'read', data };
  } catch (error) {
    return { kind: 'failed', code: code(error) };
  } finally {
    fs.closeSync(fd);
  }
}

/** Sets the time of an open file older than `afterMs` to now; a failure only leaves it to the sweep. */
function keepAlive(fd: number, info: fs.Stats, afterMs: number): void {
  const now = Date.now();
  if (now - info.mtimeMs <= afterMs) return;
  try {
    fs.futimesSync(fd, now / 1000, now / 1000);
  } catch {
    // The sweep may delete the file once it is old enough; its owner then writes it again.
  }
}

/** Options of {@link replaceFile}. */
export interface ReplaceFileOptions {
  /**
   * The mode the file gets, set exactly (whatever the umask). Default: 0600 (ctxfiles' own state).
   * `'keep'`: the mode of the file it replaces, or 0666 less the umask for a new file (a file the
   * user owns and may commit, such as `init`'s settings).
   */
  readonly mode?: number | 'keep';
  /**
   * The temp file's name is made unique (this process, the time, a count) rather than unpredictable:
   * only for a directory no one else can write to, checked by {@link ensurePrivateDirectory}, where
   * nothing can be planted at a name however well it is guessed. Spares node:crypto, which costs a
   * run about half of Node's own start (the preset hint, src/cli/hint-cache.ts). Exclusive creation
   * still refuses a name that exists.
   */
  readonly privateDirectory?: boolean;
}

/** Temp files this process has named by {@link ReplaceFileOptions.privateDirectory}. */
let uniqueNames = 0;

/** Exclusive, write-only, never through a final symlink (where the platform has `O_NOFOLLOW`). */
const EXCLUSIVE =
  fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL | (fs.constants.O_NOFOLLOW ?? 0);

/** An unpredictable temp-file suffix: 64 random bits (node:crypto, loaded on the first write). */
function randomSuffix(): string {
  randomBytes ??= (require('node:crypto') as typeof import('node:crypto')).randomBytes;
  return randomBytes(8).toString('hex');
}

/**
 * Replaces `file` atomically: `data` goes into a new temp file beside it (`<file>.<pid>.<random>.tmp`,
 * 64 random bits, created with `O_CREAT|O_EXCL|O_NOFOLLOW`, so nothing planted at that name (a
 * symlink, a file) is ever opened), which is then renamed over `file`, so a reader sees the old
 * file or the new one, never a part of one; a symlink at `file` is replaced, never followed. Mode
 * 0600 unless `options.mode` says otherwise. Returns the error code when it could not (the temp
 * file, if it was created, is deleted), else undefined. Never throws. Sweeps delete the temp files
 * of a process that died meanwhile (names ending `.tmp`).
 */
export function replaceFile(
  file: string,
  data: string | Uint8Array,
  options: Readonly<ReplaceFileOptions> = {},
): string | undefined {
  const suffix =
    options.privateDirectory === true ? `${Date.now().toString(36)}-${(uniqueNames += 1)}` : randomSuffix();
  const temp = `${file}.${process.pid}.${suffix}.tmp`;
  let created = false;
  try {
    const mode = options.mode === 'keep' ? keptMode(file) : (options.mode ?? 0o600);
    const fd = fs.openSync(temp, EXCLUSIVE, mode ?? 0o666);
    created = true;
    try {
      if (mode !== undefined) fs.fchmodSync(fd, mode);
      fs.writeFileSync(fd, data);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(temp, file);
    return undefined;
  } catch (error) {
    // A temp file this call did not create (EEXIST) is another's: left alone.
    if (created)
      try {
        fs.unlinkSync(temp);
      } catch {
        // Gone already.
      }
    return code(error);
  }
}

/** The permission bits of the file at `file` (not following a link), or undefined when there is none. */
function keptMode(file: string): number | undefined {
  try {
    const info = fs.lstatSync(file);
    return info.isFile() ? info.mode & 0o777 : undefined;
  } catch {
    return undefined;
  }
}
