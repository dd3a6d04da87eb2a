import path from 'node:path';
import { compileGlobMatcher } from '../config/glob-match.js';
import type { Diagnostic } from '../errors.js';
import { isInside, type SymlinkPolicy } from '../fs/contain.js';
import { errorCode, isAbsent, type DirEntry, type FileSystem } from '../fs/file-system.js';
import { identityOf, type Candidate } from './expand-entries.js';

/**
 * Where the matches of `instructions.globs` may come from (docs/security.md, "Trust tiers"): the
 * link policy, the containment root of a pattern a trusted layer set, and for each pattern a
 * project-tier layer set, the directory of the file that set it (real path).
 */
export interface GlobScope {
  /** `instructions.symlinks`: a matched link is followed, checked against its pattern's root, or refused. */
  readonly symlinks: SymlinkPolicy;
  /** The containment root of a relative pattern a trusted layer set: the chain's start, else the work dir. */
  readonly root: string;
  /**
   * Patterns a project-tier layer set (an untrusted project's config, a preset it names, a host's
   * project settings file), each with its file's directory: such a pattern matches only in that
   * directory and below it, and a link it matches must stay there.
   */
  readonly projectRoots?: Readonly<Record<string, string>>;
}

/** True for a pattern that names its own place (absolute or `~/`): the user's own files, as extra files. */
export function isOwnGlob(pattern: string): boolean {
  return pattern.startsWith('~/') || path.isAbsolute(pattern);
}

/** Most directory entries one `instructions.globs` pattern may visit in one directory. */
export const MAX_GLOB_VISITS = 10_000;

/** Directories a relative pattern never descends into (their files are not instructions). */
const PRUNED = new Set(['.git', 'node_modules']);

/**
 * The files of `instructions.globs` (docs/config.md), in pattern order, with source `glob`. A
 * relative pattern is matched below each of `dirs` (the work dir and its parents up to the chain's
 * start, closest first), as OpenCode matches its `instructions`; a pattern of `scope.projectRoots`
 * only in those at or below its root. Within one directory the matches are sorted by path. A
 * matched link follows `scope.symlinks` against its pattern's root (by default inside only). A
 * pattern that is absolute or starts with `~/` (trusted layers only) matches file names in its own
 * directory (only its last segment may be a glob), links followed, as for extra files. A refused or
 * faulty pattern is a `warn`. The caller dedupes.
 */
export function globCandidates(
  fs: FileSystem,
  patterns: readonly string[],
  dirs: readonly string[],
  homeDir: string,
  diagnostics: Diagnostic[],
  scope: GlobScope = { symlinks: 'inside', root: dirs[dirs.length - 1] ?? '/' },
): Candidate[] {
  const found: Candidate[] = [];
  for (const pattern of patterns) {
    const home = pattern.startsWith('~/') ? path.join(homeDir, pattern.slice(2)) : null;
    const absolute = home ?? (path.isAbsolute(pattern) ? pattern : null);
    const root = globRoot(pattern, scope);
    const places =
      absolute === null
        ? dirs.flatMap((dir) => (isInside(root, dir) ? (relativePlace(fs, dir, pattern) ?? []) : []))
        : [{ dir: path.dirname(absolute), glob: path.basename(absolute), deep: false }];
    const links: SymlinkPolicy = absolute === null ? scope.symlinks : 'follow';
    for (const { dir, glob, deep } of places) {
      const matcher = compileGlobMatcher(glob);
      if (!matcher.ok) {
        diagnostics.push(globWarning(pattern, `is refused: ${matcher.problem}`));
        break;
      }
      const files = matchBelow(
        fs,
        dir,
        (relative) => matcher.matcher.test(relative),
        deep,
        pattern,
        diagnostics,
      );
      for (const file of files.sort()) {
        const candidate = candidateOf(fs, file, pattern, { links, root }, diagnostics);
        if (candidate !== null) found.push(candidate);
      }
    }
  }
  return found;
}

/** The containment root of a pattern's matches: its project file's directory, else the scope's root. */
export function globRoot(pattern: string, scope: GlobScope): string {
  const own = scope.projectRoots?.[pattern];
  return typeof own === 'string' && Object.hasOwn(scope.projectRoots ?? {}, pattern) ? own : scope.root;
}

