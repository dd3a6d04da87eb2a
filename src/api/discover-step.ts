import type { NestedIndex } from '../discover/nested-index.js';
import type { ResolverContext } from './load-context.js';
import type { MemoTable } from './memo.js';
import { discover, nestedWalkNames, type NestedWalker, type Planned } from './pipeline-steps.js';
import { discoverRulesOnce, needsNestedRules, shareWalks, type Rules } from './rules-step.js';
import type { ResolveRequest } from './select-request.js';

/**
 * What the discover step found for one request: the one record collect, render and disclosure
 * read (plan → discover → collect → render, create-resolver.ts).
 */
export interface Discovered {
  /**
   * The nested walk (`null`: the request or the config turns disclosure off). It runs when called,
   * with the files the block holds; in `inline` mode collect calls it.
   */
  readonly walker: NestedWalker | null;
  /** Every rule of the enabled sources (`null`: rules off), before the agent's scope. */
  readonly found: Rules | null;
  /** The rules of the request's agent (rules scoped to other agents left out). */
  readonly rules: Rules | null;
  /** The rule search covered the folders below the work dir, not only the work dir's and the chain's. */
  readonly nestedRules: boolean;
  /** The request shows the manifest. */
  readonly wanted: boolean;
  /** `contextDiscovery.mode: inline`: nested files go in the block. */
  readonly inline: boolean;
}

/** The memo tables the discover step fills. */
export interface DiscoverTables {
  readonly walks: MemoTable<NestedIndex>;
  readonly rules: MemoTable<Promise<Rules | null>>;
}

/**
 * discover: the nested walker and the rules of a request, found together. When both walk the tree,
 * they share its listings (`shareWalks`): the rule-folder search keeps what it lists and the nested
 * walk replays it, so the tree is listed once; both list through the walk index
 * (`contextDiscovery.cache`), which the resolution saves once both walks are done.
 */
export async function discoverRequest(
  context: ResolverContext,
  tables: DiscoverTables,
  planned: Planned,
  request: Readonly<ResolveRequest>,
): Promise<Discovered> {
  const wanted = request.manifest !== false;
  const inline = context.config.contextDiscovery.mode === 'inline';
  const nestedRules = needsNestedRules(request);
  const listings = shareWalks(context, nestedWalkNames(context, planned, inline || wanted), nestedRules);
  const [walker, found] = await Promise.all([
    discover(context, planned, inline || wanted, tables.walks, listings),
    discoverRulesOnce(context, tables.rules, nestedRules, listings),
  ]);
  // Rules scoped to other agents leave the request's rules (docs/rules.md, "Agent scope").
  const rules = found === null ? null : found.forAgent(planned.selection.agent);
  return { walker, found, rules, nestedRules, wanted, inline };
}
