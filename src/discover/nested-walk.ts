import type { Diagnostic } from '../errors.js';
import { hasControlCharacter, isInside, type SymlinkPolicy } from '../fs/contain.js';
import { errorCode, isAbsent, type DirEntry, type FileSystem } from '../fs/file-system.js';
import { compareCodeUnits } from './compare-code-units.js';
import { createDiagnostics } from '../diagnostics.js';

/**
 * Directory names the nested walk never enters, besides every name starting with a dot. They hold
 * dependencies, build output or caches, never a project's own instructions.
 */
export const PRUNED_DIRECTORIES: ReadonlySet<string> = new Set([
  'node_modules',
  'bower_components',
  'jspm_packages',
  'vendor',
  'dist',
  'build',
  'out',
  'target',
  '__pycache__',
  'coverage',
  'venv',
]);

/** Directories the walk may visit before it stops, whatever `maxFiles` says. */
export const MAX_WALK_DIRECTORIES = 100_000;

/** Limits of one walk. */
export interface WalkLimits {
  /** Deepest directory (1 = a direct child of the work dir) whose files are considered. */
  readonly maxDepth: number;
  /** The walk stops once this many files were found. */
  readonly maxFiles: number;
  /** The walk stops after visiting this many directories. Default {@link MAX_WALK_DIRECTORIES}. */
  readonly maxDirectories?: number;
}

/** A nested context file found by the walk. */
export interface NestedCandidate {
  /** Path relative to the work dir, with `/` separators. */
  readonly relativePath: string;
  /** Set when the file is a symlink the policy followed: its canonical path. */
  readonly realPath?: string;
  /** Directory that owns it, relative to the work dir. */
  readonly ownerDir: string;
}

/** The outcome of {@link walkNested}. */
export interface WalkResult {
  /** Found files, sorted by relative path (code units). */
  readonly files: readonly NestedCandidate[];
  /** True when `maxFiles` or the directory cap stopped the walk early. */
  readonly truncated: boolean;
  readonly diagnostics: readonly Diagnostic[];
  /**
   * Directories (relative to the work dir, code-unit order, the work dir itself excluded) holding an
   * entry named in `options.markers`; empty without markers.
   */
  readonly marked: readonly string[];
  /**
   * The entries (name and kind) each directory of `marked` holds, by its relative path: every entry
   * but the plain files whose name is no marker, ignoring case (the walk index keeps no others).
   * Empty without markers.
   */
  readonly markedBy: ReadonlyMap<string, readonly DirEntry[]>;
}

/**
 * Walks strictly below `workDir`, breadth first and iteratively, for regular files whose name is
 * in `basenames`. Dot entries and {@link PRUNED_DIRECTORIES} are skipped from the directory entry
 * alone (no stat per entry); symlinks are never followed, and a symlink with a wanted name is
 * rejected with a `warn`. Files directly in the work dir are not nested files. A directory that
 * vanishes mid-walk is skipped; any other listing fault is a `warn`. Within one depth, directories
 * are visited in code-unit order, so truncation is deterministic. A file `options.holds` names
 * is left out before the cap is counted.
 */
export function walkNested(
  fs: FileSystem,
  workDir: string,
  basenames: ReadonlySet<string>,
  limits: WalkLimits,
  options: WalkOptions = {},
): WalkResult {
  const diagnostics: Diagnostic[] = createDiagnostics();
  const files: NestedCandidate[] = [];
  const [marked, markedBy] = [[] as string[], new Map<string, readonly DirEntry[]>()];
  const { markers, visits } = options;
  const maxDirectories = limits.maxDirectories ?? MAX_WALK_DIRECTORIES;
  if (findsNothing(basenames, markers, limits))
    return { files, truncated: false, diagnostics, marked, markedBy };

  let level: string[] = [''];
  let truncated = false;
  let visited = 0;
  // With `visits`, what the walk says about files goes to the visits only (a later walk for those
  // files reports it); what it says about directories goes to both.
  const aboutFiles: Diagnostic[] = visits === undefined ? diagnostics : [];
  const wanted = screenOf(basenames);
  const listed: Listed = { files: NO_FILES, marked: NONE, fault: undefined };
  const screen = markers === undefined || markers.size === 0 ? undefined : screenOf(markers);
  const taken: Taken = { workDir, limits, options, files, marked, markedBy, diagnostics, aboutFiles };
  for (let depth = 0; level.length > 0 && !truncated; depth += 1) {
    const next: string[] = [];
    const walk = { fs, workDir, depth, basenames, wanted, limits, options, next, aboutFiles, screen };
    for (const relativeDir of level) {
      visited += 1;
      if (visited > maxDirectories) {
        truncated = true;
        diagnostics.push(walkTruncated(maxDirectories));
        break;
      }
      listDirectory(walk, relativeDir, listed);
      truncated = take(taken, relativeDir, listed);
      if (truncated) break;
    }
    // Default order: code units, the order of compareCodeUnits.
    next.sort();
    level = next;
  }
  files.sort((a, b) => compareCodeUnits(a.relativePath, b.relativePath));
  marked.sort(compareCodeUnits);
  return { files, truncated, diagnostics, marked, markedBy };
}

