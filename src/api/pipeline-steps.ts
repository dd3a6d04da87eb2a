import type { Format } from '../config/types.js';
import type { NestedFile, NestedIndex } from '../discover/nested-index.js';
import type { Diagnostic } from '../errors.js';
import { findProjectRoot } from '../discover/chain-walk.js';
import { collectSources } from '../resolve/collect-files.js';
import { expandFileImports } from '../resolve/expand-file-imports.js';
import { planResolution, type ResolutionPlan, type Selection } from '../resolve/plan-resolution.js';
import type { ContextFile } from '../resolve/read-context-file.js';
import type { ResolverContext } from './load-context.js';
import type { MemoTable } from './memo.js';
import { nestedBasenames, nestedForPlan } from './nested-for-plan.js';
import { renderBlock } from './render-block.js';
import { selectRequest, type ResolveRequest } from './select-request.js';

/**
 * The steps of a resolution after `loadContext`, in order: plan → discover → collect → render.
 * `createResolver` (create-resolver.ts) runs them; each takes the memo table it fills.
 */

/** What `plan` decided: who is asking, and the layers and entries that apply. */
export interface Planned {
  readonly selection: Selection;
  readonly plan: ResolutionPlan;
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
  return { selection, plan: planResolution(config, selection, context.env, context.workDir, onUnknownMode) };
}

/**
 * discover: the nested files below the work dir with the names the plan uses; one walk per set
 * of names (the `walks` table). `null` when the request or the config turns disclosure off.
 * Discovery modules load on the first request that needs them.
 */
export async function discover(
  context: ResolverContext,
  planned: Planned,
  wanted: boolean,
  walks: MemoTable<NestedIndex>,
): Promise<NestedIndex | null> {
  const discovery = context.config.contextDiscovery;
  if (!wanted || !discovery.enabled || !nestedFlag(context, planned.selection)) return null;
  const { buildNestedIndex } = await import('../discover/nested-index.js');
  const basenames = nestedBasenames(planned.plan, context.config.instructions);
  return walks([...basenames].sort().join('\0'), () =>
    buildNestedIndex(context.fs, context.workDir, basenames, discovery),
  );
}

/** collect: reads the files of a plan (user file, chain, layers, extras; ordered and deduped). */
export function collect(
  context: ResolverContext,
  plan: ResolutionPlan,
  table: MemoTable<Collected>,
): Collected {
  return table(plan.key, () => {
    const diagnostics: Diagnostic[] = [];
    const { fs, workDir, homeDir, config, env } = context;
    const layerRoot = contextRootOf(context, diagnostics);
    const collected = collectSources(
      fs,
      workDir,
      plan,
      { instructions: config.instructions, homeDir, env, layerRoot },
      diagnostics,
    );
    const files = expandFileImports(
      fs,
      collected.files,
      {
        imports: config.imports ?? { enabled: false, maxDepth: 5, mode: 'entries' },
        symlinks: config.instructions.symlinks ?? 'inside',
        trustOutside: context.trusted,
        homeDir,
        rootOf: (file) => (file.source === 'chain' ? (collected.chainStart ?? workDir) : layerRoot),
      },
      diagnostics,
    );
    return { files: Object.freeze(files), diagnostics };
  });
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
  return root;
}

/** render: the block in `format`, within the budget. */
export function render(
  context: ResolverContext,
  key: string,
  collected: Collected,
  format: Format,
  table: MemoTable<Rendered>,
): Rendered {
  return table(`${format}\0${key}`, () => {
    const { workDir, homeDir, config } = context;
    const block = renderBlock(
      format,
      collected.files,
      { workDir, homeDir, wording: config.wording },
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
): Promise<Disclosed> {
  if (walk === null) return NOTHING_DISCLOSED;
  return table(key, async () => {
    const [{ groupByOwner }, { renderManifest }] = await Promise.all([
      import('../discover/nested-index.js'),
      import('../render/render-manifest.js'),
    ]);
    const { instructions, contextDiscovery } = context.config;
    const inlined = new Set(collected.files.map((file) => file.realPath));
    const kept: NestedFile[] = nestedForPlan(walk.files, instructions, inlined);
    const index: NestedIndex =
      kept.length === walk.files.length ? walk : { ...walk, files: kept, byOwner: groupByOwner(kept) };
    const manifest = renderManifest(
      kept.map((file) => ({ path: file.relativePath, label: file.label })),
      { maxBytes: contextDiscovery.maxManifestBytes, truncatedAt: walk.truncatedAt },
    );
    return { index, manifest, diagnostics: walk.diagnostics };
  });
}

/** `nested` of the step when set, else of the agent, else true. */
function nestedFlag(context: ResolverContext, selection: Selection): boolean {
  const agentNested =
    selection.agent === undefined ? undefined : context.config.agents[selection.agent]?.context?.nested;
  return selection.step?.context?.nested ?? agentNested ?? true;
}
