import { loadConfig, type LoadedConfig } from '../config/load-config.js';
import type { Config, Flow } from '../config/types.js';
import { buildNestedIndex, groupByOwner, type NestedIndex } from '../discover/nested-index.js';
import { CtxfilesError, type Diagnostic } from '../errors.js';
import { errorCode, type FileSystem } from '../fs/file-system.js';
import { createNodeFileSystem } from '../fs/node-file-system.js';
import { renderManifest } from '../render/render-manifest.js';
import { renderOpencode } from '../render/render-opencode.js';
import { collectFiles } from '../resolve/collect-files.js';
import { planResolution, type ResolutionPlan, type Selection } from '../resolve/plan-resolution.js';
import type { ContextFile } from '../resolve/read-context-file.js';
import { createDisclosure, emptyDisclosureState, type DisclosureState } from '../session/disclosure.js';
import { parseSessionState } from '../session/session-state.js';
import type { ToolEvent } from '../session/triggers.js';
import { selectRequest, type ResolveRequest } from './select-request.js';

/** Options of {@link createResolver}. */
export interface ResolverOptions {
  /** The directory the agent works in. Default: the process's cwd. */
  readonly workDir?: string;
  /**
   * The config: a {@link LoadedConfig} from `loadConfig`, or a validated {@link Config}.
   * Default: `loadConfig({ cwd: workDir })` (which reads the real disk).
   */
  readonly config?: LoadedConfig | Config;
  /** Flows by id, when `config` is a plain {@link Config}. */
  readonly flows?: ReadonlyMap<string, Flow>;
  /** The filesystem port. Default: Node's. */
  readonly fs?: FileSystem;
  /** Values for `${env.VAR}`, read once. Default: `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/** One context file in a result: provenance and content. */
export type ResolvedFile = ContextFile;

/** The outcome of {@link Resolver.resolve}. Frozen; the same object is returned for the same request. */
export interface ResolveResult {
  readonly workDir: string;
  readonly agent: string | null;
  readonly flow: { readonly id: string; readonly step: string } | null;
  readonly files: readonly ResolvedFile[];
  /** The rendered block (`opencode` format). Empty when no file resolved. */
  readonly text: string;
  /** The nested-file manifest; empty when there is nothing nested or disclosure is off. */
  readonly manifest: string;
  /** Every diagnostic of this resolution, all levels. */
  readonly diagnostics: readonly Diagnostic[];
}

/** Options of {@link Resolver.openSession}. */
export interface SessionOptions extends ResolveRequest {
  /** A state saved from `session.state()`, to resume. */
  readonly state?: unknown;
  /** Called with every diagnostic the session produces. */
  readonly onDiagnostic?: (diagnostic: Diagnostic) => void;
}

/** What one agent run has been shown. Subagents open their own session. */
export interface Session {
  /**
   * Reports a finished tool call; resolves to the text to append to its result (empty when
   * nothing is due). Never rejects because of a context file.
   */
  afterTool(event: Readonly<ToolEvent>): Promise<string>;
  /** The state as plain JSON, to store and resume with `openSession({ state })`. */
  state(): DisclosureState;
  /** Diagnostics produced so far by `afterTool`. */
  readonly diagnostics: readonly Diagnostic[];
}

/** Resolves context for agents and flow steps in one work dir, memoizing every render. */
export interface Resolver {
  /** Canonical work dir. */
  readonly workDir: string;
  readonly config: Config;
  readonly flows: ReadonlyMap<string, Flow>;
  /**
   * Resolves the context for a request. Byte-identical text for the life of the resolver.
   * @throws CtxfilesError `unknown-agent`, `unknown-flow`, `unknown-step` or `usage`.
   */
  resolve(request?: Readonly<ResolveRequest>): Promise<ResolveResult>;
  /**
   * Opens a disclosure session for a request.
   * @throws CtxfilesError as `resolve`, and `session-state-invalid` for a malformed `state`.
   */
  openSession(options?: Readonly<SessionOptions>): Promise<Session>;
  /** Forgets every memoized render and walk so the next call re-reads the files. */
  refresh(): void;
}

interface Rendered {
  readonly files: readonly ResolvedFile[];
  readonly text: string;
  readonly diagnostics: readonly Diagnostic[];
}

interface Disclosed {
  readonly index: NestedIndex | null;
  readonly manifest: string;
  readonly diagnostics: readonly Diagnostic[];
}

/**
 * Creates a resolver for one work dir.
 * @throws CtxfilesError `workdir-invalid` when the work dir does not exist or is not a directory,
 * and the config codes of `loadConfig` when the config is loaded here.
 */
export async function createResolver(options: Readonly<ResolverOptions> = {}): Promise<Resolver> {
  const fs = options.fs ?? createNodeFileSystem();
  const workDir = canonicalWorkDir(fs, options.workDir ?? process.cwd());
  const loaded = options.config ?? (await loadConfig({ cwd: workDir }));
  const config: Config = 'config' in loaded ? loaded.config : loaded;
  const flows: ReadonlyMap<string, Flow> = 'config' in loaded ? loaded.flows : (options.flows ?? new Map());
  const configDiagnostics: readonly Diagnostic[] = 'config' in loaded ? loaded.diagnostics : [];
  const env: Record<string, string | undefined> = Object.assign(Object.create(null) as object, options.env ?? process.env);
  const discovery = config.contextDiscovery;

  const byRequest = new Map<string, { result: ResolveResult; plan: ResolutionPlan; disclosed: Disclosed }>();
  const byPlan = new Map<string, Rendered>();
  const byNested = new Map<string, Disclosed>();
  const walks = new Map<string, NestedIndex>();
  const warnedModes = new Set<string>();

  const onUnknownMode = (mode: string, layer: string): Diagnostic | undefined => {
    if (warnedModes.has(mode)) return undefined;
    warnedModes.add(mode);
    return { level: 'warn', code: 'unknown-mode', message: `unknown mode ${JSON.stringify(mode)} on the ${layer} layer acts as "append" (known modes: replace, append)`, layer };
  };

  function render(plan: ResolutionPlan): Rendered {
    let rendered = byPlan.get(plan.key);
    if (rendered === undefined) {
      const diagnostics: Diagnostic[] = [];
      const files = Object.freeze(collectFiles(fs, workDir, plan, diagnostics));
      rendered = { files, text: renderOpencode(files), diagnostics };
      byPlan.set(plan.key, rendered);
    }
    return rendered;
  }

  /** The nested index and manifest for a plan, without the files the plan already inlines. */
  function disclose(plan: ResolutionPlan, rendered: Rendered, nested: boolean): Disclosed {
    if (!nested) return { index: null, manifest: '', diagnostics: [] };
    const key = plan.key;
    let disclosed = byNested.get(key);
    if (disclosed !== undefined) return disclosed;
    const basenames = new Set<string>();
    for (const layer of plan.layers) {
      for (const { expanded } of layer.entries) if (!expanded.endsWith('/')) basenames.add(expanded.slice(expanded.lastIndexOf('/') + 1));
    }
    const walkKey = [...basenames].sort().join('\0');
    let walk = walks.get(walkKey);
    if (walk === undefined) {
      walk = buildNestedIndex(fs, workDir, basenames, discovery);
      walks.set(walkKey, walk);
    }
    const inlined = new Set(rendered.files.map((file) => file.realPath));
    const kept = walk.files.filter((file) => !inlined.has(file.path));
    const index: NestedIndex = kept.length === walk.files.length ? walk : { ...walk, files: kept, byOwner: groupByOwner(kept) };
    const manifest = renderManifest(
      kept.map((file) => ({ path: file.relativePath, label: file.label })),
      { maxBytes: discovery.maxManifestBytes, truncatedAt: walk.truncatedAt },
    );
    disclosed = { index, manifest, diagnostics: walk.diagnostics };
    byNested.set(key, disclosed);
    return disclosed;
  }

  function lookup(request: Readonly<ResolveRequest>) {
    const requestKey = `${request.agent ?? ''}\0${request.flow ?? ''}\0${request.step ?? ''}`;
    const memo = byRequest.get(requestKey);
    if (memo !== undefined) return memo;

    const selection = selectRequest(config, flows, request);
    const plan = planResolution(config, selection, env, workDir, onUnknownMode);
    const rendered = render(plan);
    const disclosed = disclose(plan, rendered, discovery.enabled && nestedFlag(config, selection));
    const result: ResolveResult = Object.freeze({
      workDir,
      agent: selection.agent ?? null,
      flow: selection.flow && selection.step ? Object.freeze({ id: selection.flow.id, step: selection.step.id }) : null,
      files: rendered.files,
      text: rendered.text,
      manifest: disclosed.manifest,
      diagnostics: Object.freeze([...configDiagnostics, ...plan.diagnostics, ...rendered.diagnostics, ...disclosed.diagnostics]),
    });
    const entry = { result, plan, disclosed };
    byRequest.set(requestKey, entry);
    return entry;
  }

  async function openSession(sessionOptions: Readonly<SessionOptions> = {}): Promise<Session> {
    const initial = sessionOptions.state === undefined ? emptyDisclosureState() : parseSessionState(sessionOptions.state);
    const { disclosed } = lookup(sessionOptions);
    const disclosure = createDisclosure(fs, workDir, disclosed.index, discovery, initial);
    const diagnostics: Diagnostic[] = [];
    return {
      diagnostics,
      async afterTool(event) {
        let outcome;
        try {
          outcome = disclosure.afterTool(event);
        } catch (error) {
          // A context file must never fail a tool call.
          outcome = { text: '', diagnostics: [{ level: 'warn' as const, code: 'internal', message: `disclosure failed: ${String(error)}` }] };
        }
        for (const diagnostic of outcome.diagnostics) {
          diagnostics.push(diagnostic);
          sessionOptions.onDiagnostic?.(diagnostic);
        }
        return outcome.text;
      },
      state: () => disclosure.state(),
    };
  }

  return Object.freeze({
    workDir,
    config,
    flows,
    resolve: async (request: Readonly<ResolveRequest> = {}) => lookup(request).result,
    openSession,
    refresh() {
      byRequest.clear();
      byPlan.clear();
      byNested.clear();
      walks.clear();
    },
  });
}

/** `nested` of the step when set, else of the agent, else true. */
function nestedFlag(config: Config, selection: Selection): boolean {
  const agentNested = selection.agent === undefined ? undefined : config.agents[selection.agent]?.context?.nested;
  return selection.step?.context?.nested ?? agentNested ?? true;
}

function canonicalWorkDir(fs: FileSystem, dir: string): string {
  let real: string;
  let kind: string;
  try {
    real = fs.realpath(dir);
    kind = fs.stat(real).kind;
  } catch (error) {
    throw new CtxfilesError('workdir-invalid', `the work dir ${dir} cannot be used (${errorCode(error)})`, { cause: error });
  }
  if (kind !== 'directory') throw new CtxfilesError('workdir-invalid', `the work dir ${dir} is not a directory`);
  return real;
}
