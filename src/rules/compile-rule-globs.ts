import { compileGlobMatcher, type GlobMatcher } from '../config/glob-match.js';
import { MAX_RULE_GLOB_STATES, type CompileBudget } from './compile-budget.js';
import type { GlobDialect } from './rule-adapter.js';

/** One compiled glob of a rule. */
export interface CompiledGlob {
  /** The glob as written. */
  readonly pattern: string;
  /**
   * The literal directory the glob starts from, relative to the owner (`src/api` for
   * `src/api/**\/*.ts`); `''` when it can match anywhere. A path outside it cannot match.
   */
  readonly base: string;
  /** Tests a POSIX path relative to the rule's owner directory (a method: call it on the glob). */
  test(relativePath: string): boolean;
  /**
   * What `test` matches, for a caller that keeps it and compiles it again with
   * `compileGlobMatcher` (the hook's quick check, src/hooks/hook-state.ts): the pattern after the
   * dialect's changes, its case rule, whether only the path's last segment is tested, and whether
   * the result is negated.
   */
  spec(): GlobSpec;
}

/** See {@link CompiledGlob.spec}. */
export interface GlobSpec {
  readonly pattern: string;
  readonly nocase: boolean;
  readonly basename: boolean;
  readonly negated: boolean;
}

/** The outcome of {@link compileRuleGlobs}; `overBudget` when what is left of `budget` refused it. */
export type CompiledGlobs =
  | { readonly ok: true; readonly globs: readonly CompiledGlob[] }
  | { readonly ok: false; readonly problem: string; readonly overBudget?: true };

/**
 * Compiles a rule's globs once, with the options of its vendor's dialect set here and nowhere else:
 * dot files always match; `basename` for patterns without a slash where the vendor matches names at
 * any depth; `**\/` prepended where the vendor matches at any depth; `nocase` where the vendor
 * ignores case; a leading `!` only where the vendor negates a pattern. A leading `./` is dropped.
 * An empty glob, an absolute one (`/…`, `C:…`, `~…`), one that climbs out of the owner (`..`), a
 * negation the vendor does not support, or one the bounded matcher refuses (longer than 1,024
 * characters, more than {@link MAX_RULE_GLOB_STATES} states, a negated extglob `!(…)`:
 * src/config/glob-match.ts) refuses the whole rule. Globs come from repository files, so they are
 * matched in time bounded by their size times the path's length, never by a backtracking regular
 * expression (docs/security.md, "Bounds"). With `budget`, the states compiled are taken from it,
 * and a glob that needs more than is left refuses the rule before the rest of it is built.
 */
export function compileRuleGlobs(
  patterns: readonly string[],
  dialect: GlobDialect,
  source: string,
  budget?: CompileBudget,
): CompiledGlobs {
  const globs: CompiledGlob[] = [];
  let left = budget?.globStates ?? MAX_RULE_GLOB_STATES;
  for (const pattern of patterns) {
    const negated = pattern.startsWith('!');
    let body = negated ? pattern.slice(1) : pattern;
    if (negated && !dialect.negation)
      return { ok: false, problem: `glob ${JSON.stringify(pattern)}: ${source} does not support negation` };
    while (body.startsWith('./')) body = body.slice(2);
    const refusal = refuse(body);
    if (refusal !== null) return { ok: false, problem: `glob ${JSON.stringify(pattern)}: ${refusal}` };
    if (dialect.anywhere && !body.startsWith('**/')) body = `**/${body}`;
    const maxStates = Math.min(MAX_RULE_GLOB_STATES, left);
    const compiled = compileGlobMatcher(body, { nocase: dialect.nocase, maxStates });
    if (!compiled.ok) {
      const problem = `glob ${shown(pattern)}: ${compiled.problem}`;
      const spent = maxStates < MAX_RULE_GLOB_STATES && compiled.overStates === true;
      return spent
        ? { ok: false, problem: `${problem}: the budget of one resolution is spent`, overBudget: true }
        : { ok: false, problem };
    }
    left = budget === undefined ? left : left - compiled.matcher.size;
    globs.push(new RuleGlob(pattern, body, negated, dialect, compiled.matcher));
  }
  if (budget !== undefined) budget.globStates = Math.max(0, left);
  return { ok: true, globs };
}

