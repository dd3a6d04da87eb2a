import os from 'node:os';
import path from 'node:path';
import { loadConfig, type LazyLoadedConfig, type LoadedConfig } from '../config/load-config.js';
import type { Config, Flow } from '../config/types.js';
import { CtxfilesError, type Diagnostic } from '../errors.js';
import { errorCode, type FileSystem } from '../fs/file-system.js';
import { createNodeFileSystem } from '../fs/node-file-system.js';
import { loadTokenCounter, type TokenCounter } from '../render/count-tokens.js';

/** Options of {@link createResolver}. */
export interface ResolverOptions {
  /** The directory the agent works in. Default: the process's cwd. */
  readonly workDir?: string;
  /**
   * The config: what `loadConfig` returns (flows loaded or lazy), or a validated {@link Config}.
   * Default: `loadConfig({ cwd: workDir, fs })`, searching through the given filesystem.
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
  /**
   * The user config when the config is loaded here (`loadConfig`'s `userConfig`): a file, `null`
   * for none. Default: the standard location, when it exists.
   */
  readonly userConfig?: string | null;
}

/** {@link ResolverOptions} with every default applied. */
type NormalizedOptions = Required<Omit<ResolverOptions, 'config' | 'flows' | 'userConfig'>> &
  Pick<ResolverOptions, 'config' | 'flows' | 'userConfig'>;

/** Everything the pipeline reads, fixed for the life of a resolver. */
export interface ResolverContext {
  readonly fs: FileSystem;
  /** Canonical (real) work dir. */
  readonly workDir: string;
  /** The work dir as the caller spelled it (absolute); differs from `workDir` under a symlinked cwd. */
  readonly spelledWorkDir: string;
  readonly homeDir: string;
  /** A null-prototype copy: `${env.constructor}` finds nothing. */
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly config: Config;
  /**
   * Whether the project's config is trusted (docs/security.md, "Trust tiers"). `untrusted` for a
   * plain {@link Config} object: the object's keys are trusted, the project's files are not.
   */
  readonly trust: { readonly project: 'trusted' | 'untrusted' };
  /** What loading the config noticed; the first diagnostics of every result. */
  readonly configDiagnostics: readonly Diagnostic[];
  /** The flows, read on first call when the config was loaded with `lazyFlows`. */
  readonly flows: () => Promise<ReadonlyMap<string, Flow>>;
  /** Present when the budget counts tokens. */
  readonly countTokens: TokenCounter | null;
  /**
   * True when the config may widen reads (imports outside the containment root): a config object
   * passed to the API, or a loaded config whose `trust.project` says so. A config found in the
   * project without that mark is not trusted.
   */
  readonly trusted: boolean;
}

/** Applies the documented defaults once; the result is never mutated. */
export function normalizeOptions(options: Readonly<ResolverOptions>): NormalizedOptions {
  return {
    workDir: options.workDir ?? process.cwd(),
    config: options.config,
    flows: options.flows,
    fs: options.fs ?? createNodeFileSystem(),
    env: Object.assign(Object.create(null) as object, options.env ?? process.env),
    homeDir: path.resolve(options.homeDir ?? os.homedir()),
    userConfig: options.userConfig,
  } satisfies NormalizedOptions;
}

/**
 * The first step of the pipeline: checks the work dir, loads the config when none is given, and
 * the token counter when the budget needs one.
 * @throws CtxfilesError `workdir-invalid`, and the codes of `loadConfig` when it loads the config.
 */
export async function loadContext(options: NormalizedOptions): Promise<ResolverContext> {
  const { fs, env, homeDir } = options;
  const workDir = canonicalWorkDir(fs, options.workDir);
  const loaded =
    options.config ?? (await loadConfig({ cwd: workDir, fs, env, homeDir, userConfig: options.userConfig }));
  const config: Config = 'config' in loaded ? loaded.config : loaded;
  return {
    fs,
    workDir,
    spelledWorkDir: path.resolve(options.workDir),
    homeDir,
    env,
    config,
    trust: ('config' in loaded ? loaded.trust : undefined) ?? { project: 'untrusted' },
    configDiagnostics: 'config' in loaded ? loaded.diagnostics : [],
    flows: flowSource(loaded, options.flows),
    countTokens: config.budget.maxTokens === null ? null : await loadTokenCounter(),
    trusted: trustOf(loaded),
  };
}

/**
 * Whether a config may widen reads. A plain {@link Config} comes from the caller (trusted); a
 * loaded one is trusted when its loader marked it so (`trust.project`), otherwise not.
 */
function trustOf(loaded: LoadedConfig | LazyLoadedConfig | Config): boolean {
  if (!('config' in loaded)) return true;
  const trust = (loaded as { readonly trust?: { readonly project?: unknown } }).trust;
  return trust?.project === 'trusted' || trust?.project === true;
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
