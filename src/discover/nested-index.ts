import type { Diagnostic } from '../errors.js';
import { decodeText } from '../fs/decode-text.js';
import type { FileSystem } from '../fs/file-system.js';
import type { Gitignore } from './gitignore.js';
import { labelOf } from './label.js';
import { under, walkNested, type WalkLimits, type WalkOptions } from './nested-walk.js';

/** Bytes read from a nested file to find its label. */
export const LABEL_READ_BYTES = 16_384;

/** A nested context file: where it is, which directory it governs, and its label. */
export interface NestedFile {
  /** Absolute path (the work dir is canonical and the walk follows no symlinks). */
  readonly path: string;
  /** Path relative to the work dir. */
  readonly relativePath: string;
  /** Set when `path` is a symlink the policy followed: the canonical path it was found at. */
  readonly realPath?: string;
  /** Absolute path of the directory it governs. */
  readonly ownerDir: string;
  /** Frontmatter `description` or first heading; empty when unreadable or absent. */
  readonly label: string;
}

/** Every nested file of one work dir for one set of basenames, indexed by owner directory. */
export interface NestedIndex {
  readonly files: readonly NestedFile[];
  readonly byOwner: ReadonlyMap<string, readonly NestedFile[]>;
  /** The `maxFiles` cap when the walk stopped early. */
  readonly truncatedAt: number | undefined;
  readonly diagnostics: readonly Diagnostic[];
}

/**
 * Walks for nested files and labels each one from its first {@link LABEL_READ_BYTES} bytes. A file
 * that cannot be read for its label keeps an empty label: the fault surfaces when it is injected.
 */
export function buildNestedIndex(
  fs: FileSystem,
  workDir: string,
  basenames: ReadonlySet<string>,
  limits: WalkLimits,
  options: Pick<WalkOptions, 'symlinks' | 'holds'> & {
    /** Skip what `.gitignore` files and `.git/info/exclude` ignore (docs/gitignore.md). */
    readonly gitignore?: Gitignore;
    /**
     * The walk, {@link walkNested} by default; a request whose search for rule folders walked the
     * tree already passes one that answers from it (src/discover/shared-listings.ts).
     */
    readonly walk?: typeof walkNested;
  } = {},
): NestedIndex {
  const { gitignore } = options;
  const walk = (options.walk ?? walkNested)(fs, workDir, basenames, limits, {
    ...(options.symlinks === undefined ? {} : { symlinks: options.symlinks }),
    ...(options.holds === undefined ? {} : { holds: options.holds }),
    ...(gitignore === undefined ? {} : { ignores: (file, dir) => gitignore.ignores(file, dir) }),
  });
  const files = walk.files.map((candidate): NestedFile => {
    const absolute = under(workDir, candidate.relativePath);
    return {
      path: absolute,
      relativePath: candidate.relativePath,
      ...(candidate.realPath === undefined ? {} : { realPath: candidate.realPath }),
      ownerDir: under(workDir, candidate.ownerDir),
      label: readLabel(fs, candidate.realPath ?? absolute),
    };
  });
  return {
    files,
    byOwner: groupByOwner(files),
    truncatedAt: walk.truncated ? limits.maxFiles : undefined,
    diagnostics: gitignore === undefined ? walk.diagnostics : [...walk.diagnostics, ...gitignore.diagnostics],
  };
}

/** Groups files by the directory they govern. */
export function groupByOwner(files: readonly NestedFile[]): ReadonlyMap<string, readonly NestedFile[]> {
  const byOwner = new Map<string, NestedFile[]>();
  for (const file of files) {
    const list = byOwner.get(file.ownerDir);
    if (list === undefined) byOwner.set(file.ownerDir, [file]);
    else list.push(file);
  }
  return byOwner;
}

function readLabel(fs: FileSystem, file: string): string {
  try {
    const decoded = decodeText(fs.readFile(file, { maxBytes: LABEL_READ_BYTES }).bytes);
    return decoded.ok ? labelOf(decoded.text) : '';
  } catch {
    return '';
  }
}