/**
 * One checked and compiled glob. A path without the glob's literal text is refused before the
 * automaton runs. One object per glob and no closures: discovery makes one for each glob of each
 * rule file, in a process that is usually cold.
 */
class RuleGlob implements CompiledGlob {
  readonly #body: string;
  readonly #negated: boolean;
  readonly #dialect: GlobDialect;
  readonly #matcher: GlobMatcher;
  /** Matched against the path's last segment only. */
  readonly #basename: boolean;
  #pieces: readonly string[] | null | undefined;
  #base: string | undefined;

  constructor(
    readonly pattern: string,
    body: string,
    negated: boolean,
    dialect: GlobDialect,
    matcher: GlobMatcher,
  ) {
    this.#body = body;
    this.#negated = negated;
    this.#dialect = dialect;
    this.#matcher = matcher;
    this.#basename = dialect.basename && !body.includes('/');
  }

  get base(): string {
    this.#base ??= this.#negated || this.#basename || this.#dialect.nocase ? '' : literalBase(this.#body);
    return this.#base;
  }

  test(path: string): boolean {
    const subject = this.#basename ? path.slice(path.lastIndexOf('/') + 1) : path;
    this.#pieces ??= this.#negated || this.#dialect.nocase ? null : literalPieces(this.#body);
    if (this.#pieces !== null) for (const piece of this.#pieces) if (!subject.includes(piece)) return false;
    return this.#matcher.test(subject) !== this.#negated;
  }

  spec(): GlobSpec {
    return {
      pattern: this.#body,
      nocase: this.#dialect.nocase,
      basename: this.#basename,
      negated: this.#negated,
    };
  }
}

// What makes a glob more than literal text, `*`, `**`, `?` and `/`: classes, braces, extglobs,
// escapes, quotes, alternation.
const NOT_LITERAL = /[[\]{}()!+@\\"'|]|\*{3}/;

/**
 * The literal runs of a glob made of literal text, `*`, `?` and `/` only (`.gen7.ts` of `*.gen7.ts`;
 * `src`, `.ts` of `src/**\/*.ts`): every path it matches contains each of them. `null` for any other
 * glob. Runs stop at `/` too, since `a/**` also matches `a`.
 */
function literalPieces(glob: string): readonly string[] | null {
  if (NOT_LITERAL.test(glob)) return null;
  return glob.split(/[*?/]+/).filter((piece) => piece !== '');
}

/** The leading directories of a glob that hold no glob syntax (`src/api` for `src/api/**\/*.ts`). */
function literalBase(glob: string): string {
  if (!glob.includes('/')) return '';
  const segments = glob.split('/');
  const literal: string[] = [];
  for (const segment of segments.slice(0, -1)) {
    if (/[*?[\]{}()!+@\\]/.test(segment)) break;
    literal.push(segment);
  }
  return literal.join('/');
}

/** A glob in a message: its first 60 characters. */
function shown(pattern: string): string {
  return JSON.stringify(pattern.length > 60 ? `${pattern.slice(0, 59)}…` : pattern);
}

const CLIMBS = /(?:^|\/)\.\.(?:\/|$)/;

function refuse(glob: string): string | null {
  if (glob.trim() === '') return 'the glob is empty';
  if (glob.startsWith('/') || glob.startsWith('\\') || /^[A-Za-z]:/.test(glob) || glob.startsWith('~'))
    return 'absolute globs are not allowed (globs are relative to the directory holding the rules folder)';
  if (CLIMBS.test(glob)) return 'a glob may not climb out of the directory holding the rules folder';
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
