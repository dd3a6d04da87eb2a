import { disclosureKey, planKey, renderKey, walkKey } from './cache-keys.js';
import type { Format } from '../config/types.js';
import type { NestedFile, NestedIndex } from '../discover/nested-index.js';
import type { Diagnostic } from '../errors.js';
import path from 'node:path';
import { belowCeiling, findProjectRoot } from '../discover/chain-walk.js';
import { isInside } from '../fs/contain.js';
import { identityOf } from '../resolve/expand-entries.js';
import { readContextFile } from '../resolve/read-context-file.js';
import { shapeFiles } from '../resolve/shape-text.js';
import { collectSources, type CollectedSources } from '../resolve/collect-files.js';
import { expandFileImports } from '../resolve/expand-file-imports.js';
import { globRoot } from '../resolve/glob-files.js';
import { planResolution, type ResolutionPlan, type Selection } from '../resolve/plan-resolution.js';
import type { RulesSource } from '../resolve/source-options.js';
import type { ContextFile } from '../resolve/read-context-file.js';
import type { RuleSet } from '../rules/create-rule-set.js';
import type { ResolverContext } from './load-context.js';
import type { MemoTable } from './memo.js';
import { nestedBasenames, nestedForPlan } from './nested-for-plan.js';
import { renderBlock } from './render-block.js';
import { selectRequest, type ResolveRequest } from './select-request.js';
import { walkLister } from './walk-cache.js';
import type { SharedListings } from '../discover/shared-listings.js';
import { createDiagnostics } from '../diagnostics.js';

/**
 * The steps of a resolution after `loadContext`, in order: plan → discover → collect → render.
 * `createResolver` (create-resolver.ts) runs them; each takes the memo table it fills.
 */

/** What `plan` decided: who is asking, and the layers and entries that apply. */
export interface Planned {
  readonly selection: Selection;
  readonly plan: ResolutionPlan;
  /** Identifies the plan: equal keys resolve to byte-identical output (src/api/cache-keys.ts). */
  readonly key: string;
}

/** The files a plan inlines, before the budget. */
export interface Collected {
  readonly files: readonly ContextFile[];
  readonly diagnostics: readonly Diagnostic[];
}

/** The rendered block of a plan in one format. */
export interface Rendered {
  /** The files shown (a file cut by the budget is listed with its full text). */
  readonly files: readonly ContextFile[];
  readonly text: string;
  readonly diagnostics: readonly Diagnostic[];
}

/** The nested files a plan discloses and their manifest. */
export interface Disclosed {
  readonly index: NestedIndex | null;
  readonly manifest: string;
  readonly diagnostics: readonly Diagnostic[];
  /** Rules a session may inject; absent when rules are off or the request skips the manifest. */
  readonly rules?: DisclosedRules | undefined;
}

/** What a session needs of the rules: the set, and the rules the block already shows. */
export interface DisclosedRules {
  readonly set: RuleSet;
  /** Real paths of the rules in the `rules` layer (never injected again). */
  readonly inlined: ReadonlySet<string>;
}

export const NOTHING_DISCLOSED: Disclosed = Object.freeze({ index: null, manifest: '', diagnostics: [] });

/**
 * plan: the agent, flow and step of a request, then the layers and expanded entries. Flow files
 * are read only when the request needs them: a flow, or an agent the config does not define.
 * @throws CtxfilesError `unknown-agent`, `unknown-flow`, `unknown-step` or `usage`.
 */
export async function plan(
  context: ResolverContext,
  request: Readonly<ResolveRequest>,
  onUnknownMode: (mode: string, layer: string) => Diagnostic | undefined,
): Promise<Planned> {
  const { config } = context;
  const needsFlows =
    request.flow !== undefined ||
    request.step !== undefined ||
    (request.agent !== undefined && !Object.hasOwn(config.agents, request.agent));
  const selection = selectRequest(config, needsFlows ? await context.flows() : new Map(), request);
  const planned = planResolution(config, selection, context.env, onUnknownMode);
  return { selection, plan: planned, key: planKey(context.workDir, planned.layers) };
}

