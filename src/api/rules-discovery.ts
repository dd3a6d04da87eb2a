import path from 'node:path';
import { walkChain } from '../discover/chain-walk.js';
import { under, walkNested } from '../discover/nested-walk.js';
import type { Diagnostic } from '../errors.js';
import { isInside } from '../fs/contain.js';
import type { DirEntry, FileSystem } from '../fs/file-system.js';
import { readInstruction } from '../fs/read-instruction.js';
import type { SharedListings } from '../discover/shared-listings.js';
import { createRuleSet, type RuleSet } from '../rules/create-rule-set.js';
import { discoverRules } from '../rules/discover-rules.js';
import { RULE_ADAPTERS, ruleEntryNames } from '../rules/rule-adapters.js';
import { appliesToAgent, type Rule, type SkippedRule } from '../rules/rule.js';
import type { ResolverContext } from './load-context.js';
import { contextRootOf } from './pipeline-steps.js';
import { createDiagnostics } from '../diagnostics.js';

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
  /** Absolute rule folders (`<owner>/.cursor/rules`, …) the engine reads: one per owner and source folder. */
  readonly folders: RuleFolders;
  /**
   * The rules of a request for `agent` (none: `undefined`): rules scoped to other agents leave the
   * set and are listed as skipped (`other agent`). Itself when no rule is agent-scoped; memoized.
   */
  forAgent(agent: string | undefined): Rules;
  /** True when some rule is scoped to agents: a request's agent then changes its rules. */
  readonly agentScoped: boolean;
  /** The owner of each rule (by real path) whose `#[[file:path]]` references imports follow (Kiro). */
  readonly fileReferences: ReadonlyMap<string, string>;
}

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
  listings?: SharedListings,
): Rules {
  const { fs, workDir, config } = context;
  const rules = config.rules ?? { sources: [], nested: true };
  const { instructions, contextDiscovery } = config;
  const diagnostics: Diagnostic[] = createDiagnostics();
  const names = instructionNames(config);
  // A directory is an owner for the locations read below the work dir that the instructions do not
  // read already: with the default `contextPaths`, holding an `AGENTS.md` makes none.
  const markers = ruleEntryNames(rules.sources, names);
  const walk = { listThrough, markers, ...(listings === undefined ? {} : { listings }) };
  const ownerEntries = new Map<string, readonly DirEntry[]>();
  const owners = ruleOwners(context, rules.nested && nested, diagnostics, walk, ownerEntries);
  const found = discoverRules(fs, {
    workDir,
    ownerDirs: owners,
    sources: rules.sources,
    maxFileBytes: contextDiscovery.maxFileBytes,
    symlinks: instructions.symlinks ?? 'inside',
    // Trusted layers only: a project config's `rules.userFolders` was dropped when it was loaded.
    ...(rules.userFolders === true ? { userDir: context.homeDir } : {}),
    instructionNames: names,
    ownerEntries,
  });
  diagnostics.push(...found.diagnostics);
  const folders = ruleFolders(rules.sources, owners);
  // Content patterns (Continue `regex`) test a file's text as the reader gives it: bounded by the cap.
  const maxBytes = contextDiscovery.maxFileBytes;
  const contentOf = (file: string) => {
    const read = readInstruction(fs, file, { maxBytes });
    return read.ok ? read.text : null;
  };
  const fileReferences = new Map<string, string>();
  for (const rule of found.rules)
    if (RULE_ADAPTERS.get(rule.source)?.fileReferences === true)
      fileReferences.set(rule.realPath, rule.ownerDir);
  const shared = {
    workDir,
    contentOf,
    diagnostics: Object.freeze(diagnostics),
    folders,
    fileReferences,
    found,
  };
  const agentScoped = found.rules.some(
    (rule) => rule.agents.only.length > 0 || rule.agents.except.length > 0,
  );
  return rulesOf(shared, found.rules, found.skipped, agentScoped);
}

/** Membership in the rule folders of every owner (asked once per `contextPaths` entry). */
export interface RuleFolders {
  has(folder: string): boolean;
}

/**
 * The folders of `sources` (agent families aside) below each owner, as a membership test: a path is
 * one when it ends with a folder location and what precedes it is an owner. Nothing is made per
 * owner: a tree with 10,000 walk-marked owners would otherwise hold a path per owner and location.
 */
function ruleFolders(sources: readonly string[], owners: readonly string[]): RuleFolders {
  const locations = new Set<string>();
  for (const source of sources)
    for (const location of RULE_ADAPTERS.get(source)?.locations ?? [])
      if (location.type === 'folder' && location.agentPrefix === undefined)
        locations.add(path.normalize(location.path));
  const ownerSet = new Set(owners);
  return {
    has(folder) {
      for (const location of locations) {
        if (!folder.endsWith(location)) continue;
        // `<owner><sep><location>`, or `<root><location>` for an owner that is a filesystem root.
        const head = folder.slice(0, folder.length - location.length);
        if (head.endsWith(path.sep) && (ownerSet.has(head.slice(0, -1)) || ownerSet.has(head))) return true;
      }
      return false;
    },
  };
}

/** What every view of one discovery shares: the found rules and what was said and read around them. */
interface Discovery {
  readonly workDir: string;
  readonly contentOf: (file: string) => string | null;
  readonly diagnostics: readonly Diagnostic[];
  readonly folders: RuleFolders;
  readonly fileReferences: ReadonlyMap<string, string>;
  readonly found: { readonly rules: readonly Rule[]; readonly skipped: readonly SkippedRule[] };
}

/**
 * The {@link Rules} of `kept` rules: their set, their `always` rules by owner and, when some rule is
 * agent-scoped, a memoized view per agent made from every rule discovery found.
 */
