import { createRequire } from 'node:module';

// micromatch loads on first use: most commands never match a glob.
const require = createRequire(import.meta.url);
let library: typeof import('micromatch') | undefined;
const micromatch = () => (library ??= require('micromatch') as typeof import('micromatch'));

/**
 * The one place micromatch options are set, so every glob in ctxfiles matches the same way: dot files match,
 * and a pattern without a slash matches basenames. Patterns are compiled once and matched against POSIX
 * relative paths.
 */
export function compileGlob(pattern: string): (relativePath: string) => boolean {
  return micromatch().matcher(pattern, { dot: true, basename: !pattern.includes('/') });
}

/** The literal directory a glob starts from (`flows` for `flows/**\/*.yaml`), and whether it is a glob. */
export function globBase(pattern: string): { base: string; isGlob: boolean } {
  const scanned = micromatch().scan(pattern);
  return { base: scanned.base, isGlob: scanned.isGlob };
}