/** True when a walk can find nothing: no names and no markers to look for, or a zero limit. */
function findsNothing(
  basenames: ReadonlySet<string>,
  markers: ReadonlySet<string> | undefined,
  limits: WalkLimits,
): boolean {
  return (
    (basenames.size === 0 && (markers === undefined || markers.size === 0)) ||
    limits.maxDepth < 1 ||
    limits.maxFiles < 1
  );
}

/** The warning of a walk stopped by the directory cap. */
function walkTruncated(maxDirectories: number): Diagnostic {
  return {
    level: 'warn',
    code: 'walk-truncated',
    message: `the nested walk stopped after ${maxDirectories} directories`,
  };
}

/** What {@link walkNested} has found so far, and where it goes. */
interface Taken {
  readonly workDir: string;
  readonly limits: WalkLimits;
  readonly options: WalkOptions;
  readonly files: NestedCandidate[];
  readonly marked: string[];
  readonly markedBy: Map<string, readonly DirEntry[]>;
  readonly diagnostics: Diagnostic[];
  readonly aboutFiles: Diagnostic[];
}

/**
 * Takes one directory's listing into `taken`: its fault, its mark, its visit (with `visits`) and
 * its files, but those `holds` names, up to the file cap. True when the cap was reached.
 */
function take(taken: Taken, relativeDir: string, listed: Listed): boolean {
  const { files: found, fault } = listed;
  const { options, aboutFiles, files, limits } = taken;
  const { visits } = options;
  if (fault !== undefined) taken.diagnostics.push(fault);
  if (listed.marked !== NONE) {
    taken.marked.push(relativeDir);
    taken.markedBy.set(relativeDir, listed.marked);
  }
  if (found === NO_FILES && (visits === undefined || (fault === undefined && aboutFiles.length === 0)))
    return false;
  if (found.length > 1) found.sort((a, b) => compareCodeUnits(a.relativePath, b.relativePath));
  if (visits !== undefined)
    visits.push({
      relativeDir,
      files: found,
      diagnostics: fault === undefined ? aboutFiles.splice(0) : [fault],
    });
  for (const file of found) {
    if (options.holds?.(file.realPath ?? under(taken.workDir, file.relativePath)) === true) continue;
    if (files.length >= limits.maxFiles) return true;
    files.push({ ...file, ownerDir: relativeDir });
  }
  return false;
}

/** Optional behaviour of {@link walkNested}. */
export interface WalkOptions {
  /**
   * Skips a directory (not entered) or a file that this predicate says is ignored; paths are
   * relative to the work dir. `createGitignore` (src/discover/gitignore.ts) provides one. Default:
   * nothing is skipped.
   */
  readonly ignores?: (relativePath: string, isDirectory: boolean) => boolean;
  /**
   * Entry names (dot names included, e.g. `.cursor`) that mark the directory holding them; the walk
   * reports those directories in `marked` and still never enters dot directories. The rules engine
   * uses it to find rule folders below the work dir (src/rules/rule-adapters.ts, `ruleEntryNames`).
   */
  readonly markers?: ReadonlySet<string> | undefined;
  /**
   * A symlink with a wanted name: `reject` (the default here, as before) refuses it; `inside`
   * follows it when its real path stays inside the work dir; `follow` always. Each refusal is a
   * `warn` naming the link and, when known, its target. Symlinked directories are never entered.
   */
  readonly symlinks?: SymlinkPolicy;
  /**
   * Files the caller already holds (by real path): left out of `files` and not counted against
   * `maxFiles`, so files a directory entry inlines cannot spend the cap (issue #26, item 11).
   */
  readonly holds?: (realPath: string) => boolean;
  /**
   * Filled with each directory the walk lists that holds a wanted file or says something, in the
   * order the walk lists them: what a later walk for the same names needs to give its answer
   * without listing the tree again (`replayWalk`, src/discover/shared-listings.ts).
   */
  readonly visits?: VisitedDirectory[];
}

