import type { DirEntry, FileInfo, FileSystem } from '../fs/file-system.js';
import { MAX_WALK_DIRECTORIES } from './nested-walk.js';
import { keepUsable } from './shared-listings.js';
import { decodeListing, encodeListing } from './walk-listing.js';

/**
 * The walk index (`contextDiscovery.cache`, docs/disclosure.md "The walk index"): a record of the
 * directory listings of earlier walks, so that a later walk lists a directory that did not change
 * by one `lstat` instead of a directory read. It is a decorator of the {@link FileSystem} port, so
 * the walks stay as they are, and its one law is that `readdir(dir)` gives what a fresh `readdir`
 * would for every entry a walk can use (test/walk-index-law.test.ts checks it on random changes).
 * This module is pure: it reads and writes the serialized index through its caller.
 */

/** Format version of a serialized index; an index of another version is ignored. */
export const WALK_INDEX_VERSION = 2;

/**
 * How much older than the start of a listing a directory's `mtimeMs` and `ctimeMs` must be for the
 * listing to be reused by a later walk. A change made in the same clock tick as the last recorded
 * change leaves the times as they were (git's "racy" problem); the margin covers coarse kernel clocks
 * (a file time can lag the wall clock by a tick) and filesystems that keep times to the second (HFS+,
 * ext3) or to two seconds (FAT). A listing younger than that is used for this walk only.
 */
export const RACY_MARGIN_MS = 2_000;

/** Most distinct file names an index keeps; past it the index starts over with a walk's own names. */
export const MAX_KEPT_NAMES = 256;

/** Options of {@link openWalkIndex}. */
export interface WalkIndexOptions {
  /** What the index belongs to (the canonical work dir); a serialized index with another key is ignored. */
  readonly key: string;
  /** Only directories at or below this absolute path are indexed; the index stores paths relative to it. */
  readonly root: string;
  /** The serialized index of an earlier run, if any. */
  readonly saved?: string;
  /** The current time in ms, on the clock that stamps file times (`Date.now` for a real disk). */
  now(): number;
  /** Most directories held. Default: the walk's own cap, {@link MAX_WALK_DIRECTORIES}. */
  readonly maxEntries?: number;
}

/** An opened walk index. */
export interface WalkIndex {
  /**
   * The decorated filesystem for a walk that looks for files named in `names` (basenames and
   * marker names): its `readdir` answers from the index for a directory whose device, inode,
   * `mtimeMs` and `ctimeMs` are those recorded, and lists every other one through the port. A
   * reused listing holds every entry that is not a regular file plus the regular files named in
   * `names` (or by an earlier walk); a fresh one is the port's whole listing. Every other method is
   * the underlying port's. A walk naming a file the index does not keep starts the index over.
   */
  fsFor(names: Iterable<string>): FileSystem;
  /**
   * The index to store: the directories listed or reused since it was opened, with the names it
   * keeps; `null` when it holds nothing new since it was loaded or last serialized.
   */
  serialize(): string | null;
  /** Listings reused (`hits`) and read (`misses`) since the index was opened. */
  readonly stats: { readonly hits: number; readonly misses: number };
  /** Why the loaded index was not used (corrupt, another version or key); undefined otherwise. */
  readonly rejected: string | undefined;
}

/**
 * One recorded directory as stored: `[path relative to the root, dev, ino, mtimeMs, ctimeMs, listing]`,
 * the listing encoded as one string (src/discover/walk-listing.ts). Loaded rows are the arrays
 * `JSON.parse` made, checked when first used: copying each into an object at load doubled the cost
 * of opening an index.
 */
type Row = [string, number, number, number, number, string];

/**
 * A directory the next save keeps: its listing, and its row as stored. A reused directory keeps the
 * row it was loaded with, written out again as it is; a directory listed afresh gets its encoded
 * listing at the first save after it (`undefined` until then).
 */
