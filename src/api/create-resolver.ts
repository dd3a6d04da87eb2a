import os from 'node:os';
import path from 'node:path';
import { loadConfig, type LazyLoadedConfig, type LoadedConfig } from '../config/load-config.js';
import type { Config, Flow, Format } from '../config/types.js';
import type { NestedFile, NestedIndex } from '../discover/nested-index.js';
import { CtxfilesError, type Diagnostic } from '../errors.js';
import { errorCode, type FileSystem } from '../fs/file-system.js';
import { createNodeFileSystem } from '../fs/node-file-system.js';
import { loadTokenCounter } from '../render/count-tokens.js';
import { collectFiles } from '../resolve/collect-files.js';
import { planResolution, type ResolutionPlan, type Selection } from '../resolve/plan-resolution.js';
import type { ContextFile } from '../resolve/read-context-file.js';
import type { DisclosureState, TrackedRecord } from '../session/disclosure.js';
import type { ToolEvent } from '../session/triggers.js';
import { nestedBasenames, nestedForPlan } from './nested-for-plan.js';
import { renderBlock } from './render-block.js';
import { selectRequest, type ResolveRequest } from './select-request.js';

/** Options of {@link createResolver}. */
export interface ResolverOptions {
  /** The directory the agent works in. Default: the process's cwd. */
  readonly workDir?: string;
  /**
   * The config: what `loadConfig` returns (flows loaded or lazy), or a validated {@link Config}.
   * Default: `loadConfig({ cwd: workDir })` (which reads the real disk).
   */
  readonly config?: LoadedConfig | LazyLoadedConfig | Config;
  /** Flows by id, when `config` is a plain {@link Config}. */
  readonly flows?: ReadonlyMap<string, Flow>;
  /** The filesystem port. Default: Node's. */
  readonly fs?: FileSystem;
  /** Values for `${env.VAR}`, read once. Default: `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** The user's home directory, for `~` in paths and in displayed paths. Default: `os.homedir()`. */
  readonly homeDir?: string;
}

/** One context file in a result: provenance and content. */
export type ResolvedFile = ContextFile;

/** The outcome of {@link Resolver.resolve}. Frozen; the same object is returned for the same request. */
export interface ResolveResult {
  readonly workDir: string;
  readonly agent: string | null;
  readonly flow: { readonly id: string; readonly step: string } | null;
  /** The files shown in `text`, in order (a file cut by the budget is listed with its full text). */
  readonly files: readonly ResolvedFile[];
  /** The format `text` is rendered in. */
  readonly format: Format;
  /** The rendered block. Empty when no file resolved (`magi` then says so). */
  readonly text: string;
  /** The nested-file manifest; empty when there is nothing nested or disclosure is off. */
  readonly manifest: string;
  /** The nested files the manifest lists, which sessions disclose. */
  readonly nested: readonly NestedFile[];
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
  /**
   * The flows by id (read from disk on first call when the config was loaded with `lazyFlows`).
   * @throws CtxfilesError with a `flow-*` code.
   */
  flows(): Promise<ReadonlyMap<string, Flow>>;
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
  /** Every file resolved, before the budget. */
  readonly resolved: readonly ResolvedFile[];
  /** The files shown. */
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
  const flows = flowSource(loaded, options.flows);
  const configDiagnostics: readonly Diagnostic[] = 'config' in loaded ? loaded.diagnostics : [];
  const env: Record<string, string | undefined> = Object.assign(
    Object.create(null) as object,
    options.env ?? process.env,
  );
  const homeDir = path.resolve(options.homeDir ?? os.homedir());
  const discovery = config.contextDiscovery;
  const { instructions, budget, wording } = config;
  const countTokens = budget.maxTokens === null ? null : await loadTokenCounter();

  const byRequest = new Map<
    string,
    { result: ResolveResult; plan: ResolutionPlan; disclosed: Disclosed; rendered: Rendered; format: Format }
  >();
  const byPlan = new Map<string, Rendered>();
  const byNested = new Map<string, Disclosed>();
  const walks = new Map<string, NestedIndex>();
  const warnedModes = new Set<string>();

