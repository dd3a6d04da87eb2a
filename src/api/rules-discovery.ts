import path from 'node:path';
import { walkChain } from '../discover/chain-walk.js';
import { under, walkNested } from '../discover/nested-walk.js';
import type { Diagnostic } from '../errors.js';
import { createRuleSet } from '../rules/create-rule-set.js';
import { discoverRules } from '../rules/discover-rules.js';
import { RULE_ADAPTERS, ruleEntryNames } from '../rules/rule-adapters.js';
import type { Rule } from '../rules/rule.js';
import type { ResolverContext } from './load-context.js';
import type { Rules } from './rules-step.js';

/**
 * Finds every rule of the enabled sources (docs/rules.md, "Discovery"): owners are the work dir, the
 * chain's directories and, with `rules.nested` and `nested`, the directories the nested walk marks
 * as holding a vendor entry (its pruning and caps). Loaded on the first request with rules on, as one
 * chunk of the bundled CLI.
 */
export function discoverAllRules(context: ResolverContext, nested: boolean): Rules {
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
      ceiling: context.trust.ceiling,
    });
    for (let dir = workDir; ; dir = path.dirname(dir)) {
      owners.push(dir);
      if (dir === chain.start || path.dirname(dir) === dir) break;
    }
  }
  if (rules.nested && nested) {
    const found = walkNested(
      fs,
      workDir,
      new Set(),
      { maxDepth: contextDiscovery.maxDepth, maxFiles: Number.MAX_SAFE_INTEGER },
      { markers: ruleEntryNames(rules.sources) },
    );
    diagnostics.push(...found.diagnostics);
    for (const relative of found.marked) owners.push(under(workDir, relative));
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
}
