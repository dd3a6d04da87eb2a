import path from 'node:path';
import type { Diagnostic } from '../errors.js';
import { isInside, type SymlinkPolicy } from '../fs/contain.js';
import { errorCode, isAbsent, type FileInfo, type FileSystem } from '../fs/file-system.js';
import type { CandidateSelect } from './chain-candidates.js';
import { createDiagnostics } from '../diagnostics.js';
import { joinName } from '../shared/join-name.js';

/** What a chain walk needs. */
export interface ChainOptions {
  /** Canonical work dir. */
  readonly workDir: string;
  /** `root`: from the filesystem root; `project`: from the nearest ancestor holding a marker. */
  readonly walk: 'root' | 'project';
  readonly projectRootMarkers: readonly string[];
  /** File names or relative sub-paths tried in each directory, in priority order; `@rules` is a slot. */
  readonly candidates: readonly string[];
  /** `first` (default): one file per directory; `all`: every existing candidate, in order. */
  readonly select?: CandidateSelect;
  /**
   * `directory` (default): each directory tries every candidate; `walk`: the first candidate (in
   * candidate order) that exists in any directory of the chain is the only one tried anywhere.
   */
  readonly candidateScope?: 'directory' | 'walk';
  /**
   * Where a `project` walk starts when no marker is found: the work dir (default), `/`, or
   * `homeParent`: the parent of {@link homeDir} when that is the work dir or one of its ancestors,
   * else `/` (without `homeDir`: the work dir).
   */
  readonly projectRootFallback?: 'workDir' | 'root' | 'homeParent';
  /** Where a `project` walk starts when a marker is found: that directory (default) or its parent. */
  readonly walkFrom?: 'projectRoot' | 'projectRootParent';
  /** The home directory as the caller gives it (`$HOME`), for `projectRootFallback: homeParent`. */
  readonly homeDir?: string | undefined;
  /** Default `inside`: a symlinked candidate is followed when its real path stays below the start. */
  readonly symlinks?: SymlinkPolicy;
  /**
   * The highest directory the chain may start at (canonical). Set when an untrusted project config
   * chose the walk or its candidates: the chain then never climbs above that config's directory
   * (docs/security.md, "Trust tiers").
   */
  readonly ceiling?: string | undefined;
}

/** One instruction file of the chain. */
export interface ChainFile {
  readonly kind?: 'file';
  readonly path: string;
  /** Canonical path (differs from `path` when the candidate is reached through a symlink). */
  readonly realPath?: string;
  /** The directory it was found in. */
  readonly dir: string;
  /** The candidate name that matched. */
  readonly candidate: string;
  /** Directories between the chain's start and `dir` (0 = the start). */
  readonly depth: number;
  readonly info: FileInfo;
}

/**
 * The `@rules` candidate of one chain directory: the place where that directory's `always` rules
 * go. The walk does not look for rules; whoever builds the file list fills the slot (nothing when
 * rules are off).
 */
export interface ChainRulesSlot {
  readonly kind: 'rules';
  readonly dir: string;
  readonly depth: number;
}

/** The candidate that stands for a directory's `always` rules. */
export const RULES_CANDIDATE = '@rules';

/** The outcome of {@link walkChain}. */
export interface ChainResult {
  /** Where the chain starts: `/`, the project root or its parent, or the fallback when no marker was found. */
  readonly start: string;
  /** The files taken, ancestors first. */
  readonly files: readonly ChainFile[];
  /** The files and `@rules` slots in chain order: ancestors first, candidate order within one. */
  readonly items: readonly (ChainFile | ChainRulesSlot)[];
  readonly diagnostics: readonly Diagnostic[];
}

/**
 * The nearest ancestor of `workDir` (itself included) holding one of `markers`, or `null`.
 */