function rulesOf(
  discovery: Discovery,
  kept: readonly Rule[],
  skipped: readonly SkippedRule[],
  agentScoped: boolean,
): Rules {
  const { workDir, contentOf, diagnostics, folders, fileReferences, found } = discovery;
  const set = createRuleSet(kept, { workDir, contentOf });
  const byOwner = new Map<string, Rule[]>();
  for (const rule of set.always()) {
    const list = byOwner.get(rule.ownerDir) ?? [];
    list.push(rule);
    byOwner.set(rule.ownerDir, list);
  }
  const scoped = new Map<string, Rules>();
  const self: Rules = Object.freeze({
    set,
    skipped,
    diagnostics,
    alwaysRulesOf: (dir: string) => Object.freeze([...(byOwner.get(dir) ?? [])]),
    folders,
    agentScoped,
    fileReferences,
    forAgent(agent: string | undefined): Rules {
      if (!agentScoped) return self;
      const key = agent ?? '\0';
      let view = scoped.get(key);
      if (view === undefined) {
        const [mine, others] = splitByAgent(found.rules, agent);
        view = rulesOf(discovery, mine, Object.freeze([...found.skipped, ...others]), false);
        scoped.set(key, view);
      }
      return view;
    },
  });
  return self;
}

/** The rules for `agent`, and the others as skipped files (explain says whom they are for). */
function splitByAgent(rules: readonly Rule[], agent: string | undefined): [Rule[], SkippedRule[]] {
  const mine: Rule[] = [];
  const others: SkippedRule[] = [];
  for (const rule of rules) {
    if (appliesToAgent(rule.agents, agent)) {
      mine.push(rule);
      continue;
    }
    const { only, except } = rule.agents;
    const problem =
      only.length > 0 && !(agent !== undefined && only.includes(agent))
        ? `for agent ${only.join(', ')} only${agent === undefined ? '; the request names no agent' : `, not ${agent}`}`
        : `not for agent ${agent ?? ''} (it excludes ${except.join(', ')})`;
    const { path: file, relativePath, ownerDir, name, source } = rule;
    others.push(
      Object.freeze({ path: file, relativePath, ownerDir, name, source, reason: 'other agent', problem }),
    );
  }
  return [mine, others];
}

/**
 * The directories that own rule folders: the work dir, the chain's directories, with
 * `contextRoot: project` the directories up to the project root, and, when `walkNested`, the
 * directories the nested walk (listing through `listThrough`) marks as holding a vendor entry. With
 * `listings`, that walk also answers the request's nested walk (one walk of the tree).
 * `ownerEntries` gets the marker entries the walk saw in each directory it adds.
 */
function ruleOwners(
  context: ResolverContext,
  walkNestedOwners: boolean,
  diagnostics: Diagnostic[],
  walk: {
    readonly listThrough: (names: Iterable<string>) => FileSystem;
    /** The entry names that make a directory below the work dir an owner. */
    readonly markers: ReadonlySet<string>;
    readonly listings?: SharedListings;
  },
  ownerEntries: Map<string, readonly DirEntry[]>,
): string[] {
  const owners = pathOwners(context);
  if (walkNestedOwners) {
    const { workDir, config } = context;
    const { listThrough, listings, markers } = walk;
    const { maxDepth } = config.contextDiscovery;
    const found =
      listings === undefined
        ? walkNested(
            listThrough(markers),
            workDir,
            new Set(),
            { maxDepth, maxFiles: Number.MAX_SAFE_INTEGER },
            { markers },
          )
        : listings.walkMarkers(listThrough, workDir, markers, maxDepth);
    diagnostics.push(...found.diagnostics);
    for (const relative of found.marked) {
      const owner = under(workDir, relative);
      owners.push(owner);
      ownerEntries.set(owner, found.markedBy.get(relative) ?? []);
    }
  }
  return owners;
}

/**
 * The owners on the path, before any walk of the tree: the work dir, the chain's directories up to
 * where the chain starts, and with `contextRoot: project` the directories up to the project root,
 * as its `contextPaths` resolve there (docs/rules.md, "Discovery").
 */
function pathOwners(context: ResolverContext): string[] {
  const { fs, workDir, config } = context;
  const { instructions } = config;
  const owners = [workDir];
  if (instructions.walk !== 'off') {
    const chain = walkChain(fs, {
      workDir,
      walk: instructions.walk,
      projectRootMarkers: instructions.projectRootMarkers,
      projectRootFallback: config.profile.projectRootFallback,
      walkFrom: config.profile.walkFrom,
      homeDir: context.homeDir,
      candidates: [],
      ceiling: context.trust.ceiling,
    });
    for (let dir = workDir; ; dir = path.dirname(dir)) {
      owners.push(dir);
      if (dir === chain.start || path.dirname(dir) === dir) break;
    }
  }
  const projectRoot = contextRootOf(context, []);
  if (projectRoot !== workDir && isInside(projectRoot, workDir))
    for (let dir = path.dirname(workDir); ; dir = path.dirname(dir)) {
      owners.push(dir);
      if (dir === projectRoot || path.dirname(dir) === dir) break;
    }
  return owners;
}

/**
 * The file names the config reads as instruction files: the basenames of its global `contextPaths`
 * file entries and, with a chain walk, its plain candidates (the names nested disclosure looks for).
 */
function instructionNames(config: ResolverContext['config']): Set<string> {
  const names = new Set<string>();
  for (const entry of config.contextPaths)
    if (!entry.endsWith('/')) names.add(entry.slice(entry.lastIndexOf('/') + 1));
  if (config.instructions.walk !== 'off')
    for (const candidate of config.instructions.candidates)
      if (!candidate.includes('/') && !candidate.startsWith('@')) names.add(candidate);
  return names;
}
