import path from 'node:path';
import { PRUNED_DIRECTORIES } from '../discover/nested-walk.js';
import type { FileSystem } from '../fs/file-system.js';

/**
 * Dot-directories doctor's walk never enters: version control, and the caches and environments
 * of tools (never a project's own instructions). Every other dot-directory is walked, as the hosts
 * do when they work there (`.github/workflows/AGENTS.md`).
 */
const SKIPPED_DOT_DIRECTORIES: ReadonlySet<string> = new Set([
  '.git',
  '.hg',
  '.svn',
  '.venv',
  '.tox',
  '.nox',
  '.cache',
  '.next',
  '.nuxt',
  '.turbo',
  '.yarn',
  '.pnpm-store',
  '.mypy_cache',
  '.pytest_cache',
  '.ruff_cache',
  '.gradle',
  '.idea',
]);

/** The most directory entries the walk looks at; past it, nothing the index does not hold is claimed. */
export const MAX_INDEX_ENTRIES = 300_000;

/** The most places below the work dir that doctor resolves every host at. */
export const MAX_PLACES = 64;

/** What one bounded walk of the repository found. */
export interface RepoIndex {
  /** Directories below the work dir (absolute, walk order) holding a marker: the places to check. */
  readonly places: readonly string[];
  /** Places found past {@link MAX_PLACES}, left out. */
  readonly placesLeftOut: number;
  /** False when the entry budget stopped the walk: a name it did not see may still exist. */
  readonly complete: boolean;
  /** True when a file or directory with this path relative to the root, or ending with `/name`, exists. */
  has(name: string): boolean;
}

/**
 * Walks the repository once from `root`, breadth first, skipping what the nested walk prunes and
 * {@link SKIPPED_DOT_DIRECTORIES} and the home directory (a test's HOME may sit inside), never
 * following links; records every entry's path by its last
 * segment, and the directories below `workDir` that hold one of `markers` (paths relative to the
 * place, like `AGENTS.md` or `.cursor/rules`).
 */
export function indexRepository(
  fs: FileSystem,
  root: string,
  workDir: string,
  markers: readonly string[],
  homeDir: string,
): RepoIndex {
  const byName = new Map<string, string[]>();
  const places = new Set<string>();
  const tails = markerTails(markers);
  let budget = MAX_INDEX_ENTRIES;
  const queue: string[] = [''];
  for (let next = 0; next < queue.length && budget > 0; next += 1) {
    const relative = queue[next] as string;
    const dir = relative === '' ? root : path.join(root, relative);
    let entries;
    try {
      entries = fs.readdir(dir);
    } catch {
      continue;
    }
    budget -= entries.length;
    for (const entry of entries) {
      const child = relative === '' ? entry.name : `${relative}/${entry.name}`;
      const list = byName.get(entry.name);
      if (list === undefined) byName.set(entry.name, [child]);
      else list.push(child);
      for (const tail of tails.get(entry.name) ?? []) {
        const place = placeOf(child, tail);
        if (place !== null) places.add(place);
      }
      if (entry.kind === 'directory' && walked(entry.name) && path.join(root, child) !== homeDir)
        queue.push(child);
    }
  }
  const below = [...places]
    .map((place) => (place === '' ? root : path.join(root, place)))
    .filter(
      (place) => place !== workDir && place.startsWith(workDir === path.sep ? workDir : workDir + path.sep),
    );
  return {
    places: below.slice(0, MAX_PLACES),
    placesLeftOut: Math.max(0, below.length - MAX_PLACES),
    complete: budget > 0,
    has(name) {
      const clean = name.replace(/^(\.\/)+/, '').replace(/\/+$/, '');
      const last = clean.split('/').pop() ?? '';
      return (byName.get(last) ?? []).some((entry) => entry === clean || entry.endsWith(`/${clean}`));
    },
  };
}

function walked(name: string): boolean {
  return !PRUNED_DIRECTORIES.has(name) && !SKIPPED_DOT_DIRECTORIES.has(name);
}

/** The markers by their last segment. */
function markerTails(markers: readonly string[]): Map<string, string[]> {
  const tails = new Map<string, string[]>();
  for (const marker of markers) {
    const last = marker.split('/').pop() as string;
    tails.set(last, [...(tails.get(last) ?? []), marker]);
  }
  return tails;
}

/** The directory (relative, `''` for the root) that `child` makes a place through `tail`, or null. */
function placeOf(child: string, tail: string): string | null {
  if (child === tail) return '';
  return child.endsWith(`/${tail}`) ? child.slice(0, child.length - tail.length - 1) : null;
}
