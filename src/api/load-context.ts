import path from 'node:path';
import { loadConfig, parseConfig, type LazyLoadedConfig, type LoadedConfig } from '../config/load-config.js';
import { DEFAULT_CONFIG } from '../config/defaults.js';
import type { ConfigInput } from '../config/schema.js';
import type { Config, Flow } from '../config/types.js';
import { CtxfilesError, type Diagnostic } from '../errors.js';
import { errorCode, type FileSystem } from '../fs/file-system.js';
import { createNodeFileSystem } from '../fs/node-file-system.js';
import { loadTokenCounter, type TokenCounter } from '../render/count-tokens.js';
import { homeDirectory } from '../fs/home-dir.js';
import type { HostRegistry } from '../registry/registry.js';

/** Options of {@link createResolver}. */
export interface ResolverOptions {
  /** The directory the agent works in. Default: the process's cwd. */
  readonly workDir?: string;
  /**
   * The config: what `loadConfig` returns (flows loaded or lazy), or a config object written in
   * code, whole or partial (`{ contextPaths: ['AGENTS.md'] }`), which is validated and completed
   * with the defaults exactly like a file (`parseConfig`). Default: `loadConfig({ cwd: workDir, fs })`,
   * searching through the given filesystem; its flow files are read when a request names a flow.
   */
  readonly config?: LoadedConfig | LazyLoadedConfig | Config | ConfigInput;
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

/** {@link ResolverOptions} with every default applied, and the host registry handed down. */
type NormalizedOptions = Required<Omit<ResolverOptions, 'config' | 'flows' | 'userConfig'>> &
  Pick<ResolverOptions, 'config' | 'flows' | 'userConfig'> & { readonly hosts: HostRegistry };

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
  /** The config file, as loaded (absolute); `null` for defaults or a config object. For messages. */
  readonly configFile: string | null;
  /** The hosts presets and formats come from, handed down by the composition root. */
  readonly hosts: HostRegistry;
  /**
   * Whether the project's config is trusted (docs/security.md, "Trust tiers"). `untrusted` for a
   * plain {@link Config} object: the object's keys are trusted, the project's files are not.
   */
  readonly trust: {
    readonly project: 'trusted' | 'untrusted';
    readonly ceiling?: string | undefined;
    /** Glob patterns a project-tier layer set, with their files' directories (ConfigTrust). */
    readonly projectGlobs?: Readonly<Record<string, string>> | undefined;
  };
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

/**
 * Applies the documented defaults once; the result is never mutated. The config itself is
 * normalized (validated, defaults applied) by {@link loadContext}, which may need to read files.
 * @throws CtxfilesError `usage` for options of the wrong type (an embedder's mistake, named).
 */
export function normalizeOptions(options: Readonly<ResolverOptions>, hosts: HostRegistry): NormalizedOptions {
  const wrong = (key: string, expected: string): never => {
    throw new CtxfilesError('usage', `createResolver: options.${key} must be ${expected}`);
  };
  if (options.workDir !== undefined && typeof options.workDir !== 'string') wrong('workDir', 'a string');
  if (options.homeDir !== undefined && typeof options.homeDir !== 'string') wrong('homeDir', 'a string');
  if (options.env !== undefined && (typeof options.env !== 'object' || options.env === null))
    wrong('env', 'an object');
  if (options.config !== undefined && (typeof options.config !== 'object' || options.config === null))
    wrong('config', 'an object');
  if (options.flows !== undefined && !(options.flows instanceof Map)) wrong('flows', 'a Map');
  return {
    workDir: options.workDir ?? process.cwd(),
    config: options.config,
    flows: options.flows,
    fs: options.fs ?? createNodeFileSystem(),
    env: Object.assign(Object.create(null) as object, options.env ?? process.env),
    homeDir: path.resolve(options.homeDir ?? homeDirectory()),
    userConfig: options.userConfig,
    hosts,
  } satisfies NormalizedOptions;
}

/**
 * The first step of the pipeline: checks the work dir, loads the config when none is given, and
 * the token counter when the budget needs one.
 * @throws CtxfilesError `workdir-invalid`, and the codes of `loadConfig` when it loads the config.
 */
export async function loadContext(options: NormalizedOptions): Promise<ResolverContext> {
  const { fs, env, homeDir, hosts } = options;
  const workDir = canonicalWorkDir(fs, options.workDir);
  const given = options.config;
  const loaded: LoadedConfig | LazyLoadedConfig | { config: Config; diagnostics: readonly Diagnostic[] } =
    given === undefined
      ? await loadConfig(
          { cwd: workDir, fs, env, homeDir, userConfig: options.userConfig, lazyFlows: true },
          hosts,
        )
      : isLoadedConfig(given)
        ? given
        : isNormalizedConfig(given)
          ? { config: given, diagnostics: [] }
          : await parseConfig(given, hosts);
  const { config } = loaded;
  return {
    fs,
    workDir,
    // `instructions.workDirPath: real` shows paths as a host that takes its cwd from the OS does.
    spelledWorkDir: config.instructions.workDirPath === 'real' ? workDir : path.resolve(options.workDir),
    homeDir,
    env,
    config,
    configFile: 'filepath' in loaded ? loaded.filepath : null,
    hosts,
    trust: ('trust' in loaded ? loaded.trust : undefined) ?? { project: 'untrusted' },
    configDiagnostics: loaded.diagnostics,
    flows: flowSource(loaded, options.flows, { fs, workDir }),
    countTokens: config.budget.maxTokens === null ? null : await loadTokenCounter(),
    trusted: trustOf(loaded),
  };
}

/**
 * Whether a config may widen reads. A plain {@link Config} comes from the caller (trusted); a
 * loaded one is trusted when its loader marked it so (`trust.project`), otherwise not.
 */
function trustOf(loaded: object): boolean {
  // A config written in code (normalized or parsed here) has no loader's mark: the caller's keys.
  if (!('filepath' in loaded)) return true;
  const trust = (loaded as { readonly trust?: { readonly project?: unknown } }).trust;
  return trust?.project === 'trusted' || trust?.project === true;
}

/** A config `loadConfig` or `parseConfig` already normalized: frozen, every section present. */
function isNormalizedConfig(value: object): value is Config {
  return Object.isFrozen(value) && Object.keys(DEFAULT_CONFIG).every((key) => Object.hasOwn(value, key));
}

/** What `loadConfig` returned, as opposed to a config object written in code. */
function isLoadedConfig(value: object): value is LoadedConfig | LazyLoadedConfig {
  return 'config' in value && 'diagnostics' in value && 'filepath' in value;
}

/**
 * One way to get flows, whatever form the config came in. A config object written in code keeps
 * its `flows` globs (the defaults, or those of a loaded config it was spread from): without a
 * `flows` map they are read from the work dir, on first use, as a config file's are from its folder.
 */
function flowSource(
  loaded: LoadedConfig | LazyLoadedConfig | { config: Config },
  given: ReadonlyMap<string, Flow> | undefined,
  where: { readonly fs: FileSystem; readonly workDir: string },
): () => Promise<ReadonlyMap<string, Flow>> {
  if ('loadFlows' in loaded) return loaded.loadFlows;
  if ('flows' in loaded) return () => Promise.resolve(loaded.flows);
  if (given !== undefined) return () => Promise.resolve(given);
  let flows: Promise<ReadonlyMap<string, Flow>> | undefined;
  return () =>
    (flows ??= import('../config/load-flows.js').then(({ loadFlows }) =>
      loadFlows({
        root: where.workDir,
        globs: loaded.config.flows,
        display: (file) => path.relative(where.workDir, file) || file,
        fs: where.fs,
      }),
    ));
}

/**
 * The real path of a work dir that must be a directory (also `ctxfiles doctor`'s check).
 * @throws CtxfilesError `workdir-invalid` when it cannot be used or is not a directory.
 */
export function canonicalWorkDir(fs: FileSystem, dir: string): string {
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
