import { createRequire } from 'node:module';
import type { GlobDialect } from './rule-adapter.js';

// micromatch loads with the first rule that has globs.
const require = createRequire(import.meta.url);
let library: typeof import('micromatch') | undefined;
const micromatch = () => (library ??= require('micromatch') as typeof import('micromatch'));

/** One compiled glob of a rule. */
export interface CompiledGlob {
  /** The glob as written. */
  readonly pattern: string;
  /**
   * The literal directory the glob starts from, relative to the owner (`src/api` for
   * `src/api/**\/*.ts`); `''` when it can match anywhere. A path outside it cannot match.
   */
  readonly base: string;
  /** Tests a POSIX path relative to the rule's owner directory. */
  readonly test: (relativePath: string) => boolean;
}

/** The outcome of {@link compileRuleGlobs}. */
export type CompiledGlobs =
  | { readonly ok: true; readonly globs: readonly CompiledGlob[] }
  | { readonly ok: false; readonly problem: string };

/**
 * Compiles a rule's globs once, with the micromatch options of its vendor's dialect set here and
 * nowhere else: dot files always match (`dot: true`); `basename` for patterns without a slash where the
 * vendor matches names at any depth; `**\/` prepended where the vendor matches at any depth; `nocase`
 * where the vendor ignores case; a leading `!` only where the vendor negates a pattern. A leading `./`
 * is dropped. An empty glob, an absolute one (`/…`, `C:…`, `~…`), one that climbs out of the owner
 * (`..`), or a negation the vendor does not support refuses the whole rule.
 */
export function compileRuleGlobs(
  patterns: readonly string[],
  dialect: GlobDialect,
  source: string,
): CompiledGlobs {
  const globs: CompiledGlob[] = [];
  for (const pattern of patterns) {
    const negated = pattern.startsWith('!');
    let body = negated ? pattern.slice(1) : pattern;
    if (negated && !dialect.negation)
      return { ok: false, problem: `glob ${JSON.stringify(pattern)}: ${source} does not support negation` };
    while (body.startsWith('./')) body = body.slice(2);
    const refusal = refuse(body);
    if (refusal !== null) return { ok: false, problem: `glob ${JSON.stringify(pattern)}: ${refusal}` };
    if (dialect.anywhere && !body.startsWith('**/')) body = `**/${body}`;
    const options = {
      dot: true,
      basename: dialect.basename && !body.includes('/'),
      nocase: dialect.nocase,
      nonegate: !dialect.negation,
    };
    let test: (path: string) => boolean;
    let base: string;
    try {
      test = micromatch().matcher(negated ? `!${body}` : body, options);
      const scanned = micromatch().scan(body);
      base = negated || options.basename || dialect.nocase || !scanned.isGlob ? '' : scanned.base;
    } catch (error) {
      return { ok: false, problem: `glob ${JSON.stringify(pattern)} cannot be compiled (${String(error)})` };
    }
    globs.push({ pattern, base, test });
  }
  return { ok: true, globs };
}

function refuse(glob: string): string | null {
  if (glob.trim() === '') return 'the glob is empty';
  if (glob.startsWith('/') || glob.startsWith('\\') || /^[A-Za-z]:/.test(glob) || glob.startsWith('~'))
    return 'absolute globs are not allowed (globs are relative to the directory holding the rules folder)';
  if (glob.split('/').includes('..'))
    return 'a glob may not climb out of the directory holding the rules folder';
  return null;
}

// Globs compiled by discovery, kept beside the frozen rule so a rule set never compiles them again.
const compiledByRule = new WeakMap<object, readonly CompiledGlob[]>();

/** Remembers the compiled globs of a rule object. */
export function rememberCompiledGlobs(rule: object, globs: readonly CompiledGlob[]): void {
  compiledByRule.set(rule, globs);
}

/** The compiled globs remembered for a rule object, if any. */
export function recallCompiledGlobs(rule: object): readonly CompiledGlob[] | undefined {
  return compiledByRule.get(rule);
}
