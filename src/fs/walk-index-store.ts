import { createHash } from 'node:crypto';
import path from 'node:path';
import {
  ensurePrivateDirectory,
  readOwnFile,
  replaceFile,
  sweepDirectory,
  unsafePrivateDirectory,
  userCacheDirectory,
  type OwnFileRead,
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

/** Index files not used for this long are deleted when an index is first saved for another work dir (30 days). */
export const WALK_INDEX_MAX_AGE_MS = 30 * 24 * 60 * 60 * 1000;

/** A loaded index whose file is older than this (a day) has its time set to now. */
const KEEP_ALIVE_AFTER_MS = 24 * 60 * 60 * 1000;

/** Temp files left by a process that died are deleted after this long (one hour). */
const TEMP_MAX_AGE_MS = 60 * 60 * 1000;

/** Where the cache lives: `walk-index` in the user's cache directory (src/fs/user-cache.ts). */
export type WalkIndexStoreOptions = UserCacheOptions;

/** The index file of one key, and how it is read and replaced. */
export interface WalkIndexStore {
  readonly file: string;
  /** The stored text (undefined when there is none), or why it was not read. */
  load(): { readonly text?: string; readonly problem?: string };
  /**
   * Replaces the file atomically; returns why it could not, or undefined. The save that creates the
   * file (`load` found none) also deletes the indexes of other work dirs unused for 30 days.
   */
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
  // Whether the index file is there: a save that creates it is the only one that adds a file to the
  // directory, so only that one sweeps it (a save without a load first counts as creating it).
  let exists = false;
  return {
    file,
    load: () => {
      const problem = unsafePrivateDirectory(dir, checkOwner);
      if (problem === null) return {}; // No cache dir yet.
      if (problem !== undefined) return { problem };
      // An index in use is kept from the sweep though a run that changes nothing never rewrites it.
      const found = readOwnFile(file, {
        maxBytes: MAX_WALK_INDEX_BYTES,
        checkOwner,
        keepAliveAfterMs: KEEP_ALIVE_AFTER_MS,
      });
      exists = found.kind !== 'absent';
      return loaded(file, found);
    },
    save: (text) => {
      if (text.length > MAX_WALK_INDEX_BYTES)
        return `the walk index would pass ${MAX_WALK_INDEX_BYTES} bytes; it is not saved`;
      const problem = ensurePrivateDirectory(dir, checkOwner);
      if (problem !== undefined) return problem;
      const failed = replaceFile(file, text);
      if (failed !== undefined) return `the walk index ${file} cannot be written (${failed})`;
      if (!exists) sweep(dir, Date.now());
      exists = true;
      return undefined;
    },
  };
}

/** What `load` returns for what was read: an index past the size cap is none, like a corrupt one. */
function loaded(file: string, found: OwnFileRead): { text?: string; problem?: string } {
  switch (found.kind) {
    case 'read':
      return { text: found.data.toString('utf8') };
    case 'absent':
    case 'too-large':
      return {};
    case 'refused':
      return { problem: `the walk index ${file} ${found.problem}; it is not used` };
    case 'failed':
      return { problem: `the walk index ${file} cannot be read (${found.code})` };
  }
}

/** Deletes indexes of work dirs not walked for {@link WALK_INDEX_MAX_AGE_MS} and stale temp files. */
function sweep(dir: string, now: number): void {
  sweepDirectory(dir, now, (name) =>
    /^[0-9a-f]{64}\.json$/.test(name)
      ? WALK_INDEX_MAX_AGE_MS
      : name.endsWith('.tmp')
        ? TEMP_MAX_AGE_MS
        : null,
  );
}