/** A wanted file of one directory, as its listing shows it. */
export interface FoundFile {
  /** Path relative to the work dir, with `/` separators. */
  readonly relativePath: string;
  /** Set when the file is a symlink the policy followed: its canonical path. */
  readonly realPath?: string;
}

/** One directory of a walk that found files or said something (see {@link WalkOptions.visits}). */
export interface VisitedDirectory {
  /** Relative to the work dir (`''` for the work dir). */
  readonly relativeDir: string;
  /** Its wanted files in code-unit order, before `holds` and the file cap. */
  readonly files: readonly FoundFile[];
  /** What listing it said (a listing fault, each symlink refused), in order. */
  readonly diagnostics: readonly Diagnostic[];
}

/** What one directory of a walk needs besides its own path. */
interface DirectoryWalk {
  readonly fs: FileSystem;
  readonly workDir: string;
  readonly depth: number;
  readonly basenames: ReadonlySet<string>;
  readonly limits: WalkLimits;
  readonly options: WalkOptions;
  /** The subdirectories to visit next. */
  readonly next: string[];
  /** Where a refused symlink is said. */
  readonly aboutFiles: Diagnostic[];
  /** {@link screenOf} the basenames. */
  readonly wanted: Uint32Array;
  /** {@link screenOf} the markers (none: `undefined`). */
  readonly screen: Uint32Array | undefined;
}

/**
 * A screen of `names` by first character and length, asked before the set ({@link mayHold}): a name
 * can be in the set only when the bit of its length is set in the entry of its first character (both
 * folded). Nearly every entry of a tree fails it at once, so most entries cost the set no look-up,
 * and their names are never hashed.
 */
function screenOf(names: ReadonlySet<string>): Uint32Array {
  const screen = new Uint32Array(128);
  for (const name of names) (screen[name.charCodeAt(0) & 127] as number) |= 1 << (name.length & 31);
  return screen;
}

/** False when `name` cannot be in the set `screen` was made of (see {@link screenOf}). */
function mayHold(screen: Uint32Array, name: string): boolean {
  return ((screen[name.charCodeAt(0) & 127] as number) & (1 << (name.length & 31))) !== 0;
}

const PRUNED_SCREEN = screenOf(PRUNED_DIRECTORIES);

/** What {@link listDirectory} found in one directory (one object for the whole walk). */
interface Listed {
  /** Its wanted files ({@link NO_FILES} when none). */
  files: FoundFile[];
  /** The entries {@link present} keeps when it holds a marker ({@link NONE} otherwise). */
  marked: readonly DirEntry[];
  /** Why it could not be listed (absent: nothing). */
  fault: Diagnostic | undefined;
}

const NO_FILES: FoundFile[] = [];

/**
 * One directory of the walk: adds its subdirectories to visit next (within `maxDepth`, not pruned)
 * to `walk.next`, and sets in `listed` its wanted files (never directly in the work dir) and, when it
 * holds a marker entry (never in the work dir), the names {@link present} keeps.
 * Absent is silent; any other listing fault is `listed.fault`, and a symlink with a wanted name is a
 * `warn` in `walk.aboutFiles`.
 */
