import type { Config } from '../config/types.js';
import { explainRules, type RuleExplanation } from '../rules/explain-rules.js';
import type { Rule } from '../rules/rule.js';
import type { ResolverContext } from './load-context.js';
import type { MemoTable } from './memo.js';
import type { Rules } from './rules-discovery.js';
import { walkLister } from './walk-cache.js';
import { shareListings, type SharedListings } from '../discover/shared-listings.js';

/**
 * The rules step of the pipeline (docs/rules.md, "How each kind surfaces"): rule folders are found
 * once per resolver (the work dir, the chain's directories and, with `rules.nested`, the directories
 * the nested walk marks), then each request picks the rules of its `rules` layer.
 */

// The shape of the rules lives with the module that builds them (rules-discovery.ts, loaded on
// first use), which imports nothing of this one.
export type { Rules } from './rules-discovery.js';

/** What a request asks of the rules: paths in play and rule names. */
export interface RulesRequest {
  readonly paths?: readonly string[] | undefined;
  readonly rules?: readonly string[] | undefined;
}

/** True when `rules.sources` names at least one source. */
export function rulesEnabled(config: Config): boolean {
  return (config.rules?.sources.length ?? 0) > 0;
}

/**
 * True when a request needs the rule folders below the work dir: it shows the manifest (nested
 * `always` rules, the catalog), or puts paths or names in play. A plain `resolve` needs only the
 * work dir's and the chain's rules (the `rules` layer), so it skips the nested walk, as it does for
 * nested files.
 */
export function needsNestedRules(
  request: Readonly<RulesRequest & { manifest?: boolean | undefined }>,
): boolean {
  return request.manifest !== false || (request.paths?.length ?? 0) > 0 || (request.rules?.length ?? 0) > 0;
}

/**
 * discover (rules): every rule of the enabled sources, once per resolver and per `nested` (the
 * `rules` table, cleared by `refresh()`). `nested: false` reads only the work dir's and the chain
 * directories' folders. `null` when rules are off. Modules load on first use. The marker walk lists
 * through the walk index with `contextDiscovery.cache`.
 */
export async function discoverRulesOnce(
  context: ResolverContext,
  table: MemoTable<Promise<Rules | null>>,
  nested = true,
  listings?: SharedListings,
): Promise<Rules | null> {
  if (!rulesEnabled(context.config)) return null;
  return table(nested ? 'all' : 'local', async () => {
    const [{ discoverAllRules }, listThrough] = await Promise.all([
      import('./rules-discovery.js'),
      walkLister(context),
    ]);
    return discoverAllRules(context, nested, listThrough, listings);
  });
}

/**
 * The listings one request's two walks share, when it runs both: the search for rule folders below
 * the work dir (`nested`, rules on) also finds the files of the nested walk for `nestedNames`
 * (`null`: no nested walk), or keeps its listings for it when that walk skips ignored paths, so the
 * tree is listed once (docs/performance.md, "One walk").
 * When the rules were found by an earlier request, nothing is kept and the nested walk lists as
 * before.
 */
export function shareWalks(
  context: ResolverContext,
  nestedNames: ReadonlySet<string> | null,
  nested: boolean,
): SharedListings | undefined {
  const { config } = context;
  if (nestedNames === null || !nested || !rulesEnabled(config)) return undefined;
  return shareListings(nestedNames, {
    symlinks: config.instructions.symlinks ?? 'inside',
    ignores: config.contextDiscovery.respectGitignore === true,
  });
}

/**
 * The rules of a request's `rules` layer, in this order: the `always` rules of the work dir and the
 * chain's directories (discovery order), then, in discovery order, the rules the request brings in:
 * `glob` rules matching a path of `request.paths`, `always` rules of nested owners holding one of
 * those paths, and rules named in `request.rules` (any kind). Each rule once. `unknown` collects
 * names that select no rule. With `placedByChain`, `always` rules owned by chain directories are
 * left out (a chain candidate `@rules` places them).
 */
export function rulesLayer(
  rules: Rules,
  request: Readonly<RulesRequest>,
  placedByChain: ReadonlySet<string> = new Set(),
): { readonly rules: readonly Rule[]; readonly unknown: readonly string[] } {
  const { set } = rules;
  const chosen = new Set<Rule>(set.always().filter((rule) => !placedByChain.has(rule.ownerDir)));
  const brought = new Set<Rule>(set.rulesFor(request.paths ?? []).map((match) => match.rule));
  const unknown: string[] = [];
  for (const name of request.rules ?? []) {
    const named = set.byName(name);
    if (named.length === 0) unknown.push(name);
    for (const rule of named) brought.add(rule);
  }
  const extra = [...brought].filter((rule) => !chosen.has(rule));
  if (extra.length > 1) {
    const order = new Map(set.rules.map((rule, index) => [rule, index]));
    extra.sort((a, b) => (order.get(a) as number) - (order.get(b) as number));
  }
  return Object.freeze({ rules: Object.freeze([...chosen, ...extra]), unknown: Object.freeze(unknown) });
}

/** `explain` lines for every rule of a request (explainRules: source, kind, globs, reason). */
export function explainRequest(
  rules: Rules,
  request: Readonly<RulesRequest>,
  workDir: string,
): readonly RuleExplanation[] {
  return explainRules(rules.set, rules.skipped, {
    paths: request.paths ?? [],
    names: request.rules ?? [],
    workDir,
  });
}
