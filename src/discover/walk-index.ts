import type { DirEntry, FileInfo, FileKind, FileSystem } from '../fs/file-system.js';
import { MAX_WALK_DIRECTORIES, under } from './nested-walk.js';

/**
 * The walk index (`contextDiscovery.cache`, docs/disclosure.md "The walk index"): a record of the
 * directory listings of earlier walks, so that a later walk lists a directory that did not change
 * by one `lstat` instead of a directory read. It is a decorator of the {@link FileSystem} port, so
 * the walks stay as they are, and its one law is that `readdir(dir)` gives what a fresh `readdir`
 * would for every entry a walk can use (test/walk-index.test.ts proves it on random mutations).
 * This module is pure: it reads and writes the serialized index through its caller.
 */

/** Format version of a serialized index; an index of another version is ignored. */
export const WALK_INDEX_VERSION = 1;

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
  /** The serialized index of an earlier run, or undefined when there is none. */
  load(): string | undefined;
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
   * `mtimeMs` and `ctimeMs` are those recorded, and lists every other one; its listings hold every
   * entry that is not a regular file plus the regular files named in `names` (or in the names of
   * an earlier walk). Every other method is the underlying port's. A walk naming a file the index
   * does not keep starts the index over.
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

/** One recorded directory: its identity and times when it was listed, and the kept entries. */
interface Entry {
  readonly dev: number;
  readonly ino: number;
  readonly mtimeMs: number;
  readonly ctimeMs: number;
  /** Decoded on first reuse. */
  listing: readonly DirEntry[] | string;
}

interface State {
  readonly fs: FileSystem;
  readonly options: WalkIndexOptions;
  readonly maxEntries: number;
  names: Set<string>;
  /** By absolute path. */
  readonly entries: Map<string, Entry>;
  readonly visited: Set<string>;
  changed: boolean;
  hits: number;
  misses: number;
}

/**
 * Opens a walk index over `fs`, from what `options.load()` returns. A corrupt, truncated, foreign
 * or other-version index is ignored (`rejected` says why) and replaced at the next `serialize`.
 */