/**
 * The nested walk of a plan, given the real paths of the files the block already holds: those are
 * left out of the walk before its `maxFiles` cap is counted (issue #26, item 11).
 */
export type NestedWalker = (held: Iterable<string>) => NestedIndex;

/**
 * discover: the nested files below the work dir with the names the plan uses; one walk per set
 * of names and of held nested files (the `walks` table), listing through the walk index with
 * `contextDiscovery.cache`. `null` when the request or the config turns disclosure off. Discovery
 * modules load on the first request that needs them; the walk itself runs when the walker is called.
 */
export async function discover(
  context: ResolverContext,
  planned: Planned,
  wanted: boolean,
  walks: MemoTable<NestedIndex>,
  listings?: SharedListings,
): Promise<NestedWalker | null> {
  const discovery = context.config.contextDiscovery;
  const basenames = nestedWalkNames(context, planned, wanted);
  if (basenames === null) return null;
  const [{ buildNestedIndex }, gitignore, listThrough] = await Promise.all([
    import('../discover/nested-index.js'),
    discovery.respectGitignore === true ? import('../discover/gitignore.js') : undefined,
    walkLister(context),
  ]);
  return (held) => {
    // Only a held file the walk could find changes it, so the key stays the names alone in the
    // usual case (the block holds the work dir's own files, which are not nested).
    const nested = heldNested(context.workDir, basenames, held);
    return walks(walkKey(basenames, nested), () =>
      buildNestedIndex(listThrough(basenames), context.workDir, basenames, discovery, {
        symlinks: context.config.instructions.symlinks ?? 'inside',
        ...(nested.size === 0 ? {} : { holds: (realPath: string) => nested.has(realPath) }),
        ...(listings === undefined ? {} : { walk: listings.walkFiles }),
        ...(gitignore === undefined
          ? {}
          : { gitignore: gitignore.createGitignore(context.fs, context.workDir) }),
      }),
    );
  };
}

/**
 * The file names the nested walk of a request looks for, or `null` when the request (`wanted`
 * false) or the config turns disclosure off: then there is no walk.
 */
export function nestedWalkNames(
  context: ResolverContext,
  planned: Planned,
  wanted: boolean,
): Set<string> | null {
  const discovery = context.config.contextDiscovery;
  if (!wanted || !discovery.enabled || discovery.mode === 'off' || !nestedFlag(context, planned.selection))
    return null;
  return nestedBasenames(planned.plan, context.config.instructions);
}

/** The held real paths a nested walk could find: below a child of the work dir, a wanted name. */
function heldNested(workDir: string, basenames: ReadonlySet<string>, held: Iterable<string>): Set<string> {
  const nested = new Set<string>();
  for (const file of held)
    if (isInside(workDir, file) && path.dirname(file) !== workDir && basenames.has(path.basename(file)))
      nested.add(file);
  return nested;
}

/** The files, then (`contextDiscovery.mode: inline`) the nested files `walker` finds besides them. */
function withNested(
  context: ResolverContext,
  files: readonly ContextFile[],
  walker: NestedWalker,
  diagnostics: Diagnostic[],
): ContextFile[] {
  const nested = inlineNested(context, files, walker(files.map((file) => file.realPath)), diagnostics);
  return [...files, ...nested];
}

/**
 * collect: reads the files of a plan (user file, chain, rules, layers, extras; ordered and deduped),
 * then, with `contextDiscovery.mode: inline`, the nested files `walker` finds besides them, then expands imports over
 * the whole list. `key`: {@link collectKey}.
 */
