import path from 'node:path';
import type { Config } from '../config/types.js';
import type { Diagnostic } from '../errors.js';
import type { RuleSet } from '../rules/create-rule-set.js';
import type { RuleExplanation } from '../rules/explain-rules.js';
import type { Rule, SkippedRule } from '../rules/rule.js';
import type { ResolverContext } from './load-context.js';
import type { MemoTable } from './memo.js';

/**
 * The rules step of the pipeline (docs/rules.md, "How each kind surfaces"): rule folders are found
 * once per resolver (the work dir, the chain's directories and, with `rules.nested`, the directories
 * the nested walk marks), then each request picks the rules of its `rules` layer.
 */

/** The rules of one resolver: the rule set, what discovery skipped and said. */
export interface Rules {
  readonly set: RuleSet;
  readonly skipped: readonly SkippedRule[];
  readonly diagnostics: readonly Diagnostic[];
  /**
   * The `always` rules owned by one directory (a chain directory or the work dir), in discovery
   * order: the seam for a chain candidate `@rules` that places them inside the chain.
   */
  alwaysRulesOf(dir: string): readonly Rule[];
  /** Folders (`.cursor/rules/`, …) of the enabled sources, relative to an owner, with a trailing `/`. */
  readonly folders: ReadonlySet<string>;
}

/** What a request asks of the rules: paths in play and rule names. */
export interface RulesRequest {
  readonly paths?: readonly string[] | undefined;
  readonly rules?: readonly string[] | undefined;
}

/** True when `rules.sources` names at least one source. */
export function rulesEnabled(config: Config): boolean {
  return (config.rules?.sources.length ?? 0) > 0;
}

/** The part of a memo key a rules request adds; empty without paths and names. */
export function rulesKey(request: Readonly<RulesRequest>): string {
  const paths = request.paths ?? [];
  const names = request.rules ?? [];
  if (paths.length === 0 && names.length === 0) return '';
  return `\0p${JSON.stringify(paths)}\0r${JSON.stringify(names)}`;
}

/**
 * discover (rules): every rule of the enabled sources, once per resolver (the `rules` table, cleared
 * by `refresh()`). `null` when rules are off. Modules load on first use.
 */
export async function discoverRulesOnce(
  context: ResolverContext,
  table: MemoTable<Promise<Rules | null>>,
): Promise<Rules | null> {
  if (!rulesEnabled(context.config)) return null;
  return table('rules', async () => {
    const [{ discoverRules }, { createRuleSet }, { ruleEntryNames, RULE_ADAPTERS }, { walkChain }, walk] =
      await Promise.all([
        import('../rules/discover-rules.js'),
        import('../rules/create-rule-set.js'),
        import('../rules/rule-adapters.js'),
        import('../discover/chain-walk.js'),
        import('../discover/nested-walk.js'),
      ]);
    const { fs, workDir, config } = context;
    const rules = config.rules ?? { sources: [], nested: true };
    const diagnostics: Diagnostic[] = [];
    const owners = [workDir];
    const { instructions, contextDiscovery } = config;
    if (instructions.walk !== 'off') {
      const chain = walkChain(fs, {
        workDir,
        walk: instructions.walk,
        projectRootMarkers: instructions.projectRootMarkers,
        candidates: [],
      });
      for (let dir = workDir; ; dir = path.dirname(dir)) {
        owners.push(dir);
        if (dir === chain.start || path.dirname(dir) === dir) break;
      }
    }
    if (rules.nested) {
      const found = walk.walkNested(
        fs,
        workDir,
        new Set(),
        { maxDepth: contextDiscovery.maxDepth, maxFiles: Number.MAX_SAFE_INTEGER },
        { markers: ruleEntryNames(rules.sources) },
      );
      diagnostics.push(...found.diagnostics);
      for (const relative of found.marked) owners.push(walk.under(workDir, relative));
    }
    const found = discoverRules(fs, {
      workDir,
      ownerDirs: owners,
      sources: rules.sources,
      maxFileBytes: contextDiscovery.maxFileBytes,
    });
    diagnostics.push(...found.diagnostics);
    const set = createRuleSet(found.rules, { workDir });
    const byOwner = new Map<string, Rule[]>();
    for (const rule of set.always()) {
      const list = byOwner.get(rule.ownerDir) ?? [];
      list.push(rule);
      byOwner.set(rule.ownerDir, list);
    }
    const folders = new Set<string>();
    for (const source of rules.sources)
      for (const location of RULE_ADAPTERS.get(source)?.locations ?? [])
        if (location.type === 'folder') folders.add(`${location.path}/`);
    return Object.freeze({
      set,
      skipped: found.skipped,
      diagnostics: Object.freeze(diagnostics),
      alwaysRulesOf: (dir: string) => Object.freeze([...(byOwner.get(dir) ?? [])]),
      folders,
    });
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
  const order = new Map(set.rules.map((rule, index) => [rule, index]));
  const extra = [...brought]
    .filter((rule) => !chosen.has(rule))
    .sort((a, b) => (order.get(a) as number) - (order.get(b) as number));
  return Object.freeze({ rules: Object.freeze([...chosen, ...extra]), unknown: Object.freeze(unknown) });
}

/** `explain` lines for every rule of a request (explainRules: source, kind, globs, reason). */
export async function explainRequest(
  rules: Rules,
  request: Readonly<RulesRequest>,
): Promise<readonly RuleExplanation[]> {
  const { explainRules } = await import('../rules/explain-rules.js');
  return explainRules(rules.set, rules.skipped, {
    paths: request.paths ?? [],
    names: request.rules ?? [],
  });
}
