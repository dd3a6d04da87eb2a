import path from 'node:path';
import { isInside } from '../fs/contain.js';
import { compileRuleGlobs, recallCompiledGlobs, type CompiledGlob } from './compile-rule-globs.js';
import { RULE_ADAPTERS } from './rule-adapters.js';
import { ruleRegexMatches } from './rule-regex.js';
import type { Rule, RuleMatch } from './rule.js';

/** Paths whose answer a rule set remembers before it starts over. */
export const RULE_PATH_CACHE_SIZE = 4_096;

/** Options of {@link createRuleSet}. */
export interface RuleSetOptions {
  /** Canonical absolute work dir: relative paths are resolved against it. */
  readonly workDir: string;
  /**
   * The text of a file in play (absolute path), for rules with content patterns (Continue `regex`);
   * `null` when it cannot be read. Called on each `rulesFor` for such rules only, so an edit counts.
   * Without it a rule with patterns never applies.
   */
  readonly contentOf?: (file: string) => string | null;
}

/** Rules grouped by kind, with a fast answer to "which rules apply to these paths". */
export interface RuleSet {
  /** Every rule, in discovery order. */
  readonly rules: readonly Rule[];
  /**
   * `always` rules owned by the work dir or a directory above it: the `rules` layer of the file list.
   */
  always(): readonly Rule[];
  /**
   * `always` rules owned by a directory below the work dir: listed like nested files and disclosed by
   * {@link RuleSet.rulesFor} on the first path inside their owner.
   */
  nested(): readonly Rule[];
  /** `requested` rules: the catalog (name, description, how to fetch). */
  catalog(): readonly Rule[];
  /**
   * Rules brought in by paths in play (absolute, or relative to the work dir): `glob` rules whose glob
   * matches a path inside their owner's subtree, and `always` rules of nested owners holding a path.
   * Each rule once, in discovery order, with the first path (in the order given) and glob that matched.
   * Answers are cached per path; call it per touched file.
   */
  rulesFor(paths: readonly string[] | string): readonly RuleMatch[];
  /**
   * True when a path's globs bring in a rule whose content patterns decide (Continue `regex`), not
   * yet shown (`shown` holds relative paths of rules shown): the answer for that path may change when
   * the file does, so a session must not remember "nothing due" for it.
   */
  awaitsContent(paths: readonly string[], shown?: ReadonlySet<string>): boolean;
  /**
   * Rules named `name` (their name below the vendor folder, or their path relative to the work dir),
   * whatever their kind; two rules with one name are both returned. A leading `./` is ignored. Empty
   * when none.
   */
  byName(name: string): readonly Rule[];
}

interface OwnerIndex {
  readonly ownerDir: string;
  /** `ownerDir` plus a separator: the prefix of every path inside it. */
  readonly prefix: string;
  readonly globRules: readonly GlobRule[];
  readonly nestedAlways: readonly { readonly rule: Rule }[];
}

/** A `glob` rule of an owner, its compiled globs and how they combine. */
interface GlobRule {
  readonly rule: Rule;
  readonly globs: readonly CompiledGlob[];
  /** Negated globs exclude (Continue) rather than match on their own (Cline). */
  readonly exclude: boolean;
  /** The rule has a glob that is not negated. */
  readonly positive: boolean;
}

/** What one path brings in: matches, and matches still subject to a content pattern. */
interface PathAnswer {
  readonly matches: readonly RuleMatch[];
  readonly pending: readonly RuleMatch[];
}

const EMPTY: readonly RuleMatch[] = Object.freeze([]);

/**
 * Indexes rules once: globs compiled (or taken as discovery compiled them), rules grouped by owner
 * directory, so a path only meets the rules of owners above it and, per directory, only the globs whose
 * literal base contains it. `rulesFor` caches its answer per path and the candidate globs per
 * directory; the rule set holds no other state.
 */
