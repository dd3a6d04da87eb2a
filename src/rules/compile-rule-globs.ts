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
  /** Tests a POSIX path relative to the rule's owner directory (a method: call it on the glob). */
  test(relativePath: string): boolean;
  /**
   * The regular expression `test` uses, and whether it is tested against the path's last segment
   * only: for a caller that must test without loading micromatch (the hook's quick check).
   */
  regex(): { readonly source: string; readonly flags: string; readonly basename: boolean };
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
    globs.push(new RuleGlob(pattern, body, negated, dialect));
  }
  return { ok: true, globs };
}

/**
 * One checked glob. Everything past the checks is worked out on first use, once: a resolution that
 * puts no path in play never loads micromatch, and a path without the glob's literal text is refused
 * before compiling. One object per glob and no closures: discovery makes one for each glob of each
 * rule file, in a process that is usually cold.
 */
class RuleGlob implements CompiledGlob {
  readonly #body: string;
  readonly #negated: boolean;
  readonly #dialect: GlobDialect;
  /** Matched against the path's last segment only. */
  readonly #basename: boolean;
  #regex: RegExp | undefined;
  #pieces: readonly string[] | null | undefined;
  #base: string | undefined;

  constructor(
    readonly pattern: string,
    body: string,
    negated: boolean,
    dialect: GlobDialect,
  ) {
    this.#body = body;
    this.#negated = negated;
    this.#dialect = dialect;
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
    return this.#compiled().test(subject);
  }

  regex(): { readonly source: string; readonly flags: string; readonly basename: boolean } {
    const compiled = this.#compiled();
    return { source: compiled.source, flags: compiled.flags, basename: this.#basename };
  }

  #compiled(): RegExp {
    const { negation, nocase } = this.#dialect;
    this.#regex ??= makeRegex(this.#negated ? `!${this.#body}` : this.#body, {
      dot: true,
      nocase,
      nonegate: !negation,
    });
    return this.#regex;
  }
}

// picomatch refuses only absurd input (longer than 64 KiB, far over any rule file cap): such a glob
// matches nothing rather than throwing from a tool call.
function makeRegex(glob: string, options: object): RegExp {
  try {
    return micromatch().makeRe(glob, options);
  } catch {
    return /(?!)/;
  }
}

// What makes picomatch read a glob as more than literal text, `*`, `**`, `?` and `/`: classes, braces,
// extglobs, escapes, quotes, alternation (picomatch/lib/parse.js), and three stars in a row, after
// which picomatch 2.3 drops the next literal character (`***a.*` matches `a`).
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
