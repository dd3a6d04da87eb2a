import path from 'node:path';
import { walkChain } from '../discover/chain-walk.js';
import { under, walkNested } from '../discover/nested-walk.js';
import type { Diagnostic } from '../errors.js';
import { isInside } from '../fs/contain.js';
import type { FileSystem } from '../fs/file-system.js';
import { createRuleSet } from '../rules/create-rule-set.js';
import { discoverRules } from '../rules/discover-rules.js';
import { RULE_ADAPTERS, ruleEntryNames } from '../rules/rule-adapters.js';
import type { Rule } from '../rules/rule.js';
import type { ResolverContext } from './load-context.js';
import { contextRootOf } from './pipeline-steps.js';
import type { Rules } from './rules-step.js';
import { createDiagnostics } from '../diagnostics.js';

/**
 * Finds every rule of the enabled sources (docs/rules.md, "Discovery"): owners are the work dir, the
 * chain's directories, with `contextRoot: project` the directories up to the project root, and, with `rules.nested` and `nested`, the directories the nested walk marks
 * as holding a vendor entry (its pruning and caps). Loaded on the first request with rules on, as one
 * chunk of the bundled CLI.
 */
export function discoverAllRules(
  context: ResolverContext,
  nested: boolean,
  listThrough: (names: Iterable<string>) => FileSystem = () => context.fs,
): Rules {
  const { fs, workDir, config } = context;
  const rules = config.rules ?? { sources: [], nested: true };
  const { instructions, contextDiscovery } = config;
  const diagnostics: Diagnostic[] = createDiagnostics();
  const owners = ruleOwners(context, rules.nested && nested, diagnostics, listThrough);
  const found = discoverRules(fs, {
    workDir,
    ownerDirs: owners,
    sources: rules.sources,
    maxFileBytes: contextDiscovery.maxFileBytes,
    symlinks: instructions.symlinks ?? 'inside',
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
      if (location.type === 'folder')
        for (const owner of owners) folders.add(path.join(owner, location.path));
  return Object.freeze({
    set,
    skipped: found.skipped,
    diagnostics: Object.freeze(diagnostics),
    alwaysRulesOf: (dir: string) => Object.freeze([...(byOwner.get(dir) ?? [])]),
    folders,
  });
}

/**
 * The directories that own rule folders: the work dir, the chain's directories, with
 * `contextRoot: project` the directories up to the project root, and, when `walkNested`, the
 * directories the nested walk (listing through `listThrough`) marks as holding a vendor entry.
 */
function ruleOwners(
  context: ResolverContext,
  walkNestedOwners: boolean,
  diagnostics: Diagnostic[],
  listThrough: (names: Iterable<string>) => FileSystem,
): string[] {
  const { fs, workDir, config } = context;
  const rules = config.rules ?? { sources: [], nested: true };
  const { instructions, contextDiscovery } = config;
  const owners = [workDir];
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
  // With `contextRoot: project` the project root and the directories down to the work dir own rules
  // too, as its `contextPaths` resolve there (docs/rules.md, "Discovery").
  const projectRoot = contextRootOf(context, []);
  if (projectRoot !== workDir && isInside(projectRoot, workDir))
    for (let dir = path.dirname(workDir); ; dir = path.dirname(dir)) {
      owners.push(dir);
      if (dir === projectRoot || path.dirname(dir) === dir) break;
    }
  if (walkNestedOwners) {
    const markers = ruleEntryNames(rules.sources);
    const found = walkNested(
      listThrough(markers),
      workDir,
      new Set(),
      { maxDepth: contextDiscovery.maxDepth, maxFiles: Number.MAX_SAFE_INTEGER },
      { markers },
    );
    diagnostics.push(...found.diagnostics);
    for (const relative of found.marked) owners.push(under(workDir, relative));
  }
  return owners;
}