export function createRuleSet(rules: readonly Rule[], options: Readonly<RuleSetOptions>): RuleSet {
  const workDir = options.workDir;
  const frozen = Object.freeze([...rules]);
  const { always, nested, catalog, ownerIndex } = groupRules(frozen, workDir);
  const planFor = createPlanner(ownerIndex);
  // Built on first use: a plain resolution asks neither for an order nor for a name.
  let orderOf: Map<Rule, number> | undefined;
  const byOrder = (a: RuleMatch, b: RuleMatch) => {
    orderOf ??= new Map<Rule, number>(frozen.map((rule, order) => [rule, order]));
    return (orderOf.get(a.rule) as number) - (orderOf.get(b.rule) as number);
  };
  let names: Map<string, Rule[]> | undefined;
  const { entryFor, answerFor } = createAnswers(workDir, planFor, byOrder, options.contentOf);

  const frozenAlways = Object.freeze(always);
  const frozenNested = Object.freeze(nested);
  const frozenCatalog = Object.freeze(catalog);
  return Object.freeze({
    rules: frozen,
    always: () => frozenAlways,
    nested: () => frozenNested,
    catalog: () => frozenCatalog,
    byName(name: string) {
      names ??= rulesByName(frozen);
      return Object.freeze([...(names.get(name.replace(/^(?:\.\/)+/, '')) ?? [])]);
    },
    awaitsContent(paths: readonly string[], shown: ReadonlySet<string> = new Set()): boolean {
      return paths.some((given) =>
        entryFor(given).pending.some((match) => !shown.has(match.rule.relativePath)),
      );
    },
    rulesFor(paths: readonly string[] | string): readonly RuleMatch[] {
      if (typeof paths === 'string') return answerFor(paths);
      if (paths.length === 1) return answerFor(paths[0] as string);
      const byRule = new Map<Rule, RuleMatch>();
      for (const given of paths)
        for (const match of answerFor(given)) if (!byRule.has(match.rule)) byRule.set(match.rule, match);
      if (byRule.size === 0) return EMPTY;
      return Object.freeze([...byRule.values()].sort(byOrder));
    },
  });
}

/**
 * The per-path answers of a rule set: `entryFor` caches what a path's globs bring in (matches, and
 * matches still subject to content patterns); `answerFor` adds, on each call, those whose patterns
 * the file's current text matches.
 */
function createAnswers(
  workDir: string,
  planFor: (dir: string) => Plan,
  byOrder: (a: RuleMatch, b: RuleMatch) => number,
  contentOf: RuleSetOptions['contentOf'],
) {
  const answers = new Map<string, PathAnswer>();
  const entryFor = (given: string): PathAnswer => {
    let cached = answers.get(given);
    if (cached === undefined) {
      const found = matchPath(given, workDir, planFor);
      const matches = Object.freeze(found.filter((match) => match.rule.regex.length === 0).sort(byOrder));
      const pending = Object.freeze(found.filter((match) => match.rule.regex.length > 0));
      cached = { matches, pending };
      if (answers.size >= RULE_PATH_CACHE_SIZE) answers.clear();
      answers.set(given, cached);
    }
    return cached;
  };
  const answerFor = (given: string): readonly RuleMatch[] => {
    const cached = entryFor(given);
    if (cached.pending.length === 0) return cached.matches;
    // Content patterns are tested on each call: the file's text may have changed since.
    const text = contentOf?.(path.resolve(workDir, given)) ?? null;
    const kept = text === null ? [] : cached.pending.flatMap((match) => withContent(match, text));
    return kept.length === 0 ? cached.matches : Object.freeze([...cached.matches, ...kept].sort(byOrder));
  };
  return { entryFor, answerFor };
}

/** Rules by name below their vendor folder and by relative path. */
function rulesByName(rules: readonly Rule[]): Map<string, Rule[]> {
  const names = new Map<string, Rule[]>();
  for (const rule of rules)
    for (const key of new Set([rule.name, rule.relativePath])) {
      const list = names.get(key) ?? [];
      list.push(rule);
      names.set(key, list);
    }
  return names;
}

/** Rules grouped by kind and (glob and nested `always` rules) by owner directory. */
function groupRules(rules: readonly Rule[], workDir: string) {
  const owners = new Map<
    string,
    {
      ownerDir: string;
      globRules: OwnerIndex['globRules'][number][];
      nestedAlways: OwnerIndex['nestedAlways'][number][];
    }
  >();
  const always: Rule[] = [];
  const nested: Rule[] = [];
  const catalog: Rule[] = [];
  for (const rule of rules) {
    const owner = owners.get(rule.ownerDir) ?? { ownerDir: rule.ownerDir, globRules: [], nestedAlways: [] };
    owners.set(rule.ownerDir, owner);
    if (rule.kind === 'requested') catalog.push(rule);
    else if (rule.kind === 'always') {
      if (rule.ownerDir !== workDir && isInside(workDir, rule.ownerDir)) {
        nested.push(rule);
        owner.nestedAlways.push({ rule });
      } else always.push(rule);
    } else if (rule.kind === 'glob') owner.globRules.push(globRuleOf(rule));
  }
  const ownerIndex = new Map<string, OwnerIndex>();
  for (const owner of owners.values())
    if (owner.globRules.length > 0 || owner.nestedAlways.length > 0)
      ownerIndex.set(owner.ownerDir, {
        ...owner,
        prefix: owner.ownerDir.endsWith(path.sep) ? owner.ownerDir : owner.ownerDir + path.sep,
      });
  return { always, nested, catalog, ownerIndex };
}