export function collect(
  context: ResolverContext,
  plan: ResolutionPlan,
  table: MemoTable<Collected>,
  key: string,
  rules?: RulesSource,
  walker: NestedWalker | null = null,
): Collected {
  const inline = context.config.contextDiscovery.mode === 'inline' && walker !== null;
  return table(key, () => {
    const diagnostics: Diagnostic[] = createDiagnostics();
    const { fs, workDir, homeDir, config, env } = context;
    const layerRoot = contextRootOf(context, diagnostics);
    const collected = collectSources(
      fs,
      workDir,
      plan,
      {
        instructions: config.instructions,
        profile: config.profile,
        homeDir,
        env,
        layerRoot,
        rules,
        ceiling: context.trust.ceiling,
        projectGlobs: context.trust.projectGlobs,
      },
      diagnostics,
    );
    const listed = inline ? withNested(context, collected.files, walker, diagnostics) : collected.files;
    const files = expandFileImports(
      fs,
      listed,
      {
        imports: config.imports ?? { enabled: false, maxDepth: 5, mode: 'entries' },
        profile: config.profile,
        importStyles: context.hosts.importStyle,
        symlinks: config.instructions.symlinks ?? 'inside',
        // `imports.external: false`: a project file imports only from inside the work dir.
        trustOutside: context.trusted && config.imports?.external !== false,
        homeDir,
        rootOf: importRoots(context, collected, layerRoot),
        fileReferencesFrom: fileReferencesOf(rules),
        projectRootMarkers: config.instructions.projectRootMarkers,
      },
      diagnostics,
    );
    const shaped = shapeFiles(files, config.profile, diagnostics);
    const withBom = config.instructions.keepBom === true ? keptBom : (file: ContextFile) => file;
    return { files: Object.freeze(shaped.map(spelledPath(context)).map(withBom)), diagnostics };
  });
}

/**
 * The containment root of each file's imports: the work dir with `imports.external: false`, else
 * the root of its source (the chain's start, its glob pattern's root, the contextPaths root).
 */
function importRoots(
  context: ResolverContext,
  collected: CollectedSources,
  layerRoot: string,
): (file: ContextFile) => string {
  const { workDir, config } = context;
  return (file) => {
    if (config.imports?.external === false) return workDir;
    if (file.source === 'chain') return collected.chainStart ?? workDir;
    if (file.source === 'glob') return globRoot(file.entry, collected.globScope);
    return layerRoot;
  };
}

/**
 * The rules of the layer whose vendor writes `#[[file:path]]` references (Kiro): each file of the
 * `rules` layer that is one of them has its references followed, relative to the rule's owner.
 */
function fileReferencesOf(rules: RulesSource | undefined): (file: ContextFile) => string | undefined {
  const owners = rules?.fileReferences;
  return (file) => (file.source === 'rule' && owners !== undefined ? owners.get(file.realPath) : undefined);
}

/** `instructions.keepBom`: a file that began with a UTF-8 BOM has it back at the start of its text. */
function keptBom(file: ContextFile): ContextFile {
  return file.bom === true ? Object.freeze({ ...file, text: `\uFEFF${file.text}` }) : file;
}

/**
 * Under a symlinked cwd, a file below the work dir is shown under the cwd as the caller spelled
 * it (as Codex does); with `instructions.workDirPath: real` the spelled work dir is the real one
 * (src/api/load-context.ts). `realPath` and every containment check stay on the canonical path.
 */
function spelledPath(context: ResolverContext): (file: ContextFile) => ContextFile {
  const { spelledWorkDir: spelled, workDir } = context;
  if (spelled === workDir) return (file) => file;
  return (file) =>
    isInside(workDir, file.path)
      ? Object.freeze({ ...file, path: path.join(spelled, path.relative(workDir, file.path)) })
      : file;
}

/**
 * `contextDiscovery.mode: inline`: the nested files of the walk that the list does not hold yet,
 * read in the walk's order (breadth first within `maxDepth`, at most `maxFiles`, then sorted by
 * path), as older Gemini CLI versions did (`bfsFileSearch` then `downwardPaths.sort()` in
 * google-gemini/gemini-cli, packages/core/src/utils/memoryDiscovery.ts).
 */