export function findProjectRoot(
  fs: FileSystem,
  workDir: string,
  markers: readonly string[],
  diagnostics: Diagnostic[],
): string | null {
  const ancestors = ancestorsOf(workDir);
  for (let index = ancestors.length - 1; index >= 0; index -= 1) {
    const dir = ancestors[index] as string;
    for (const marker of markers) {
      if (probe(fs, joinName(dir, marker), diagnostics) !== null) return dir;
    }
  }
  return null;
}

/**
 * Walks from the chain's start down to the work dir. In each directory the candidates that are
 * regular files are taken in candidate order: the first (`select: first`) or all of them
 * (`select: all`). With `first`, when the first candidate of the list wins (an override such as
 * `AGENTS.override.md`), every other candidate that exists there is reported as shadowed (`info`
 * `candidate-shadowed`); a later candidate winning is the ordinary fallback and is not. A candidate
 * reached through a symlink follows the symlink policy (`inside`: followed when its real path
 * stays below the chain's start; `reject`; `follow`); a refused link is a `warn` naming link and
 * target, and the next candidate is tried. A directory, FIFO or socket with a candidate's name is
 * ignored. `@rules` yields a slot. Files below the work dir are not part of the chain.
 */
export function walkChain(fs: FileSystem, options: ChainOptions): ChainResult {
  const diagnostics: Diagnostic[] = createDiagnostics();
  const ancestors = ancestorsOf(options.workDir);
  const start = belowCeiling(chainStart(fs, options, ancestors, diagnostics), options.ceiling);
  const select = options.select ?? 'first';
  const symlinks = options.symlinks ?? 'inside';
  const files: ChainFile[] = [];
  const items: (ChainFile | ChainRulesSlot)[] = [];
  const dirs = ancestors.slice(ancestors.indexOf(start));
  const candidates =
    options.candidateScope === 'walk' ? walkCandidate(fs, dirs, options.candidates) : options.candidates;
  const [override] = candidates;
  dirs.forEach((dir, depth) => {
    let chosen: ChainFile | undefined;
    for (const candidate of candidates) {
      // Once a later candidate won, the rest are not probed: probes are the cost of the walk.
      // When the first candidate (the override) wins, the rest are probed to report what it hides.
      if (select === 'first' && chosen !== undefined && chosen.candidate !== override) break;
      if (candidate === RULES_CANDIDATE) {
        if (select === 'all' || chosen === undefined) items.push({ kind: 'rules', dir, depth });
        continue;
      }
      const file = joinName(dir, candidate);
      const found = locate(fs, file, start, symlinks, candidate, diagnostics);
      if (found === null) continue;
      if (select === 'all' || chosen === undefined) {
        const taken: ChainFile = {
          path: file,
          realPath: found.realPath,
          dir,
          candidate,
          depth,
          info: found.info,
        };
        chosen ??= taken;
        files.push(taken);
        items.push(taken);
      } else {
        diagnostics.push({
          level: 'info',
          code: 'candidate-shadowed',
          message: `${chosen.candidate} shadows ${candidate} in ${dir}: only ${chosen.candidate} is used`,
          layer: 'chain',
          entry: candidate,
          path: file,
        });
      }
    }
  });
  return { start, files, items, diagnostics };
}

/**
 * The first directory of the chain before the ceiling: `/` for a `root` walk; for a `project` walk
 * the nearest ancestor holding a marker (or its parent, `walkFrom: projectRootParent`), else the
 * fallback (docs/chains.md, "The chain").
 */
function chainStart(
  fs: FileSystem,
  options: ChainOptions,
  ancestors: readonly string[],
  diagnostics: Diagnostic[],
): string {
  const top = ancestors[0] as string;
  if (options.walk === 'root') return top;
  const root = findProjectRoot(fs, options.workDir, options.projectRootMarkers, diagnostics);
  if (root !== null) return options.walkFrom === 'projectRootParent' ? path.dirname(root) : root;
  switch (options.projectRootFallback) {
    case 'root':
      return top;
    case 'homeParent': {
      if (options.homeDir === undefined) return options.workDir;
      const homeParent = path.dirname(options.homeDir);
      return ancestors.includes(homeParent) ? homeParent : top;
    }
    default:
      return options.workDir;
  }
}