interface Kept {
  readonly row: [string, number, number, number, number, string | undefined];
  readonly listing: readonly DirEntry[];
}

interface State {
  readonly fs: FileSystem;
  readonly options: WalkIndexOptions;
  /** `root` with a trailing `/`: what every indexed path below it starts with. */
  readonly below: string;
  readonly maxEntries: number;
  names: Set<string>;
  /** The rows of the loaded index by path, each unchecked until first used; emptied when it starts over. */
  loaded: ReadonlyMap<string, unknown>;
  /** The directories listed or reused since the index was opened: what a save writes. */
  readonly kept: Map<string, Kept>;
  /** How many rows the index held when last loaded or serialized. */
  savedRows: number;
  /** True once a row was added, replaced or dropped since then (or the loaded index was rejected). */
  changed: boolean;
  hits: number;
  misses: number;
}

/**
 * Opens a walk index over `fs`, from `options.saved`. A corrupt, truncated, foreign or other-version
 * index is ignored (`rejected` says why) and replaced at the next `serialize`; a malformed directory
 * record is treated as no record.
 */
export function openWalkIndex(fs: FileSystem, options: WalkIndexOptions): WalkIndex {
  const loaded = parseIndex(options.saved, options);
  const state: State = {
    fs,
    options,
    below: options.root.endsWith('/') ? options.root : `${options.root}/`,
    maxEntries: options.maxEntries ?? MAX_WALK_DIRECTORIES,
    names: new Set(loaded.names),
    loaded: loaded.rows,
    kept: new Map(),
    savedRows: loaded.rows.size,
    changed: loaded.rejected !== undefined,
    hits: 0,
    misses: 0,
  };
  const decorated: FileSystem = {
    lstat: (path) => fs.lstat(path),
    probe: (path) => fs.probe(path),
    stat: (path) => fs.stat(path),
    realpath: (path) => fs.realpath(path),
    readFile: (path, readOptions) => fs.readFile(path, readOptions),
    readdir: (path) => readdirThrough(state, path),
  };
  return {
    fsFor(names) {
      const wanted = [...names];
      if (wanted.some((name) => !state.names.has(name))) {
        // Listings recorded for fewer names lack the files now wanted: start over with all of them.
        const union = new Set([...state.names, ...wanted]);
        state.names = union.size > MAX_KEPT_NAMES ? new Set(wanted) : union;
        state.loaded = new Map();
        state.kept.clear();
        state.changed = true;
      }
      return decorated;
    },
    serialize: () => serializeIndex(state),
    get stats() {
      return { hits: state.hits, misses: state.misses };
    },
    rejected: loaded.rejected,
  };
}

/** The decorated `readdir`: the recorded listing when the directory is unchanged, else a fresh one. */
function readdirThrough(state: State, dir: string): readonly DirEntry[] {
  const { fs, options, kept } = state;
  const relative =
    dir === options.root ? '' : dir.startsWith(state.below) ? dir.slice(state.below.length) : null;
  if (relative === null) return fs.readdir(dir);
  const started = options.now();
  let info: FileInfo;
  try {
    info = fs.lstat(dir);
  } catch {
    forget(state, relative);
    return fs.readdir(dir); // Fails as a plain listing would (or lists what appeared meanwhile).
  }
  const reused = info.kind === 'directory' ? recorded(state, relative, info) : undefined;
  if (reused !== undefined) {
    state.hits += 1;
    return reused;
  }
  state.misses += 1;
  let listing: readonly DirEntry[];
  try {
    listing = fs.readdir(dir);
  } catch (error) {
    forget(state, relative);
    throw error;
  }
  const { ctimeMs } = info;
  const settled =
    info.kind === 'directory' &&
    ctimeMs !== undefined &&
    Math.max(info.mtimeMs, ctimeMs) < started - RACY_MARGIN_MS;
  if (!settled || (!kept.has(relative) && kept.size >= state.maxEntries)) {
    forget(state, relative);
    return listing;
  }
  const row: Kept['row'] = [relative, info.dev, info.ino, info.mtimeMs, ctimeMs, undefined];
  kept.set(relative, { row, listing: keepUsable(listing, state.names) });
  state.changed = true;
  return listing;
}