/**
 * Where a relative pattern is matched from `dir`: its leading folders without glob characters are
 * walked straight into (`.kilo/rules/*.md` lists `.kilo/rules` alone instead of walking the whole
 * tree), and a pattern whose rest is one segment lists that folder without descending. The files
 * found are those of the whole walk, which never descends into a link (it could lead out of the
 * project): `null`, nothing to match, when a leading folder is absent, a file or a link.
 */
function relativePlace(
  fs: FileSystem,
  dir: string,
  pattern: string,
): { dir: string; glob: string; deep: boolean } | null {
  const segments = pattern.split('/');
  let literal = 0;
  let at = dir;
  while (literal < segments.length - 1) {
    const segment = segments[literal] as string;
    if (!/^[^*?[\]{}!\\]+$/.test(segment) || segment === '.' || segment === '..' || PRUNED.has(segment))
      break;
    const next = path.join(at, segment);
    if (fs.probe(next)?.kind !== 'directory') return null;
    at = next;
    literal += 1;
  }
  const rest = segments.slice(literal);
  return { dir: at, glob: rest.join('/'), deep: rest.length > 1 || (rest[0] as string).includes('**') };
}

/** Regular files below `dir` (only in it unless `deep`) whose POSIX path relative to `dir` matches. */
function matchBelow(
  fs: FileSystem,
  dir: string,
  matches: (relative: string) => boolean,
  deep: boolean,
  pattern: string,
  diagnostics: Diagnostic[],
): string[] {
  const found: string[] = [];
  const pending = [dir];
  let visited = 0;
  while (pending.length > 0) {
    const current = pending.pop() as string;
    let entries: readonly DirEntry[];
    try {
      entries = fs.readdir(current);
    } catch (error) {
      if (!isAbsent(error) && errorCode(error) !== 'ENOTDIR')
        diagnostics.push(globWarning(pattern, `cannot list ${current} (${errorCode(error)})`));
      continue;
    }
    for (const entry of entries) {
      visited += 1;
      if (visited > MAX_GLOB_VISITS) {
        diagnostics.push(
          globWarning(pattern, `visits more than ${MAX_GLOB_VISITS} entries below ${dir}; narrow it`),
        );
        return found;
      }
      const full = path.join(current, entry.name);
      const relative = path.relative(dir, full).split(path.sep).join('/');
      if (entry.kind === 'directory') {
        if (deep && !PRUNED.has(entry.name)) pending.push(full);
      } else if ((entry.kind === 'file' || entry.kind === 'symlink') && matches(relative)) {
        found.push(full);
      }
    }
  }
  return found;
}

/**
 * A matched path as a candidate; `null` when it is not a regular file, or a link its policy refuses
 * (`reject`, or `inside` with a real path outside `root`: a `warn` naming both).
 */
function candidateOf(
  fs: FileSystem,
  file: string,
  pattern: string,
  check: { readonly links: SymlinkPolicy; readonly root: string },
  diagnostics: Diagnostic[],
): Candidate | null {
  try {
    const realPath = fs.realpath(file);
    if (realPath !== file && check.links !== 'follow') {
      const outside = check.links === 'reject' || !isInside(check.root, realPath);
      if (outside) {
        diagnostics.push(linkRefused(file, realPath, pattern, check));
        return null;
      }
    }
    const info = fs.stat(realPath);
    if (info.kind !== 'file') return null;
    const identity = identityOf(info);
    return {
      path: file,
      realPath,
      source: 'glob',
      layer: 'extra',
      entry: pattern,
      depth: null,
      identity,
      info,
    };
  } catch (error) {
    if (!isAbsent(error)) diagnostics.push(globWarning(pattern, `cannot read ${file} (${errorCode(error)})`));
    return null;
  }
}

function linkRefused(
  file: string,
  realPath: string,
  pattern: string,
  check: { readonly links: SymlinkPolicy; readonly root: string },
): Diagnostic {
  const why =
    check.links === 'reject'
      ? 'instructions.symlinks is "reject", so it is not read'
      : `outside ${check.root}; it is not followed`;
  return {
    level: 'warn',
    code: check.links === 'reject' ? 'symlink-rejected' : 'symlink-outside-workdir',
    message: `instructions.globs "${pattern}": ${file} is a symlink to ${realPath}, ${why}`,
    layer: 'extra',
    entry: pattern,
    path: file,
  };
}

function globWarning(pattern: string, problem: string): Diagnostic {
  return {
    level: 'warn',
    code: 'unreadable',
    message: `instructions.globs "${pattern}" ${problem}`,
    layer: 'extra',
    entry: pattern,
  };
}
