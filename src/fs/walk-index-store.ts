import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { errorCode as code } from './file-system.js';
import {
  ensurePrivateDirectory,
  sweepDirectory,
  unsafeEntry,
  unsafePrivateDirectory,
  userCacheDirectory,
  type UserCacheOptions,
} from './user-cache.js';

export { cacheDisabledByEnv } from './user-cache.js';

/** The directory of walk indexes (`walk-index` in the user's cache directory), or `null` when there is none. */
export function walkIndexDirectory(options: WalkIndexStoreOptions): string | null {
  return userCacheDirectory('walk-index', options);
}

/**
 * Where the walk index (`contextDiscovery.cache`, docs/disclosure.md "The walk index") is kept
 * between runs: one file per work dir in the user's cache directory. This is ctxfiles' own state,
 * not the user's files, so it is read and written here with node:fs rather than through the
 * `FileSystem` port. Every fault is returned as a sentence, never thrown: a cache that cannot be
 * used only costs the walk its speed.
 */

/** The largest index file read; a bigger one is treated as corrupt (about 30 times a 100,000-directory index). */
export const MAX_WALK_INDEX_BYTES = 64 * 1024 * 1024;

/** Index files not used for this long are deleted when another index is saved (30 days). */
export const WALK_INDEX_MAX_AGE_MS = 30 * 24 * 60 * 60 * 1000;

/** A loaded index whose file is older than this (a day) has its time set to now. */
const KEEP_ALIVE_AFTER_MS = 24 * 60 * 60 * 1000;

/** Temp files left by a process that died are deleted after this long (one hour). */
const TEMP_MAX_AGE_MS = 60 * 60 * 1000;

/** The sweep looks at no more entries than this per save. */
const MAX_SWEEP_ENTRIES = 2_000;

/** Where the cache lives: `walk-index` in the user's cache directory (src/fs/user-cache.ts). */
export type WalkIndexStoreOptions = UserCacheOptions;

/** The index file of one key, and how it is read and replaced. */
export interface WalkIndexStore {
  readonly file: string;
  /** The stored text (undefined when there is none), or why it was not read. */
  load(): { readonly text?: string; readonly problem?: string };
  /** Replaces the file atomically; returns why it could not, or undefined. */
  save(text: string): string | undefined;
}

/**
 * The store of the index for `key` (the work dir): a file named by the SHA-256 of the key, so no
 * key can name a path. Nothing on disk is touched until `load` or `save`.
 */
export function openWalkIndexStore(key: string, options: WalkIndexStoreOptions): WalkIndexStore {
  const found = walkIndexDirectory(options);
  if (found === null)
    return {
      file: '',
      load: () => ({}),
      save: () => 'there is no cache directory (no absolute XDG_CACHE_HOME or home directory)',
    };
  const dir = found;
  const file = path.join(dir, `${createHash('sha256').update(key).digest('hex')}.json`);
  const checkOwner = (options.platform ?? process.platform) !== 'win32';
  return {
    file,
    load: () => {
      const problem = unsafePrivateDirectory(dir, checkOwner);
      if (problem === null) return {}; // No cache dir yet.
      return problem === undefined ? readIndex(file, checkOwner) : { problem };
    },
    save: (text) => {
      if (text.length > MAX_WALK_INDEX_BYTES)
        return `the walk index would pass ${MAX_WALK_INDEX_BYTES} bytes; it is not saved`;
      const problem = ensurePrivateDirectory(dir, checkOwner);
      if (problem !== undefined) return problem;
      const failed = writeIndex(file, text);
      if (failed === undefined) sweep(dir, Date.now());
      return failed;
    },
  };
}

function readIndex(file: string, checkOwner: boolean): { text?: string; problem?: string } {
  let fd: number;
  try {
    fd = fs.openSync(
      file,
      fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0) | (fs.constants.O_NONBLOCK ?? 0),
    );
  } catch (error) {
    const found = code(error);
    if (found === 'ENOENT') return {};
    if (found === 'ELOOP' || found === 'EMLINK')
      return { problem: `the walk index ${file} is a symlink; it is not used` };
    return { problem: `the walk index ${file} cannot be read (${found})` };
  }
  try {
    const info = fs.fstatSync(fd);
    const problem = info.isFile() ? unsafeEntry(info, checkOwner) : 'is not a regular file';
    if (problem !== undefined) return { problem: `the walk index ${file} ${problem}; it is not used` };
    // Too large to be ours: ignored like a corrupt index, and replaced at the next save.
    if (info.size > MAX_WALK_INDEX_BYTES) return {};
    const text = fs.readFileSync(fd, 'utf8');
    // An index in use is kept from the sweep though a run that changes nothing never rewrites it.
    const now = Date.now();
    if (now - info.mtimeMs > KEEP_ALIVE_AFTER_MS) keepAlive(fd, now);
    return { text };
  } catch (error) {
    return { problem: `the walk index ${file} cannot be read (${code(error)})` };
  } finally {
    fs.closeSync(fd);
  }
}

function keepAlive(fd: number, now: number): void {
  try {
    fs.futimesSync(fd, now / 1000, now / 1000);
  } catch {
    // Only the sweep cares; it may delete this index in a month, and the walk rebuilds it.
  }
}

/**
 * Replaces the index atomically: a new temp file (mode 0600) in the same directory, then a rename,
 * so a reader sees the old index or the new one, never a part of one.
 */
function writeIndex(file: string, text: string): string | undefined {
  // Unique enough with the pid; `wx` refuses a name that exists anyway.
  const temp = `${file}.${process.pid}.${Math.random().toString(36).slice(2, 10)}.tmp`;
  try {
    fs.writeFileSync(temp, text, { flag: 'wx', mode: 0o600 });
    fs.renameSync(temp, file);
    return undefined;
  } catch (error) {
    try {
      fs.unlinkSync(temp);
    } catch {
      // Never created.
    }
    return `the walk index ${file} cannot be written (${code(error)})`;
  }
}

/** Deletes indexes of work dirs not walked for {@link WALK_INDEX_MAX_AGE_MS} and stale temp files. */
function sweep(dir: string, now: number): void {
  sweepDirectory(
    dir,
    now,
    (name) =>
      /^[0-9a-f]{64}\.json$/.test(name)
        ? WALK_INDEX_MAX_AGE_MS
        : name.endsWith('.tmp')
          ? TEMP_MAX_AGE_MS
          : null,
    MAX_SWEEP_ENTRIES,
  );
}