export function openWalkIndex(fs: FileSystem, options: WalkIndexOptions): WalkIndex {
  const loaded = parseIndex(options.load(), options);
  const state: State = {
    fs,
    options,
    maxEntries: options.maxEntries ?? MAX_WALK_DIRECTORIES,
    names: new Set(loaded.names),
    entries: loaded.entries,
    visited: new Set(),
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
        state.entries.clear();
        state.visited.clear();
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
  const { fs, options, entries } = state;
  if (!isBelow(options.root, dir)) return fs.readdir(dir);
  const started = options.now();
  let info: FileInfo;
  try {
    info = fs.lstat(dir);
  } catch {
    forget(state, dir);
    return fs.readdir(dir); // Fails as a plain listing would (or lists what appeared meanwhile).
  }
  const entry = entries.get(dir);
  if (entry !== undefined && info.kind === 'directory' && sameDirectory(entry, info)) {
    state.hits += 1;
    state.visited.add(dir);
    if (typeof entry.listing === 'string') entry.listing = decodeListing(entry.listing);
    return entry.listing;
  }
  state.misses += 1;
  let listing: readonly DirEntry[];
  try {
    listing = fs.readdir(dir);
  } catch (error) {
    forget(state, dir);
    throw error;
  }
  const { ctimeMs } = info;
  const settled =
    info.kind === 'directory' &&
    ctimeMs !== undefined &&
    Math.max(info.mtimeMs, ctimeMs) < started - RACY_MARGIN_MS;
  if (!settled || (entry === undefined && entries.size >= state.maxEntries)) {
    forget(state, dir);
    return listing;
  }
  const kept = listing
    .filter((item) => item.kind !== 'file' || state.names.has(item.name))
    .map((item) => Object.freeze({ name: item.name, kind: item.kind }));
  entries.set(dir, { dev: info.dev, ino: info.ino, mtimeMs: info.mtimeMs, ctimeMs, listing: kept });
  state.visited.add(dir);
  state.changed = true;
  return listing;
}

function forget(state: State, dir: string): void {
  if (state.entries.delete(dir)) state.changed = true;
  state.visited.delete(dir);
}

function sameDirectory(entry: Entry, info: FileInfo): boolean {
  return (
    entry.dev === info.dev &&
    entry.ino === info.ino &&
    entry.mtimeMs === info.mtimeMs &&
    entry.ctimeMs === info.ctimeMs
  );
}

function isBelow(root: string, dir: string): boolean {
  return dir === root || dir.startsWith(root.endsWith('/') ? root : `${root}/`);
}

/** The index as JSON: only directories visited since it was opened; `null` when nothing changed. */
function serializeIndex(state: State): string | null {
  const { entries, visited, options } = state;
  for (const dir of entries.keys())
    if (!visited.has(dir)) {
      entries.delete(dir);
      state.changed = true;
    }
  if (!state.changed) return null;
  state.changed = false;
  const prefix = options.root.endsWith('/') ? options.root.length : options.root.length + 1;
  const dirs = [...entries].map(([dir, entry]) => [
    dir === options.root ? '' : dir.slice(prefix),
    entry.dev,
    entry.ino,
    entry.mtimeMs,
    entry.ctimeMs,
    typeof entry.listing === 'string' ? entry.listing : encodeListing(entry.listing),
  ]);
  return JSON.stringify({ version: WALK_INDEX_VERSION, key: options.key, names: [...state.names], dirs });
}

const KIND_CODES: Readonly<Record<FileKind, string>> = {
  file: 'f',
  directory: 'd',
  symlink: 'l',
  fifo: 'p',
  socket: 's',
  device: 'b',
  other: 'o',
};
const KINDS: ReadonlyMap<string, FileKind> = new Map(
  Object.entries(KIND_CODES).map(([kind, code]) => [code, kind as FileKind]),
);

/** Entries as one string: a kind letter before each name, `/` between them (no name holds one). */
function encodeListing(listing: readonly DirEntry[]): string {
  return listing.map((item) => KIND_CODES[item.kind] + item.name).join('/');
}

function decodeListing(text: string): readonly DirEntry[] {
  if (text === '') return Object.freeze([]);
  return Object.freeze(
    text
      .split('/')
      .map((item) => Object.freeze({ name: item.slice(1), kind: KINDS.get(item[0] as string) as FileKind })),
  );
}

/** A valid encoded listing: each item a known kind letter and a name other than `.` and `..`. */
function validListing(text: string): boolean {
  if (text === '') return true;
  for (const item of text.split('/')) {
    const name = item.slice(1);
    if (!KINDS.has(item[0] ?? '') || name === '' || name === '.' || name === '..' || name.includes('\0'))
      return false;
  }
  return true;
}

interface Loaded {
  readonly names: readonly string[];
  readonly entries: Map<string, Entry>;
  readonly rejected: string | undefined;
}

/** A serialized index, checked whole: one bad part rejects it all (the walk then lists afresh). */
function parseIndex(text: string | undefined, options: WalkIndexOptions): Loaded {
  const empty = (rejected: string | undefined): Loaded => ({ names: [], entries: new Map(), rejected });
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
  const entries = new Map<string, Entry>();
  for (const row of dirs) {
    const entry = parseRow(row, options.root);
    if (entry === null) return empty('a directory record is malformed');
    entries.set(entry[0], entry[1]);
  }
  return { names, entries, rejected: undefined };
}

function parseRow(row: unknown, root: string): [string, Entry] | null {
  if (!Array.isArray(row) || row.length !== 6) return null;
  const [relative, dev, ino, mtimeMs, ctimeMs, listing] = row as unknown[];
  if (typeof relative !== 'string' || relative.startsWith('/') || relative.includes('\0')) return null;
  if (relative !== '' && relative.split('/').some((part) => part === '' || part === '.' || part === '..'))
    return null;
  const numbers = [dev, ino, mtimeMs, ctimeMs];
  if (!numbers.every((value) => typeof value === 'number' && Number.isFinite(value))) return null;
  if (typeof listing !== 'string' || !validListing(listing)) return null;
  return [
    relative === '' ? root : under(root, relative),
    {
      dev: dev as number,
      ino: ino as number,
      mtimeMs: mtimeMs as number,
      ctimeMs: ctimeMs as number,
      listing,
    },
  ];
}
