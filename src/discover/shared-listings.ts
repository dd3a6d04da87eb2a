import type { Diagnostic } from '../errors.js';
import type { SymlinkPolicy } from '../fs/contain.js';
import type { DirEntry, FileSystem } from '../fs/file-system.js';
import { createDiagnostics } from '../diagnostics.js';
import { compareCodeUnits } from './compare-code-units.js';
import {
  MAX_WALK_DIRECTORIES,
  PRUNED_DIRECTORIES,
  under,
  walkNested,
  type NestedCandidate,
  type VisitedDirectory,
  type WalkLimits,
  type WalkOptions,
  type WalkResult,
} from './nested-walk.js';

/**
 * One walk of the tree for the two walks of a request (docs/performance.md, "One walk"): the search
 * for rule folders walks the tree and the nested walk that follows takes its answer from what that
 * walk saw. Both answers stay what the two walks give on their own (their own pruning, caps and
 * diagnostics).
 * - Without ignores (no `.gitignore` rules for the nested walk), the search looks for the nested
 *   file names too and keeps, for each directory that holds one (or says something about one), its
 *   files in the order it listed them: the nested walk then applies its held files and its file cap
 *   to them, and lists nothing.
 * - With ignores, the nested walk enters fewer directories than the search: the search keeps each
 *   listing it reads, reduced to what the nested walk can use, and the nested walk reads those
 *   listings instead of the disk.
 * A nested walk the first walk cannot answer (other names, another depth, no first walk in this
 * request) lists through its port as before.
 */
export interface SharedListings {
  /**
   * The search for rule folders below `workDir`: a walk for `markers` within `maxDepth` and no file
   * cap, listing through `listThrough` (given every name the two walks look for). Its answer is
   * that walk's (`files` aside, which the search does not use).
   */
  walkMarkers(
    listThrough: (names: Iterable<string>) => FileSystem,
    workDir: string,
    markers: ReadonlySet<string>,
    maxDepth: number,
  ): WalkResult;
  /**
   * The nested walk ({@link walkNested}'s arguments and answer): from the search's walk when it can
   * answer it, else listing through `fs` (the kept listings first, with ignores).
   */
  walkFiles(
    fs: FileSystem,
    workDir: string,
    basenames: ReadonlySet<string>,
    limits: WalkLimits,
    options?: WalkOptions,
  ): WalkResult;
}

/** How the nested walk that follows the search will walk. */
export interface NestedWalkPlan {
  /** Its symlink policy for files with a wanted name. */
  readonly symlinks: SymlinkPolicy;
  /** True when it skips ignored paths (`.gitignore`): then listings are kept instead. */
  readonly ignores: boolean;
}

/** What the search saw, for a nested walk of the same names, depth and links. */
interface Seen {
  readonly workDir: string;
  readonly maxDepth: number;
  readonly visits: readonly VisitedDirectory[];
  /** The search stopped at the directory cap. */
  readonly truncated: boolean;
}

/**
 * Shared listings for a nested walk that looks for `names` as `plan` says. Lives as long as one
 * request: nothing here sees a later change on disk. Kept listings form a tree below the first
 * directory listed (a directory entry is the node holding that directory's listing), so a large tree
 * costs its directory names and no path per directory.
 */