/** Per directory: the owners holding it and, per owner, the glob rules whose base can contain it. */
type Plan = readonly {
  readonly owner: OwnerIndex;
  readonly relativeDir: string;
  readonly candidates: OwnerIndex['globRules'];
}[];

/** The plan of a directory, cached per directory. */
function createPlanner(ownerIndex: ReadonlyMap<string, OwnerIndex>): (dir: string) => Plan {
  const plans = new Map<string, Plan>();
  return (dir) => {
    let plan = plans.get(dir);
    if (plan !== undefined) return plan;
    const found: { owner: OwnerIndex; relativeDir: string; candidates: OwnerIndex['globRules'] }[] = [];
    for (let current = dir; ;) {
      const owner = ownerIndex.get(current);
      if (owner !== undefined) {
        const relativeDir = dir === current ? '' : dir.slice(owner.prefix.length).split(path.sep).join('/');
        // A rule without globs (content patterns only) stays a candidate everywhere in its owner.
        const candidates = owner.globRules
          .map((entry) => ({ ...entry, globs: entry.globs.filter((glob) => within(relativeDir, glob.base)) }))
          .filter((entry) => entry.globs.length > 0 || entry.rule.globs.length === 0);
        found.push({ owner, relativeDir, candidates });
      }
      const parent = path.dirname(current);
      if (parent === current) break;
      current = parent;
    }
    plan = found;
    if (plans.size >= RULE_PATH_CACHE_SIZE) plans.clear();
    plans.set(dir, plan);
    return plan;
  };
}

/** The rules one path brings in, unsorted: none for an empty path or one holding a NUL. */
function matchPath(given: string, workDir: string, planFor: (dir: string) => Plan): RuleMatch[] {
  const answer: RuleMatch[] = [];
  if (given.includes('\0') || given === '') return answer;
  const absolute = path.resolve(workDir, given);
  const base = path.basename(absolute);
  for (const { owner, relativeDir, candidates } of planFor(path.dirname(absolute))) {
    const relative = relativeDir === '' ? base : `${relativeDir}/${base}`;
    for (const { rule } of owner.nestedAlways) answer.push(Object.freeze({ rule, path: given, glob: null }));
    for (const entry of candidates) {
      const glob = matchingGlob(entry, relative);
      if (glob !== undefined) answer.push(Object.freeze({ rule: entry.rule, path: given, glob }));
    }
  }
  return answer;
}

/**
 * The glob of `entry` that brings in `relative` (as written; `null` for a rule without globs), or
 * `undefined` when none does. With `exclude`, a negated glob (which tests true for paths it does not
 * name) must hold for the path too, and stands for the match when the rule has no plain glob.
 */
function matchingGlob(entry: GlobRule, relative: string): string | null | undefined {
  if (entry.rule.globs.length === 0) return null;
  if (!entry.exclude) return entry.globs.find((glob) => glob.test(relative))?.pattern;
  const negated = entry.globs.filter((glob) => glob.pattern.startsWith('!'));
  if (!negated.every((glob) => glob.test(relative))) return undefined;
  if (!entry.positive) return negated[0]?.pattern;
  return entry.globs.find((glob) => !glob.pattern.startsWith('!') && glob.test(relative))?.pattern;
}

/** The match of a rule with content patterns, kept when `text` matches one of them. */
function withContent(match: RuleMatch, text: string): RuleMatch[] {
  const regex = match.rule.regex.find((pattern) => ruleRegexMatches(pattern, text));
  return regex === undefined ? [] : [Object.freeze({ ...match, regex })];
}

/** True when a directory (relative to the owner) can hold a match of a glob starting at `base`. */
function within(relativeDir: string, base: string): boolean {
  return base === '' || relativeDir === base || relativeDir.startsWith(`${base}/`);
}

function globRuleOf(rule: Rule): GlobRule {
  const exclude = RULE_ADAPTERS.get(rule.source)?.globs.negationMode === 'exclude';
  const positive = rule.globs.some((glob) => !glob.startsWith('!'));
  return { rule, globs: globsOf(rule), exclude, positive };
}

function globsOf(rule: Rule): readonly CompiledGlob[] {
  const remembered = recallCompiledGlobs(rule);
  if (remembered !== undefined) return remembered;
  const adapter = RULE_ADAPTERS.get(rule.source);
  if (adapter === undefined) return [];
  const compiled = compileRuleGlobs(rule.globs, adapter.globs, rule.source);
  return compiled.ok ? compiled.globs : [];
}
