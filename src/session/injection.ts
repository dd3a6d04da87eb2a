import path from 'node:path';
import type { NestedFile, NestedIndex } from '../discover/nested-index.js';
import type { Diagnostic } from '../errors.js';
import { isInside } from '../fs/contain.js';
import type { FileSystem } from '../fs/file-system.js';
import { readInstruction } from '../fs/read-instruction.js';
import { notInjected, readWarnings, type ReadBody } from './read-faults.js';

/**
 * The nested files that own the touched directories and are not `done`, outermost first (with
 * `closestFirst`, the touched directory's first), each once. Walks up from each directory through the index's map of owner directories, so the cost
 * grows with the depth of the path, not with the number of nested files (docs/disclosure.md).
 */
export function dueNestedFiles(
  index: NestedIndex | null,
  workDir: string,
  dirs: readonly string[],
  done: ReadonlySet<string>,
  closestFirst = false,
): NestedFile[] {
  const found: NestedFile[] = [];
  if (index === null || index.files.length === 0) return found;
  for (const dir of dirs) {
    if (dir === workDir || !isInside(workDir, dir)) continue;
    const chain: NestedFile[] = [];
    for (
      let current = dir;
      current !== workDir && current.length > workDir.length;
      current = path.dirname(current)
    ) {
      const owned = index.byOwner.get(current);
      if (owned !== undefined) {
        if (closestFirst) chain.push(...owned);
        else chain.unshift(...owned);
      }
    }
    for (const file of chain) if (!done.has(file.relativePath) && !found.includes(file)) found.push(file);
  }
  return found;
}

/**
 * Reads a nested file to inject: the same path the walk found (a path that became a symlink is
 * refused), a bounded read, and warnings for invalid UTF-8 and hidden Unicode. `null` with a
 * warning when it cannot be injected. Never throws.
 */
export function readNested(
  fs: FileSystem,
  file: Pick<NestedFile, 'path' | 'relativePath' | 'realPath'>,
  maxBytes: number,
  diagnostics: Diagnostic[],
): ReadBody | null {
  try {
    // The path must still lead where the walk found it (itself, or the target of a link the
    // symlink policy followed); a path that became a link, or now leads elsewhere, is refused.
    if (fs.realpath(file.path) !== (file.realPath ?? file.path)) {
      diagnostics.push({
        level: 'warn',
        code: 'symlink-rejected',
        message: `${file.relativePath} is now reached through a symlink and is not injected`,
        path: file.path,
      });
      return null;
    }
  } catch (error) {
    diagnostics.push(notInjected(file, { error }, maxBytes));
    return null;
  }
  const read = readInstruction(fs, file.realPath ?? file.path, { maxBytes });
  if (!read.ok) {
    diagnostics.push(notInjected(file, read, maxBytes));
    return null;
  }
  diagnostics.push(...readWarnings(file, read));
  return read;
}