/**
 * The recorded listing of a directory whose identity and times are `info`'s, or undefined. A loaded
 * row is decoded when first reused and kept from then on (a malformed one is no record).
 */
function recorded(state: State, relative: string, info: FileInfo): readonly DirEntry[] | undefined {
  const own = state.kept.get(relative);
  if (own !== undefined) return sameDirectory(own.row, info) ? own.listing : undefined;
  const row = state.loaded.get(relative);
  if (!isRow(row) || !sameDirectory(row, info)) return undefined;
  const listing = decodeListing(row[5]);
  if (listing === null) return undefined;
  if (state.kept.size < state.maxEntries) state.kept.set(relative, { row, listing });
  return listing;
}

function forget(state: State, relative: string): void {
  if (state.kept.delete(relative)) state.changed = true;
}

/** A well-formed loaded row (its listing is checked when decoded). */
function isRow(value: unknown): value is Row {
  return (
    Array.isArray(value) &&
    value.length === 6 &&
    typeof value[1] === 'number' &&
    typeof value[2] === 'number' &&
    typeof value[3] === 'number' &&
    typeof value[4] === 'number' &&
    typeof value[5] === 'string'
  );
}

function sameDirectory(row: Kept['row'], info: FileInfo): boolean {
  return row[1] === info.dev && row[2] === info.ino && row[3] === info.mtimeMs && row[4] === info.ctimeMs;
}

/**
 * The index as JSON: the directories kept since it was opened, a reused one as it was loaded (only a
 * listing read afresh is encoded); `null` when it holds the rows it held when last loaded or
 * serialized. Without a change, the rows kept are a part of the loaded ones until the first save and
 * include the saved ones after it, so the count tells.
 */
function serializeIndex(state: State): string | null {
  const { kept, options } = state;
  if (!state.changed && kept.size === state.savedRows) return null;
  state.changed = false;
  state.savedRows = kept.size;
  const dirs: Kept['row'][] = [];
  for (const { row, listing } of kept.values()) {
    row[5] ??= encodeListing(listing);
    dirs.push(row);
  }
  return JSON.stringify({ version: WALK_INDEX_VERSION, key: options.key, names: [...state.names], dirs });
}

interface Loaded {
  readonly names: readonly string[];
  readonly rows: Map<string, unknown>;
  readonly rejected: string | undefined;
}

/**
 * A serialized index: its version, key and names checked whole (a fault rejects it all), its rows
 * by path, each checked when first used. A row whose path no walk asks for is never used, and is
 * dropped at the next save.
 */
function parseIndex(text: string | undefined, options: WalkIndexOptions): Loaded {
  const empty = (rejected: string | undefined): Loaded => ({ names: [], rows: new Map(), rejected });
  if (text === undefined) return empty(undefined);
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return empty('it is not valid JSON');
  }
  if (typeof data !== 'object' || data === null) return empty('it is not an index');
  const { version, key, names, dirs } = data as Record<string, unknown>;
  if (version !== WALK_INDEX_VERSION) return empty(`it has version ${String(version)}`);
  if (key !== options.key) return empty('it belongs to another work dir');
  if (!Array.isArray(names) || names.length > MAX_KEPT_NAMES || !names.every((n) => typeof n === 'string'))
    return empty('its names are malformed');
  if (!Array.isArray(dirs) || dirs.length > (options.maxEntries ?? MAX_WALK_DIRECTORIES))
    return empty('its directories are malformed');
  const rows = new Map<string, unknown>();
  for (const row of dirs) {
    if (!Array.isArray(row) || typeof row[0] !== 'string') return empty('a directory record is malformed');
    rows.set(row[0], row);
  }
  return { names, rows, rejected: undefined };
}