function listDirectory(walk: DirectoryWalk, relativeDir: string, listed: Listed): void {
  const { fs, workDir, depth, basenames, options, next } = walk;
  const { ignores, markers } = options;
  let files = NO_FILES;
  let marked = false;
  listed.files = NO_FILES;
  listed.marked = NONE;
  listed.fault = undefined;
  const absoluteDir = relativeDir === '' ? workDir : under(workDir, relativeDir);
  let entries;
  try {
    entries = fs.readdir(absoluteDir);
  } catch (error) {
    if (!isAbsent(error))
      listed.fault = {
        level: 'warn',
        code: 'unreadable',
        message: `${absoluteDir} cannot be listed (${errorCode(error)})`,
        path: absoluteDir,
      };
    return;
  }
  const enter = depth + 1 <= walk.limits.maxDepth;
  const prefix = relativeDir === '' ? '' : `${relativeDir}/`;
  const screen = depth > 0 ? walk.screen : undefined;
  for (const entry of entries) {
    const name = entry.name;
    if (screen !== undefined && !marked && mayHold(screen, name) && markers?.has(name) === true)
      marked = true;
    if (name.charCodeAt(0) === 46 /* . */) continue;
    const kind = entry.kind;
    if (kind === 'directory') {
      if (!enter || (mayHold(PRUNED_SCREEN, name) && PRUNED_DIRECTORIES.has(name))) continue;
      if (hasControlCharacter(name)) continue;
      const child = prefix + name;
      if (ignores?.(child, true) !== true) next.push(child);
      continue;
    }
    if (depth === 0 || !mayHold(walk.wanted, name) || !basenames.has(name)) continue;
    const relativePath = prefix + name;
    if (ignores?.(relativePath, false) === true) continue;
    if (kind === 'symlink') {
      const followed = followLink(fs, workDir, relativePath, options.symlinks ?? 'reject', walk.aboutFiles);
      if (followed !== null)
        (files === NO_FILES ? (files = []) : files).push({ relativePath, realPath: followed });
      continue;
    }
    if (kind === 'file' && !hasControlCharacter(relativePath))
      (files === NO_FILES ? (files = []) : files).push({ relativePath });
  }
  listed.files = files;
  if (marked) listed.marked = present(entries, markers);
}

const NONE: readonly DirEntry[] = Object.freeze([]);

/**
 * The entries of a marked directory that every listing of it holds, through the walk index or not:
 * all but the plain files whose name is no marker, ignoring case (a case-insensitive volume finds a
 * marker's path under another case). Copies: the port may reuse its entry objects.
 */
function present(entries: readonly DirEntry[], markers: ReadonlySet<string> | undefined): DirEntry[] {
  const kept: DirEntry[] = [];
  for (const { name, kind } of entries)
    if (kind !== 'file' || (markers !== undefined && hasName(markers, name))) kept.push({ name, kind });
  // Kept for every marked directory of the tree: a copy without the room for 17 entries that
  // `push` left (src/discover/shared-listings.ts, `keepWalkable`).
  return kept.slice();
}

/** True when `names` holds `name`, or a name equal to it ignoring case. */
export function hasName(names: ReadonlySet<string>, name: string): boolean {
  if (names.has(name)) return true;
  let lower: string | undefined;
  for (const other of names)
    if (other.length === name.length && other.toLowerCase() === (lower ??= name.toLowerCase())) return true;
  return false;
}

/** The real path of a symlinked nested file the policy accepts, or `null` with a `warn`. */
function followLink(
  fs: FileSystem,
  workDir: string,
  relativePath: string,
  symlinks: SymlinkPolicy,
  diagnostics: Diagnostic[],
): string | null {
  const link = under(workDir, relativePath);
  const refuse = (why: string) => {
    diagnostics.push({
      level: 'warn',
      code: 'symlink-rejected',
      message: `${relativePath} is a symlink${why} and is not used as a nested context file`,
      path: link,
    });
    return null;
  };
  if (hasControlCharacter(relativePath)) return null;
  let realPath: string;
  try {
    realPath = fs.realpath(link);
  } catch (error) {
    return isAbsent(error)
      ? refuse(' to a missing file')
      : refuse(` that cannot be resolved (${errorCode(error)})`);
  }
  if (symlinks === 'reject') return refuse(` to ${realPath} (instructions.symlinks is "reject")`);
  if (symlinks === 'inside' && (realPath === workDir || !isInside(workDir, realPath)))
    return refuse(` to ${realPath}, outside ${workDir}`);
  try {
    if (fs.stat(realPath).kind !== 'file') return null;
  } catch {
    return null;
  }
  return realPath;
}

/** `relative` below `root`, without doubling the separator at the filesystem root. */
export function under(root: string, relative: string): string {
  return root.endsWith('/') ? root + relative : `${root}/${relative}`;
}
