import type { FileSystem } from '../fs/file-system.js';
import {
  expandImports,
  identityKey,
  type ImportExpansion,
  type ImportingFile,
  type ImportOptions,
} from './expand-imports.js';

/** The outcome of {@link placeImports}, one slot per input file. */
export interface ImportPlacement {
  /**
   * For each input file, in order: its expansion, or `null` when an earlier file already imported
   * it (the caller drops that file: its first placement, as an import, wins).
   */
  readonly expansions: readonly (ImportExpansion | null)[];
  /** Identities ({@link identityKey}) of every file placed: the inputs kept and all their imports. */
  readonly placed: ReadonlySet<string>;
}

/**
 * Expands the imports of a resolution's ordered files (user file, chain, rules, layers, extra
 * files) so that each file appears once in the final list: the files are taken in order, each
 * one's imports go right after it, and a file that an earlier file already imported is not
 * expanded again (`null`), since it already stands where it was first imported. Options apply to
 * every file; `placed` seeds identities placed elsewhere. Never throws.
 */
export function placeImports(
  fs: FileSystem,
  files: readonly ImportingFile[],
  options: ImportOptions,
): ImportPlacement {
  const placed = new Set(options.placed);
  const expansions = files.map((file) => placeImport(fs, file, options, placed));
  return { expansions, placed };
}

/**
 * One step of {@link placeImports}, for a caller that gives each file its own options: `null` when
 * `placed` already holds the file, else its expansion, with it and its imports added to `placed`.
 */
export function placeImport(
  fs: FileSystem,
  file: ImportingFile,
  options: ImportOptions,
  placed: Set<string>,
): ImportExpansion | null {
  const key = identityKey(file.info);
  if (placed.has(key)) return null;
  const expansion = expandImports(fs, file, { ...options, placed });
  placed.add(key);
  for (const imported of expansion.files) placed.add(identityKey(imported.info));
  return expansion;
}
