import path from 'node:path';

/**
 * `path.join(dir, name)` for a normalized `dir` and a directory entry's name (no separator, never
 * `.` or `..`): cheaper than `path.join` on the walks' hot paths, and no doubled separator at the
 * filesystem root.
 */
export function joinName(dir: string, name: string): string {
  return dir.endsWith(path.sep) ? dir + name : dir + path.sep + name;
}
