import { createRequire } from 'node:module';
import { compileGlobMatcher } from './glob-match.js';

// micromatch loads on first use: most commands never match a glob.
const require = createRequire(import.meta.url);
let library: typeof import('micromatch') | undefined;
const micromatch = () => (library ??= require('micromatch') as typeof import('micromatch'));

/**
 * Compiles a config glob (flow files) once, matched against POSIX relative paths: dot files match,
 * and a pattern without a slash matches basenames. A project config is repository input, so the
 * glob runs on the bounded matcher (src/config/glob-match.ts), never a backtracking expression.
 * @returns the matcher, or the reason the glob is refused.
 */
export function compileGlob(
  pattern: string,
): ((relativePath: string) => boolean) | { readonly problem: string } {
  const compiled = compileGlobMatcher(pattern);
  if (!compiled.ok) return { problem: compiled.problem };
  const { matcher } = compiled;
  if (pattern.includes('/')) return (relativePath) => matcher.test(relativePath);
  return (relativePath) => matcher.test(relativePath.slice(relativePath.lastIndexOf('/') + 1));
}

/** The literal directory a glob starts from (`flows` for `flows/**\/*.yaml`), and whether it is a glob. */
export function globBase(pattern: string): { base: string; isGlob: boolean } {
  const scanned = micromatch().scan(pattern);
  return { base: scanned.base, isGlob: scanned.isGlob };
}
