import type { DirEntry, FileSystem } from '../fs/file-system.js';
import { PRUNED_DIRECTORIES } from './nested-walk.js';

/**
 * One walk of the tree for the two walks of a request (docs/performance.md, "One walk"): the search
 * for rule folders lists each directory and keeps what the nested walk that follows it can use, and
 * the nested walk takes those listings instead of reading the directories again. Both walks stay as
 * they are (their own pruning, ignores, caps and diagnostics); only where a listing comes from
 * changes. A listing the nested walk needs and the first walk did not keep (a directory it did not
 * visit, or one whose listing failed) is read from the port as before.
 */
export interface SharedListings {
  /**
   * The port of the first walk, which looks for `names`: `listThrough` (given every name the two
   * walks look for) with each listing it reads kept, reduced to the entries the nested walk can use
   * (its walkable directories and the entries with a shared name).
   */
  record(listThrough: (names: Iterable<string>) => FileSystem, names: Iterable<string>): FileSystem;
  /**
   * The port of the nested walk (without markers) for `names`: a directory's kept listing when
   * there is one; every
   * other listing, and every other method, is `listThrough(names)`'s. With a name the first walk
   * did not keep, that port unchanged.
   */
  replay(listThrough: (names: Iterable<string>) => FileSystem, names: Iterable<string>): FileSystem;
}

/**
 * Shared listings for walks that look for `names` (and, for the first walk, its own names too).
 * Lives as long as one request: nothing here sees a later change on disk. The kept listings form a
 * tree below the first directory listed (a directory entry is the node holding that directory's
 * listing), so a large tree costs its directory names and no path per directory.
 */
export function shareListings(names: Iterable<string>): SharedListings {
  const kept = new Set(names);
  let top: { readonly dir: string; readonly node: DirNode } | undefined;
  return {
    record(listThrough, walkNames) {
      const before = kept.size;
      for (const name of walkNames) kept.add(name);
      // Listings kept for fewer names lack the files now wanted.
      if (kept.size !== before) top = undefined;
      const fs = listThrough(kept);
      return decorate(fs, (dir) => {
        const listing = fs.readdir(dir);
        top ??= { dir, node: { name: '', kind: 'directory' } };
        const node = nodeAt(top, dir);
        if (node !== undefined) node.listing = keepWalkable(listing, kept);
        return listing;
      });
    },
    replay(listThrough, walkNames) {
      const wanted = [...walkNames];
      const fs = listThrough(wanted);
      if (!wanted.every((name) => kept.has(name))) return fs;
      return decorate(fs, (dir) => {
        const node = top === undefined ? undefined : nodeAt(top, dir);
        return node?.listing ?? fs.readdir(dir);
      });
    },
  };
}

/** A kept directory entry: itself a {@link DirEntry}, and the holder of its directory's listing. */
interface DirNode extends DirEntry {
  /** The kept listing, once the first walk listed the directory. */
  listing?: readonly DirEntry[];
  /** The directory entries of a long listing by name, made on the first look-up. */
  byName?: Map<string, DirNode>;
}

/** Directory entries a listing holds past which a look-up goes through a map. */
const SCAN_LIMIT = 32;

/** The node of `dir` at or below the top directory; `undefined` when no listing led there. */
function nodeAt(top: { readonly dir: string; readonly node: DirNode }, dir: string): DirNode | undefined {
  if (dir === top.dir) return top.node;
  const below = top.dir.endsWith('/') ? top.dir : `${top.dir}/`;
  if (!dir.startsWith(below)) return undefined;
  let node: DirNode | undefined = top.node;
  for (const name of dir.slice(below.length).split('/')) {
    const listing: readonly DirEntry[] | undefined = node?.listing;
    if (node === undefined || listing === undefined) return undefined;
    node = childOf(node, listing, name);
  }
  return node;
}

function childOf(node: DirNode, listing: readonly DirEntry[], name: string): DirNode | undefined {
  if (listing.length <= SCAN_LIMIT) {
    for (const entry of listing) if (entry.name === name && entry.kind === 'directory') return entry;
    return undefined;
  }
  if (node.byName === undefined) {
    node.byName = new Map();
    for (const entry of listing) if (entry.kind === 'directory') node.byName.set(entry.name, entry);
  }
  return node.byName.get(name);
}

/** `fs` with its `readdir` replaced. */
function decorate(fs: FileSystem, readdir: (dir: string) => readonly DirEntry[]): FileSystem {
  return {
    lstat: (file) => fs.lstat(file),
    probe: (file) => fs.probe(file),
    stat: (file) => fs.stat(file),
    realpath: (file) => fs.realpath(file),
    readFile: (file, options) => fs.readFile(file, options),
    readdir,
  };
}

/**
 * The entries of a listing the nested walk can use (src/discover/nested-walk.ts, without markers):
 * the directories it may enter and the entries with a name in `names`; never a dot entry. A mutable
 * array, so that a directory entry can become the node of its own listing; the empty listing is
 * shared (most directories of a large tree hold neither).
 */
function keepWalkable(listing: readonly DirEntry[], names: ReadonlySet<string>): readonly DirEntry[] {
  let usable: DirNode[] | undefined;
  for (const { name, kind } of listing) {
    if (name.charCodeAt(0) === 46 /* . */) continue;
    if (kind === 'directory' ? PRUNED_DIRECTORIES.has(name) : !names.has(name)) continue;
    // A directory's node gets its listing later: a slot for it from the start, not a property
    // added to every directory entry of the tree.
    (usable ??= []).push(kind === 'directory' ? { name, kind, listing: undefined } : { name, kind });
  }
  // A copy that holds exactly its entries: an array grown by `push` keeps room for 17, and the
  // search keeps one listing per directory (10,000 directories: 1.4 MB of empty slots).
  return usable === undefined ? NONE : usable.slice();
}

/**
 * The entries of a listing a walk for `names` can use: all but the plain files whose name is not in
 * `names`, ignoring case (directories, symlinks and other kinds are kept whatever their name: a walk
 * enters, prunes or reports them by name; a file named in another case is what a case-insensitive
 * volume finds for that name, which the search for rule folders needs to know). Copied (the port's
 * own entry objects may be reused by it) into one frozen list; a loop, as this runs on every entry
 * of every directory listed.
 */
export function keepUsable(listing: readonly DirEntry[], names: ReadonlySet<string>): readonly DirEntry[] {
  const usable: DirEntry[] = [];
  let folded: ReadonlyMap<number, readonly string[]> | undefined;
  for (const item of listing) {
    const name = item.name;
    if (item.kind === 'file' && !names.has(name)) {
      folded ??= foldedNames(names);
      const sameLength = folded.get(name.length);
      if (sameLength === undefined || !sameLength.includes(name.toLowerCase())) continue;
    }
    usable.push({ name, kind: item.kind });
  }
  return Object.freeze(usable);
}

const FOLDED = new WeakMap<ReadonlySet<string>, ReadonlyMap<number, readonly string[]>>();

/** `names` in lower case by length, made once per set. */
function foldedNames(names: ReadonlySet<string>): ReadonlyMap<number, readonly string[]> {
  let folded = FOLDED.get(names);
  if (folded === undefined) {
    const byLength = new Map<number, string[]>();
    for (const name of names) {
      const list = byLength.get(name.length) ?? [];
      list.push(name.toLowerCase());
      byLength.set(name.length, list);
    }
    FOLDED.set(names, (folded = byLength));
  }
  return folded;
}

const NONE: readonly DirEntry[] = Object.freeze([]);