function inlineNested(
  context: ResolverContext,
  files: readonly ContextFile[],
  walk: NestedIndex,
  diagnostics: Diagnostic[],
): ContextFile[] {
  const { fs, workDir, config } = context;
  // The walk's faults belong to the block in this mode (no manifest reports them), and a walk cut
  // at its cap says so: the block silently missing nested files would look complete.
  diagnostics.push(...walk.diagnostics);
  if (walk.truncatedAt !== undefined && !walk.diagnostics.some((d) => d.code === 'walk-truncated'))
    diagnostics.push({
      level: 'warn',
      code: 'walk-truncated',
      message: `inline discovery stopped at ${walk.truncatedAt} nested files (contextDiscovery.maxFiles); more may exist and are not in the block`,
    });
  const inlined = new Set(files.map((file) => file.realPath));
  const out: ContextFile[] = [];
  for (const nested of nestedForPlan(walk.files, config.instructions, inlined)) {
    const realPath = nested.realPath ?? nested.path;
    let info;
    try {
      info = fs.stat(realPath);
    } catch {
      continue; // Gone since the walk: nothing to inline.
    }
    const relative = path.relative(workDir, nested.ownerDir);
    const read = readContextFile(
      fs,
      {
        path: nested.path,
        realPath,
        source: 'nested',
        layer: 'nested',
        entry: nested.relativePath,
        depth: relative === '' ? 0 : relative.split(path.sep).length,
        identity: identityOf(info),
        info,
      },
      diagnostics,
      config.contextDiscovery.maxFileBytes,
    );
    if (read !== null) out.push(read);
  }
  return out;
}

/**
 * The directory `contextPaths` resolve against (docs/config.md, "contextRoot"): the work dir, or
 * with `contextRoot: project` the nearest ancestor holding a project root marker (the work dir
 * when there is none, with an `info`).
 */
export function contextRootOf(context: ResolverContext, diagnostics: Diagnostic[]): string {
  if (context.config.contextRoot !== 'project') return context.workDir;
  const { projectRootMarkers } = context.config.instructions;
  const root = findProjectRoot(context.fs, context.workDir, projectRootMarkers, diagnostics);
  if (root === null) {
    diagnostics.push({
      level: 'info',
      code: 'no-project-root',
      message: `contextRoot is "project" but no ancestor of ${context.workDir} holds ${projectRootMarkers.join(', ')}; contextPaths resolve against the work dir`,
    });
    return context.workDir;
  }
  return belowCeiling(root, context.trust.ceiling);
}

/** render: the block in `format`, within the budget. */
export function render(
  context: ResolverContext,
  key: string,
  collected: Collected,
  format: Format,
  table: MemoTable<Rendered>,
): Rendered {
  return table(renderKey(format, key), () => {
    const { spelledWorkDir, homeDir, config } = context;
    const block = renderBlock(
      format,
      collected.files,
      {
        workDir: spelledWorkDir,
        homeDir,
        wording: config.wording,
        names: config.instructions.candidates.filter((name) => name !== '@rules'),
        formats: context.hosts.format,
      },
      config.budget,
      context.countTokens,
    );
    return {
      files: block.files,
      text: block.text,
      diagnostics: [...collected.diagnostics, ...block.diagnostics],
    };
  });
}

/**
 * render (the manifest): the nested files of the walk that the plan does not inline, and their
 * manifest, within `maxManifestBytes`.
 */
