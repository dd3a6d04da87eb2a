import { loadConfig, type LoadedConfig } from '../config/load-config.js';
import { DEFAULT_CONFIG } from '../config/defaults.js';
import type { Config, Flow } from '../config/types.js';
import { CtxfilesError, type Diagnostic } from '../errors.js';
import { errorCode, type FileSystem } from '../fs/file-system.js';
import { createNodeFileSystem } from '../fs/node-file-system.js';
import { collectFiles } from '../resolve/collect-files.js';
import { planResolution } from '../resolve/plan-resolution.js';
import type { ContextFile } from '../resolve/read-context-file.js';
import { renderOpencode } from '../render/render-opencode.js';
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
  /** The nested-file manifest. */
  readonly manifest: string;
  /** Every diagnostic of this resolution, all levels. */
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
  /** Forgets every memoized render so the next `resolve` re-reads the files. */
  refresh(): void;
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

  const byRequest = new Map<string, ResolveResult>();
  const byPlan = new Map<string, { files: readonly ResolvedFile[]; text: string; diagnostics: readonly Diagnostic[] }>();
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

  async function resolve(request: Readonly<ResolveRequest> = {}): Promise<ResolveResult> {
    const requestKey = `${request.agent ?? ''}\0${request.flow ?? ''}\0${request.step ?? ''}`;
    const memo = byRequest.get(requestKey);
    if (memo !== undefined) return memo;

    const selection = selectRequest(config, flows, request);
    const plan = planResolution(config, selection, env, workDir, onUnknownMode);
    let rendered = byPlan.get(plan.key);
    if (rendered === undefined) {
      const diagnostics: Diagnostic[] = [];
      const files = Object.freeze(collectFiles(fs, workDir, plan, diagnostics));
      rendered = { files, text: renderOpencode(files), diagnostics };
      byPlan.set(plan.key, rendered);
    }
    const result: ResolveResult = Object.freeze({
      workDir,
      agent: selection.agent ?? null,
      flow: selection.flow && selection.step ? Object.freeze({ id: selection.flow.id, step: selection.step.id }) : null,
      files: rendered.files,
      text: rendered.text,
      manifest: '',
      diagnostics: Object.freeze([...configDiagnostics, ...plan.diagnostics, ...rendered.diagnostics]),
    });
    byRequest.set(requestKey, result);
    return result;
  }

  return Object.freeze({
    workDir,
    config,
    flows,
    resolve,
    refresh() {
      byRequest.clear();
      byPlan.clear();
    },
  });
}

function canonicalWorkDir(fs: FileSystem, dir: string): string {
  let real: string;
  try {
    real = fs.realpath(dir);
  } catch (error) {
    throw new CtxfilesError('workdir-invalid', `the work dir ${dir} cannot be used (${errorCode(error)})`, { cause: error });
  }
  let kind: string;
  try {
    kind = fs.stat(real).kind;
  } catch (error) {
    throw new CtxfilesError('workdir-invalid', `the work dir ${dir} cannot be used (${errorCode(error)})`, { cause: error });
  }
  if (kind !== 'directory') throw new CtxfilesError('workdir-invalid', `the work dir ${dir} is not a directory`);
  return real;
}

export { DEFAULT_CONFIG };