  const onUnknownMode = (mode: string, layer: string): Diagnostic | undefined => {
    if (warnedModes.has(mode)) return undefined;
    warnedModes.add(mode);
    return {
      level: 'warn',
      code: 'unknown-mode',
      message: `unknown mode ${JSON.stringify(mode)} on the ${layer} layer acts as "append" (known modes: replace, append)`,
      layer,
    };
  };

  const collected = new Map<string, { files: readonly ResolvedFile[]; diagnostics: readonly Diagnostic[] }>();

  function render(plan: ResolutionPlan, format: Format): Rendered {
    const key = `${format}\0${plan.key}`;
    let rendered = byPlan.get(key);
    if (rendered !== undefined) return rendered;
    let sources = collected.get(plan.key);
    if (sources === undefined) {
      const diagnostics: Diagnostic[] = [];
      sources = {
        files: Object.freeze(collectFiles(fs, workDir, plan, { instructions, homeDir }, diagnostics)),
        diagnostics,
      };
      collected.set(plan.key, sources);
    }
    const block = renderBlock(format, sources.files, { workDir, homeDir, wording }, budget, countTokens);
    rendered = {
      resolved: sources.files,
      files: block.files,
      text: block.text,
      diagnostics: [...sources.diagnostics, ...block.diagnostics],
    };
    byPlan.set(key, rendered);
    return rendered;
  }

  /** The nested index and manifest for a plan, without the files the plan already inlines. */
  async function disclose(plan: ResolutionPlan, rendered: Rendered, nested: boolean): Promise<Disclosed> {
    if (!nested) return { index: null, manifest: '', diagnostics: [] };
    const key = plan.key;
    let disclosed = byNested.get(key);
    if (disclosed !== undefined) return disclosed;
    // Discovery modules load on the first request that needs a manifest.
    const [{ buildNestedIndex, groupByOwner }, { renderManifest }] = await Promise.all([
      import('../discover/nested-index.js'),
      import('../render/render-manifest.js'),
    ]);
    const basenames = nestedBasenames(plan, instructions);
    const walkKey = [...basenames].sort().join('\0');
    let walk = walks.get(walkKey);
    if (walk === undefined) {
      walk = buildNestedIndex(fs, workDir, basenames, discovery);
      walks.set(walkKey, walk);
    }
    const kept = nestedForPlan(
      walk.files,
      instructions,
      new Set(rendered.resolved.map((file) => file.realPath)),
    );
    const index: NestedIndex =
      kept.length === walk.files.length ? walk : { ...walk, files: kept, byOwner: groupByOwner(kept) };
    const manifest = renderManifest(
      kept.map((file) => ({ path: file.relativePath, label: file.label })),
      { maxBytes: discovery.maxManifestBytes, truncatedAt: walk.truncatedAt },
    );
    disclosed = { index, manifest, diagnostics: walk.diagnostics };
    byNested.set(key, disclosed);
    return disclosed;
  }

  const keyOf = (request: Readonly<ResolveRequest>) =>
    `${request.agent ?? ''}\0${request.flow ?? ''}\0${request.step ?? ''}\0${request.format ?? config.format}\0${request.manifest === false ? 0 : 1}`;