/**
 * `candidateScope: walk`: the first candidate that names an existing entry in any of `dirs`, alone;
 * none found: no candidate. `@rules` slots stay. The probe asks only whether the name leads
 * somewhere (a directory counts, a dangling link does not), as a host that looks a name up with
 * `existsSync` before reading it does.
 */
function walkCandidate(fs: FileSystem, dirs: readonly string[], candidates: readonly string[]): string[] {
  const slots = candidates.filter((candidate) => candidate === RULES_CANDIDATE);
  for (const candidate of candidates) {
    if (candidate === RULES_CANDIDATE) continue;
    if (dirs.some((dir) => exists(fs, joinName(dir, candidate)))) return [...slots, candidate];
  }
  return slots;
}

function exists(fs: FileSystem, file: string): boolean {
  try {
    const info = fs.probe(file);
    if (info?.kind === 'symlink') fs.stat(file);
    return info !== null;
  } catch {
    return false;
  }
}

/** A candidate that exists as a regular file (after the symlink policy), or `null`. */
function locate(
  fs: FileSystem,
  file: string,
  start: string,
  symlinks: SymlinkPolicy,
  candidate: string,
  diagnostics: Diagnostic[],
): { realPath: string; info: FileInfo } | null {
  const info = probe(fs, file, diagnostics);
  if (info === null) return null;
  // A plain name in a canonical directory that is not a link is where it says; a sub-path may
  // cross a symlinked directory, so its real path is asked for.
  if (info.kind !== 'symlink' && !candidate.includes('/'))
    return info.kind === 'file' ? { realPath: file, info } : null;
  let realPath: string;
  let target: FileInfo;
  try {
    realPath = fs.realpath(file);
    target = fs.stat(realPath);
  } catch (error) {
    if (!isAbsent(error))
      diagnostics.push({
        level: 'warn',
        code: 'unreadable',
        message: `${file} cannot be resolved (${errorCode(error)})`,
        layer: 'chain',
        entry: candidate,
        path: file,
      });
    return null;
  }
  if (realPath !== file) {
    const refuse = (message: string) => {
      diagnostics.push({
        level: 'warn',
        code: 'symlink-rejected',
        message,
        layer: 'chain',
        entry: candidate,
        path: file,
      });
      return null;
    };
    if (symlinks === 'reject')
      return refuse(
        `${file} is a symlink to ${realPath}; instructions.symlinks is "reject", so it is not read`,
      );
    if (symlinks === 'inside' && (realPath === start || !isInside(start, realPath)))
      return refuse(`${file} is a symlink to ${realPath}, outside ${start}; it is not followed`);
  }
  return target.kind === 'file' ? { realPath, info: target } : null;
}

/**
 * `start`, or `ceiling` when `start` lies above it: a walk or project root chosen by an untrusted
 * project config stops at that config's directory (docs/security.md, "Trust tiers").
 */
export function belowCeiling(start: string, ceiling: string | undefined): string {
  if (ceiling === undefined || start === ceiling || !isInside(start, ceiling)) return start;
  return ceiling;
}

/** `/`, `/a`, `/a/b` for `/a/b`. */
export function ancestorsOf(dir: string): string[] {
  const list: string[] = [];
  for (let current = dir; ; current = path.dirname(current)) {
    list.push(current);
    if (path.dirname(current) === current) return list.reverse();
  }
}

function probe(fs: FileSystem, file: string, diagnostics: Diagnostic[]): FileInfo | null {
  try {
    return fs.probe(file);
  } catch (error) {
    diagnostics.push({
      level: 'warn',
      code: 'unreadable',
      message: `${file} cannot be checked (${errorCode(error)})`,
      path: file,
    });
    return null;
  }
}