export async function renderDisclosure(
  context: ResolverContext,
  key: string,
  walk: NestedIndex | null,
  collected: Collected,
  table: MemoTable<Promise<Disclosed>>,
  rules?: RuleSet,
): Promise<Disclosed> {
  // Inline discovery put the nested files in the block: only rules are left to disclose.
  const inlineMode = context.config.contextDiscovery.mode === 'inline';
  if ((walk === null || inlineMode) && rules === undefined) return NOTHING_DISCLOSED;
  // Two requests with one plan differ in their walk when one turns `nested` off (an agent or step
  // setting): with rules on, the one without a walk still renders, so its entry must stay its own.
  return table(disclosureKey(key, walk !== null), async () => {
    const [{ groupByOwner }, { renderManifest, boundRuleCatalog }, { compareCodeUnits }] = await Promise.all([
      import('../discover/nested-index.js'),
      import('../render/render-manifest.js'),
      import('../discover/compare-code-units.js'),
    ]);
    const { instructions, contextDiscovery } = context.config;
    const inlined = new Set(collected.files.map((file) => file.realPath));
    const kept: NestedFile[] =
      walk === null || inlineMode ? [] : nestedForPlan(walk.files, instructions, inlined);
    const index: NestedIndex | null = inlineMode
      ? null
      : walk === null || kept.length === walk.files.length
        ? walk
        : { ...walk, files: kept, byOwner: groupByOwner(kept) };
    const entries = manifestEntries(kept, rules, inlined, compareCodeUnits);
    const manifest = renderManifest(entries, {
      maxBytes: contextDiscovery.maxManifestBytes,
      truncatedAt: inlineMode ? undefined : walk?.truncatedAt,
    });
    const catalog = ruleCatalog(context.config, rules, inlined, boundRuleCatalog);
    // In inline mode the walk's diagnostics were reported with the block (collect).
    const walkDiagnostics = inlineMode ? [] : (walk?.diagnostics ?? []);
    return {
      index,
      manifest: [manifest, catalog.text].filter((part) => part !== '').join('\n\n'),
      diagnostics:
        catalog.degraded === 'no'
          ? walkDiagnostics
          : [...walkDiagnostics, catalogCapped(catalog.degraded, contextDiscovery.maxManifestBytes)],
      ...(rules === undefined ? {} : { rules: Object.freeze({ set: rules, inlined }) }),
    };
  });
}

/** `boundRuleCatalog` of src/render/render-manifest.ts, which loads with the first manifest. */
type BoundRuleCatalog = typeof import('../render/render-manifest.js').boundRuleCatalog;

/**
 * The rules-on-request catalog (docs/rules.md): the requested rules of the set that the block does
 * not inline, within `maxManifestBytes`; empty without rules.
 */
function ruleCatalog(
  config: ResolverContext['config'],
  rules: RuleSet | undefined,
  inlined: ReadonlySet<string>,
  bound: BoundRuleCatalog,
): ReturnType<BoundRuleCatalog> {
  if (rules === undefined) return { text: '', degraded: 'no' };
  return bound(
    rules
      .catalog()
      .filter((rule) => !inlined.has(rule.realPath))
      .map((rule) => ({ name: rule.name, path: rule.relativePath, description: rule.description })),
    config.wording.ruleCatalogIntro,
    config.contextDiscovery.maxManifestBytes,
  );
}

/** The warning of a rules catalog over `maxManifestBytes` (docs/rules.md). */
function catalogCapped(degraded: 'descriptions' | 'cut', maxBytes: number): Diagnostic {
  return {
    level: 'warn',
    code: 'catalog-truncated',
    message: `the rules-on-request catalog is larger than contextDiscovery.maxManifestBytes (${maxBytes} bytes): ${degraded === 'cut' ? 'its descriptions are left out and the list is cut' : 'its descriptions are left out'}`,
  };
}

/**
 * The manifest's lines: the nested files kept, and nested owners' `always` rules, which are
 * disclosed like nested files (docs/rules.md), in code-unit order of their paths.
 */
function manifestEntries(
  kept: readonly NestedFile[],
  rules: RuleSet | undefined,
  inlined: ReadonlySet<string>,
  compareCodeUnits: (a: string, b: string) => number,
): { path: string; label: string }[] {
  const entries: { path: string; label: string }[] = kept.map((file) => ({
    path: file.relativePath,
    label: file.label,
  }));
  if (rules === undefined) return entries;
  // A rule source that reads a nested file (windsurf and a nested AGENTS.md) lists it once.
  const listed = new Set(kept.map((file) => file.realPath ?? file.path));
  for (const rule of rules.nested())
    if (!inlined.has(rule.realPath) && !listed.has(rule.realPath))
      entries.push({
        path: rule.relativePath,
        label: rule.description || `${rule.source} rule ${rule.name}`,
      });
  return entries.sort((a, b) => compareCodeUnits(a.path, b.path));
}

/** `nested` of the step when set, else of the agent, else true. */
function nestedFlag(context: ResolverContext, selection: Selection): boolean {
  const agentNested =
    selection.agent === undefined ? undefined : context.config.agents[selection.agent]?.context?.nested;
  return selection.step?.context?.nested ?? agentNested ?? true;
}