  async function lookup(request: Readonly<ResolveRequest>) {
    const requestKey = keyOf(request);
    const memo = byRequest.get(requestKey);
    if (memo !== undefined) return memo;
    const format = request.format ?? config.format;

    // Flow files are read only when the request needs them: a flow, or an agent the config does not define.
    const needsFlows =
      request.flow !== undefined ||
      request.step !== undefined ||
      (request.agent !== undefined && !Object.hasOwn(config.agents, request.agent));
    const selection = selectRequest(config, needsFlows ? await flows() : new Map(), request);
    const plan = planResolution(config, selection, env, workDir, onUnknownMode);
    const rendered = render(plan, format);
    const disclosed = await disclose(
      plan,
      rendered,
      request.manifest !== false && discovery.enabled && nestedFlag(config, selection),
    );
    const result: ResolveResult = Object.freeze({
      workDir,
      agent: selection.agent ?? null,
      flow:
        selection.flow && selection.step
          ? Object.freeze({ id: selection.flow.id, step: selection.step.id })
          : null,
      files: rendered.files,
      format,
      text: rendered.text,
      manifest: disclosed.manifest,
      nested: disclosed.index?.files ?? [],
      diagnostics: Object.freeze([
        ...configDiagnostics,
        ...plan.diagnostics,
        ...rendered.diagnostics,
        ...disclosed.diagnostics,
      ]),
    });
    const entry = { result, plan, disclosed, rendered, format };
    byRequest.set(requestKey, entry);
    return entry;
  }

  async function openSession(sessionOptions: Readonly<SessionOptions> = {}): Promise<Session> {
    const resumed =
      sessionOptions.state === undefined
        ? null
        : (await import('../session/session-state.js')).parseSessionState(sessionOptions.state);
    const { disclosed, rendered, format } = await lookup({ ...sessionOptions, manifest: true });
    const baseline = rendered.files.map((file): TrackedRecord => ({
      path: file.path,
      sha256: file.sha256,
      size: file.bytes,
      mtimeMs: file.mtimeMs,
      scope: file.source === 'chain' ? path.dirname(file.path) : null,
      removed: false,
    }));
    const { createDisclosure } = await import('../session/disclosure.js');
    const { toolTable } = await import('../session/tool-table.js');
    const disclosure = createDisclosure(
      {
        fs,
        workDir,
        homeDir,
        index: disclosed.index,
        maxFileBytes: discovery.maxFileBytes,
        maxSessionBytes: discovery.maxSessionBytes,
        format,
        wording,
        tracking: { enabled: instructions.trackChanges, candidates: instructions.candidates },
        baseline,
        tools: toolTable(config.session?.tools),
      },
      resumed,
    );
    const diagnostics: Diagnostic[] = [];
    return {
      diagnostics,
      async afterTool(event) {
        let outcome;
        try {
          outcome = disclosure.afterTool(event);
        } catch (error) {
          // A context file must never fail a tool call.
          outcome = {
            text: '',
            diagnostics: [
              { level: 'warn' as const, code: 'internal', message: `disclosure failed: ${String(error)}` },
            ],
          };
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
    resolve: async (request: Readonly<ResolveRequest> = {}) => {
      const memo = byRequest.get(keyOf(request));
      return memo !== undefined ? memo.result : (await lookup(request)).result;
    },
    openSession,
    refresh() {
      byRequest.clear();
      byPlan.clear();
      collected.clear();
      byNested.clear();
      walks.clear();
    },
  });
}

/** One way to get flows, whatever form the config came in. */
function flowSource(
  loaded: LoadedConfig | LazyLoadedConfig | Config,
  given: ReadonlyMap<string, Flow> | undefined,
): () => Promise<ReadonlyMap<string, Flow>> {
  if ('loadFlows' in loaded) return loaded.loadFlows;
  const flows = 'config' in loaded ? loaded.flows : (given ?? new Map());
  return () => Promise.resolve(flows);
}

/** `nested` of the step when set, else of the agent, else true. */
function nestedFlag(config: Config, selection: Selection): boolean {
  const agentNested =
    selection.agent === undefined ? undefined : config.agents[selection.agent]?.context?.nested;
  return selection.step?.context?.nested ?? agentNested ?? true;
}

function canonicalWorkDir(fs: FileSystem, dir: string): string {
  let real: string;
  let kind: string;
  try {
    real = fs.realpath(dir);
    kind = fs.stat(real).kind;
  } catch (error) {
    throw new CtxfilesError('workdir-invalid', `the work dir ${dir} cannot be used (${errorCode(error)})`, {
      cause: error,
    });
  }
  if (kind !== 'directory')
    throw new CtxfilesError('workdir-invalid', `the work dir ${dir} is not a directory`);
  return real;
}
