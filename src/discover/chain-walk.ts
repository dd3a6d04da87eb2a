import path from 'node:path';
import type { Diagnostic } from '../errors.js';
import { errorCode, type FileInfo, type FileSystem } from '../fs/file-system.js';

/** What a chain walk needs. */
export interface ChainOptions {
  /** Canonical work dir. */
  readonly workDir: string;
  /** `root`: from the filesystem root; `project`: from the nearest ancestor holding a marker. */
  readonly walk: 'root' | 'project';
  readonly projectRootMarkers: readonly string[];
  /** File names tried in each directory, in priority order. */
  readonly candidates: readonly string[];
}

/** One instruction file of the chain. */
export interface ChainFile {
  readonly path: string;
  /** The directory it was found in. */
  readonly dir: string;
  /** The candidate name that matched. */
  readonly candidate: string;
  /** Directories between the chain's start and `dir` (0 = the start). */
  readonly depth: number;
  readonly info: FileInfo;
}

/** The outcome of {@link walkChain}. */
export interface ChainResult {
  /** Where the chain starts: `/`, the project root, or the work dir when no marker was found. */
  readonly start: string;
  /** One file per directory at most, ancestors first. */
  readonly files: readonly ChainFile[];
  readonly diagnostics: readonly Diagnostic[];
}

/**
 * Walks from the chain's start down to the work dir and takes, in each directory, the first
 * candidate that is a regular file. When that is the first candidate of the list (an override
 * such as `AGENTS.override.md`), every other candidate that exists there is reported as shadowed
 * (`info` `candidate-shadowed`); a later candidate winning is the ordinary fallback and is not. A candidate that is a symlink is rejected with a `warn`
 * (repository-owned links are not followed); a directory, FIFO or socket with a candidate's name
 * is ignored; either way the next candidate is tried. Files below the work dir are not part of
 * the chain.
 */
export function walkChain(fs: FileSystem, options: ChainOptions): ChainResult {
  const diagnostics: Diagnostic[] = [];
  const ancestors = ancestorsOf(options.workDir);
  let start = ancestors[0] as string;
  if (options.walk === 'project') {
    start = options.workDir;
    search: for (let index = ancestors.length - 1; index >= 0; index -= 1) {
      const dir = ancestors[index] as string;
      for (const marker of options.projectRootMarkers) {
        if (probe(fs, childOf(dir, marker), diagnostics) !== null) {
          start = dir;
          break search;
        }
      }
    }
  }
  const files: ChainFile[] = [];
  const dirs = ancestors.slice(ancestors.indexOf(start));
  const [override] = options.candidates;
  dirs.forEach((dir, depth) => {
    let chosen: ChainFile | undefined;
    for (const candidate of options.candidates) {
      // Once a later candidate won, the rest are not probed: probes are the cost of the walk.
      // When the first candidate (the override) wins, the rest are probed to report what it hides.
      if (chosen !== undefined && chosen.candidate !== override) break;
      const file = childOf(dir, candidate);
      const info = probe(fs, file, diagnostics);
      if (info === null) continue;
      if (info.kind === 'symlink') {
        diagnostics.push({
          level: 'warn',
          code: 'symlink-rejected',
          message: `${file} is a symlink; chain candidates are never followed through links`,
          layer: 'chain',
          entry: candidate,
          path: file,
        });
        continue;
      }
      if (info.kind !== 'file') continue;
      if (chosen === undefined) {
        chosen = { path: file, dir, candidate, depth, info };
        files.push(chosen);
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
  return { start, files, diagnostics };
}

/** `/`, `/a`, `/a/b` for `/a/b`. */
export function ancestorsOf(dir: string): string[] {
  const list: string[] = [];
  for (let current = dir; ; current = path.dirname(current)) {
    list.push(current);
    if (path.dirname(current) === current) return list.reverse();
  }
}

/** A plain name inside a canonical directory; cheaper than `path.join` on this hot path. */
function childOf(dir: string, name: string): string {
  return dir.endsWith(path.sep) ? dir + name : dir + path.sep + name;
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
