import path from 'node:path';

/** A path of this platform with `/` separators (globs, rule names and display paths use them). */
export function toPosix(value: string): string {
  return path.sep === '/' ? value : value.split(path.sep).join('/');
}