export function shareListings(names: Iterable<string>, plan: NestedWalkPlan): SharedListings {
  const wanted: ReadonlySet<string> = new Set(names);
  const kept = new Set(wanted);
  let seen: Seen | undefined;
  let top: { readonly dir: string; readonly node: DirNode } | undefined;
  return {
    walkMarkers(listThrough, workDir, markers, maxDepth) {
      for (const name of markers) kept.add(name);
      const limits = { maxDepth, maxFiles: Number.MAX_SAFE_INTEGER };
      if (plan.ignores) {
        top = undefined;
        return walkNested(keepListings(listThrough(kept)), workDir, new Set(), limits, { markers });
      }
      const visits: VisitedDirectory[] = [];
      const found = walkNested(listThrough(kept), workDir, wanted, limits, {
        markers,
        symlinks: plan.symlinks,
        visits,
      });
      seen = { workDir, maxDepth, visits, truncated: found.truncated };
      return { ...found, files: [] };
    },
    walkFiles(fs, workDir, basenames, limits, options = {}) {
      if (seen !== undefined && answers(seen, { wanted, plan }, { workDir, basenames, limits, options }))
        return replayWalk(seen, basenames, limits, options);
      if (top === undefined || ![...basenames].every((name) => kept.has(name)))
        return walkNested(fs, workDir, basenames, limits, options);
      const from = top;
      const replayed = decorate(fs, (dir) => nodeAt(from, dir)?.listing ?? fs.readdir(dir));
      return walkNested(replayed, workDir, basenames, limits, options);
    },
  };

  /** `fs` keeping each listing it reads (reduced to what the nested walk can use). */
  function keepListings(fs: FileSystem): FileSystem {
    return decorate(fs, (dir) => {
      const listing = fs.readdir(dir);
      top ??= { dir, node: { name: '', kind: 'directory' } };
      const node = nodeAt(top, dir);
      if (node !== undefined) node.listing = keepWalkable(listing, kept);
      return listing;
    });
  }
}

/**
 * True when the search's walk (for `wanted`, as `plan` says) saw what a nested walk with these
 * arguments would see.
 */
function answers(
  walked: Seen,
  searched: { readonly wanted: ReadonlySet<string>; readonly plan: NestedWalkPlan },
  request: {
    readonly workDir: string;
    readonly basenames: ReadonlySet<string>;
    readonly limits: WalkLimits;
    readonly options: WalkOptions;
  },
): boolean {
  const { wanted, plan } = searched;
  const { workDir, basenames, limits, options } = request;
  return (
    walked.workDir === workDir &&
    walked.maxDepth === limits.maxDepth &&
    (limits.maxDirectories ?? MAX_WALK_DIRECTORIES) === MAX_WALK_DIRECTORIES &&
    (options.symlinks ?? 'reject') === plan.symlinks &&
    options.ignores === undefined &&
    options.markers === undefined &&
    options.visits === undefined &&
    basenames.size === wanted.size &&
    [...basenames].every((name) => wanted.has(name))
  );
}

/**
 * The answer of {@link walkNested} for `basenames` within `limits` from what a walk for the same
 * names, depth and links saw (its visits, in its order, with no file cap): the files each visited
 * directory holds, held files left out, up to the file cap; what the walk said, up to where it
 * stopped.
 */
function replayWalk(
  seen: Seen,
  basenames: ReadonlySet<string>,
  limits: WalkLimits,
  options: WalkOptions,
): WalkResult {
  const diagnostics: Diagnostic[] = createDiagnostics();
  const files: NestedCandidate[] = [];
  const markedBy = new Map<string, readonly DirEntry[]>();
  if (basenames.size === 0 || limits.maxDepth < 1 || limits.maxFiles < 1)
    return { files, truncated: false, diagnostics, marked: [], markedBy };
  const { holds } = options;
  let truncated = false;
  for (const visit of seen.visits) {
    for (const said of visit.diagnostics) diagnostics.push(said);
    for (const file of visit.files) {
      if (holds?.(file.realPath ?? under(seen.workDir, file.relativePath)) === true) continue;
      if (files.length >= limits.maxFiles) {
        truncated = true;
        break;
      }
      files.push({ ...file, ownerDir: visit.relativeDir });
    }
    if (truncated) break;
  }
  if (!truncated && seen.truncated) {
    truncated = true;
    diagnostics.push({
      level: 'warn',
      code: 'walk-truncated',
      message: `the nested walk stopped after ${MAX_WALK_DIRECTORIES} directories`,
    });
  }
  files.sort((a, b) => compareCodeUnits(a.relativePath, b.relativePath));
  return { files, truncated, diagnostics, marked: [], markedBy };
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
