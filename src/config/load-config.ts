import path from 'node:path';
import { CtxfilesError, formatProblem, type Diagnostic } from '../errors.js';
import type { FileSystem } from '../fs/file-system.js';
import { createNodeFileSystem } from '../fs/node-file-system.js';
import { isInside } from '../fs/contain.js';
import { presetProfile, type PresetLookup } from '../registry/registry.js';
import { isPlainObject } from '../shared/is-plain-object.js';
import { capsAboveMaxima, normalizeConfig } from './normalize-config.js';
import {
  isTrustedProject,
  mergeLayers,
  sanitizeProfile,
  sanitizeProjectConfig,
  setsScope,
  type DroppedKey,
  type KeyLocator,
} from './trust.js';
import { relativeDisplay, requireSourceFile } from './read-source.js';
import type { ConfigInput } from './schema.js';
import { configNames, type Config, type ConfigNames, type Flow, type HostProfile } from './types.js';

import { globsOf, readHostSettings } from './host-settings.js';
import { homeDirectory } from '../fs/home-dir.js';
import { findUserConfig, searchConfig } from './config-search.js';
import { isQuickValid, plainSource, readConfig } from './read-config.js';

/** Options of {@link loadConfig}. */
export interface LoadConfigOptions {
  /** Directory the search starts in (the work dir). Default: the process's cwd. */
  readonly cwd?: string;
  /** An explicit config file (relative to `cwd`); it must exist. Skips the search. */
  readonly configFile?: string | undefined;
  /** Where the upward search stops (inclusive). Default: the user's home directory. */
  readonly stopDir?: string;
  /** Paths in messages are shown relative to this directory. Default: the process's cwd. */
  readonly displayCwd?: string;
  /**
   * Load flow files only when `loadFlows()` is first called, instead of now. The CLI uses it so
   * that commands without `--flow` never read them. Default false.
   */
  readonly lazyFlows?: boolean;
  /**
   * Always take the thorough path (YAML parser and zod) even for JSON that parses and validates,
   * so that duplicate keys are reported too. `ctxfiles validate` uses it. Default false: valid
   * JSON is read with `JSON.parse`, where a repeated key keeps its last value.
   */
  readonly thorough?: boolean;
  /**
   * The filesystem port config and flow files are read through. Default: Node's. Executable
   * configs (`.js`, `.ts`, ...) are imported from the real disk.
   */
  readonly fs?: FileSystem;
  /**
   * The user config (trusted tier). Default: `$XDG_CONFIG_HOME/ctxfiles/config.json`, else
   * `~/.config/ctxfiles/config.json`, used when it exists. A path names a file that must exist;
   * `null` means no user config (tests, sandboxes).
   */
  readonly userConfig?: string | null;
  /** Environment for the default user config location. Default: `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** The home directory (`~` in `trustedProjects`, default user config). Default: `os.homedir()`. */
  readonly homeDir?: string;
  /** A preset named by the caller (`--preset`); it wins over a `preset` key in any config. */
  readonly preset?: string | undefined;
  /**
   * Read the settings files of the preset's host (Codex's `config.toml`, ...) and layer them over
   * the preset (docs/presets.md, "Host settings"). Default true; false for sandboxes and tests.
   */
  readonly hostSettings?: boolean;
}

/** Where a part of the effective config came from, lowest precedence first. */
export interface ConfigLayer {
  /**
   * `preset` < `host` (the preset's host's own settings files) < `user` < `project` (found by the
   * search) < `explicit` (`--config` / `configFile`).
   */
  readonly tier: 'preset' | 'host' | 'user' | 'project' | 'explicit';
  /** Absolute path of the file, or the preset's name. */
  readonly source: string;
  /** Top-level keys this layer set (after a trust tier dropped any). */
  readonly keys: readonly string[];
}

/** Whether the project's own config is trusted (docs/security.md, "Trust tiers"). */
export interface ConfigTrust {
  /**
   * `trusted` when the user config lists a directory holding the work dir in `trustedProjects`:
   * then keys that read outside the project are honoured from the project config, and embedders
   * may let the project's files import from outside it. `untrusted` otherwise.
   */
  readonly project: 'trusted' | 'untrusted';
  /**
   * Set when an untrusted project config chose where instructions are looked for
   * (`SCOPE_KEYS` in trust.ts): its directory (real path). The chain walk and `contextRoot: project`
   * never climb above it.
   */
  readonly ceiling?: string;
  /**
   * The `instructions.globs` patterns that only a project-tier layer set (an untrusted project's
   * config, a preset it names, a host's project settings file), each with the directory of the
   * file that set it (real path): such a pattern matches only there and below, and its matches
   * are contained there (docs/security.md, "Trust tiers").
   */
  readonly projectGlobs?: Readonly<Record<string, string>>;
}

/** A validated config, its flows, and what loading noticed. */
export interface LoadedConfig {
  /**
   * Absolute path of the project or explicit config file, or `null` when none was found (the
   * user config and defaults apply).
   */
  readonly filepath: string | null;
  readonly config: Config;
  /** The layers merged into `config`, lowest precedence first. */
  readonly layers?: readonly ConfigLayer[];
  /** Keys a trust tier dropped, with the file that set them. */
  readonly dropped?: readonly DroppedKey[];
  readonly trust?: ConfigTrust;
  /** Flows by id. */
  readonly flows: ReadonlyMap<string, Flow>;
  /** Warnings such as unknown top-level keys, and info about shadowed config files. */
  readonly diagnostics: readonly Diagnostic[];
}

/** A config whose flows are read on first use. */
export interface LazyLoadedConfig extends Omit<LoadedConfig, 'flows'> {
  /**
   * Reads the flow files once and returns them (the same promise on every call).
   * @throws CtxfilesError with a `flow-*` code.
   */
  loadFlows(): Promise<ReadonlyMap<string, Flow>>;
}

/**
 * Finds, reads and validates the config and its flow files.
 * @returns the loaded config; defaults when no file is found.
 * @throws CtxfilesError `config-not-found` for a missing explicit file, `config-syntax` for a
 * malformed file, `config-invalid` for wrong values, and the `flow-*` codes for flow files.
 */
export async function loadConfig(
  options: Readonly<LoadConfigOptions> & { readonly lazyFlows: true },
  hosts: PresetLookup,
): Promise<LazyLoadedConfig>;
export async function loadConfig(
  options: Readonly<LoadConfigOptions>,
  hosts: PresetLookup,
): Promise<LoadedConfig>;
export async function loadConfig(
  options: Readonly<LoadConfigOptions>,
  hosts: PresetLookup,
): Promise<LoadedConfig | LazyLoadedConfig> {
  // The layering in its order: find and read the user config, then the project (or explicit) file
  // with its tier sanitized, merge both over the preset and its host's settings, clamp caps, then
  // wire the flows.
  const loading = startLoading(options, hosts);
  const { fs, cwd, homeDir, display } = loading;
  const userFile = findUserConfig(fs, options, homeDir, display);
  const user = userFile === null ? {} : await readLayer(loading, userFile);
  if (userFile !== null) loading.layers.push({ tier: 'user', source: userFile, keys: Object.keys(user) });
  const trusted = isTrustedProject(user['trustedProjects'], cwd, homeDir, (file) => fs.realpath(file));
  const project = await readProjectLayer(loading, options, trusted);
  const { merged, presetScope, profile } = await mergeOverPreset(
    loading,
    options,
    hosts,
    user,
    project,
    trusted,
  );

  for (const { keyPath, maximum } of capsAboveMaxima(merged)) {
    loading.diagnostics.push({
      level: 'warn',
      code: 'cap-clamped',
      message: `${keyPath}: lowered to ${maximum}, the most it may be (docs/security.md, "Caps")`,
    });
  }
  const config = normalizeConfig(merged as ConfigInput, profile);
  const { filepath, tier, own } = project;
  const ceiling =
    tier === 'project' && !trusted && filepath !== null && (setsScope(own) || presetScope)
      ? realDir(fs, path.dirname(filepath))
      : undefined;
  const projectGlobs = trusted ? {} : tieredGlobs(loading, user);
  const trust: ConfigTrust = {
    project: trusted ? 'trusted' : 'untrusted',
    ...(ceiling === undefined ? {} : { ceiling }),
    ...(Object.keys(projectGlobs).length === 0 ? {} : { projectGlobs }),
  };
  const { diagnostics, layers, dropped } = loading;
  const common = { filepath, config, diagnostics, layers, dropped, trust };
  const loadFlows = flowLoader(loading, filepath === null ? cwd : path.dirname(filepath), config);
  if (options.lazyFlows === true) return { ...common, loadFlows };
  return { ...common, flows: await loadFlows() };
}

/** A {@link loadConfig} call's {@link Loading}, with the options' defaults applied. */
function startLoading(options: Readonly<LoadConfigOptions>, hosts: PresetLookup): Loading {
  return {
    fs: options.fs ?? createNodeFileSystem(),
    cwd: path.resolve(options.cwd ?? process.cwd()),
    homeDir: options.homeDir ?? homeDirectory(),
    display: relativeDisplay(options.displayCwd ?? process.cwd()),
    thorough: options.thorough === true,
    names: configNames(hosts),
    diagnostics: [],
    layers: [],
    dropped: [],
    globs: [],
  };
}

/** What one {@link loadConfig} call reads through and collects as it goes. */
interface Loading {
  readonly fs: FileSystem;
  readonly cwd: string;
  readonly homeDir: string;
  readonly display: (file: string) => string;
  readonly thorough: boolean;
  /** The preset and format names of the host registry handed down. */
  readonly names: ConfigNames;
  readonly diagnostics: Diagnostic[];
  readonly layers: ConfigLayer[];
  readonly dropped: DroppedKey[];
  /** `instructions.globs` patterns by the tier of the layer that set them, with that layer's file. */
  readonly globs: Array<{ pattern: string; file: string | null; tier: 'trusted' | 'project' }>;
}

/**
 * The patterns only project-tier layers set, each with its file's directory (real path); a pattern
 * a trusted layer (the user config, `--config`, a preset it or a flag names, the user's host
 * settings) also set is the user's choice and matches as documented.
 */
function tieredGlobs(loading: Loading, user: Readonly<Record<string, unknown>>): Record<string, string> {
  const trusted = new Set(globsOf(user));
  for (const { pattern, tier } of loading.globs) if (tier === 'trusted') trusted.add(pattern);
  const roots: Record<string, string> = {};
  const cwd = realDir(loading.fs, loading.cwd);
  for (const { pattern, file, tier } of loading.globs) {
    if (tier !== 'project' || file === null || trusted.has(pattern) || Object.hasOwn(roots, pattern))
      continue;
    // A file in a config folder of the project (`.kilo/kilo.jsonc`) speaks for the directory
    // holding that folder: the nearest directory at or above the file's that holds the work dir.
    let dir = realDir(loading.fs, path.dirname(file));
    while (!isInside(dir, cwd) && path.dirname(dir) !== dir) dir = path.dirname(dir);
    roots[pattern] = dir;
  }
  return roots;
}

/** The project or explicit config file (`null`: none found) and its keys after its tier's sanitizing. */
interface ProjectLayer {
  readonly filepath: string | null;
  readonly tier: 'project' | 'explicit';
  readonly own: Record<string, unknown>;
}

/** Reads one config file of a layer (readConfig with the call's display, diagnostics and mode). */
function readLayer(loading: Loading, file: string): Promise<Record<string, unknown>> {
  return readConfig(loading, file, loading.display(file));
}

/**
 * The explicit `configFile`, else the config the search finds from the work dir: read, and for an
 * untrusted project with the keys that widen reads dropped (`trustedProjects` counts only in the
 * user config).
 */
async function readProjectLayer(
  loading: Loading,
  options: Readonly<LoadConfigOptions>,
  trusted: boolean,
): Promise<ProjectLayer> {
  const { fs, cwd, display, diagnostics } = loading;
  let filepath: string | null;
  let tier: 'project' | 'explicit';
  if (options.configFile !== undefined) {
    filepath = path.resolve(cwd, options.configFile);
    tier = 'explicit';
    requireSourceFile(fs, filepath, display(filepath), 'config');
  } else {
    const search = { refuseCode: !trusted, diagnostics, display };
    filepath = searchConfig(fs, cwd, options.stopDir ?? homeDirectory(), search);
    tier = 'project';
  }
  if (filepath === null) return { filepath, tier, own: {} };
  const own = await readLayer(loading, filepath);
  const shown = display(filepath);
  const sanitized =
    tier === 'project' && !trusted
      ? await sanitizePlaced(fs, own, filepath, shown, diagnostics)
      : Object.hasOwn(own, 'trustedProjects')
        ? sanitizeTrustedProjects(own, filepath, shown, diagnostics, await keyLocator(fs, filepath))
        : { value: own, dropped: [] };
  loading.dropped.push(...sanitized.dropped);
  loading.layers.push({ tier, source: filepath, keys: Object.keys(sanitized.value) });
  const globTier = tier === 'project' && !trusted ? 'project' : 'trusted';
  for (const pattern of globsOf(sanitized.value))
    loading.globs.push({ pattern, file: filepath, tier: globTier });
  return { filepath, tier, own: sanitized.value };
}

/**
 * The user and project layers merged over the preset that the options, the project or the user
 * config name. A preset has the tier of the layer that names it: named only by a project config
 * found by the search, the keys of it that widen reads are dropped as if the project had set them
 * (`presetScope`: what is left of it still sets the scope).
 */
async function mergeOverPreset(
  loading: Loading,
  options: Readonly<LoadConfigOptions>,
  hosts: PresetLookup,
  user: Record<string, unknown>,
  project: ProjectLayer,
  trusted: boolean,
): Promise<{
  merged: Record<string, unknown>;
  presetScope: boolean;
  profile: Readonly<Partial<HostProfile>>;
}> {
  const { filepath, tier, own } = project;
  const presetName = options.preset ?? presetOf(own) ?? presetOf(user);
  const presetFromProject =
    options.preset === undefined &&
    tier === 'project' &&
    !trusted &&
    presetOf(own) !== undefined &&
    presetOf(own) !== presetOf(user);
  const merged = mergeLayers(user, own);
  if (presetName === undefined) return { merged, presetScope: false, profile: {} };
  let preset = presetBase(hosts, presetName);
  let profile = presetProfile(hosts, presetName);
  let presetScope = false;
  if (presetFromProject && filepath !== null) {
    const shown = loading.display(filepath);
    const sanitized = sanitizeProjectConfig(preset, filepath, shown, loading.diagnostics, presetName);
    preset = sanitized.value;
    const bounded = sanitizeProfile(profile, filepath, shown, loading.diagnostics, presetName);
    profile = bounded.profile;
    loading.dropped.push(...sanitized.dropped, ...bounded.dropped);
    presetScope = setsScope(preset);
  }
  const presetTier = presetFromProject ? 'project' : 'trusted';
  for (const pattern of globsOf(preset)) loading.globs.push({ pattern, file: filepath, tier: presetTier });
  // The preset's host settings files (Codex's config.toml, …) sit between the preset and the configs.
  const host = await hostSettingsLayer(loading, options, hosts, presetName, preset, trusted);
  loading.layers.unshift({ tier: 'preset', source: presetName, keys: Object.keys(preset) });
  return { merged: mergeLayers(mergeLayers(preset, host ?? {}), merged), presetScope, profile };
}

/**
 * The merged host settings of a preset's host (Codex's config.toml, …), with their files, dropped
 * keys and globs recorded in `loading`; `undefined` when `hostSettings` is off.
 */
async function hostSettingsLayer(
  loading: Loading,
  options: Readonly<LoadConfigOptions>,
  hosts: PresetLookup,
  presetName: string,
  preset: Record<string, unknown>,
  trusted: boolean,
): Promise<Record<string, unknown> | undefined> {
  if (options.hostSettings === false) return undefined;
  const host = await readHostSettings(hosts.hostOfPreset(presetName)?.settings, presetName, preset, {
    fs: loading.fs,
    cwd: loading.cwd,
    homeDir: loading.homeDir,
    env: options.env ?? process.env,
    trusted,
    display: loading.display,
    diagnostics: loading.diagnostics,
  });
  loading.dropped.push(...host.dropped);
  for (const { pattern, file, tier } of host.globs)
    loading.globs.push({ pattern, file, tier: tier === 'project' && !trusted ? 'project' : 'trusted' });
  loading.layers.unshift(...host.files.map(({ source, keys }) => ({ tier: 'host' as const, source, keys })));
  return host.value;
}

/** Reads the flow files below `root` once, on the first call (the same promise on every call). */
function flowLoader(
  loading: Loading,
  root: string,
  config: Config,
): () => Promise<ReadonlyMap<string, Flow>> {
  const { display, fs } = loading;
  let flows: Promise<ReadonlyMap<string, Flow>> | undefined;
  return () => {
    flows ??= import('./load-flows.js').then((module) =>
      module.loadFlows({ root, globs: config.flows, display, fs }),
    );
    return flows;
  };
}

/**
 * {@link sanitizeProjectConfig} with each warning at its key's line and column: the file is read
 * again for them only when a key is dropped (the fast path keeps no positions).
 */
async function sanitizePlaced(
  fs: FileSystem,
  own: Record<string, unknown>,
  filepath: string,
  shown: string,
  diagnostics: Diagnostic[],
): Promise<ReturnType<typeof sanitizeProjectConfig>> {
  const first = sanitizeProjectConfig(own, filepath, shown, []);
  if (first.dropped.length === 0) return first;
  return sanitizeProjectConfig(own, filepath, shown, diagnostics, undefined, await keyLocator(fs, filepath));
}

/** Line and column of a key path in `file` (src/config/source-text.ts). */
async function keyLocator(fs: FileSystem, file: string): Promise<KeyLocator> {
  const { createKeyLocator } = await import('./source-text.js');
  const locate = createKeyLocator(fs);
  return (keyPath) => {
    const { line, column } = locate(file, keyPath);
    return line === undefined ? {} : { line, column };
  };
}

function realDir(fs: FileSystem, dir: string): string {
  try {
    return fs.realpath(dir);
  } catch {
    return dir;
  }
}

/**
 * Validates a config value that was not read from a file (an embedder's object), applying
 * defaults. Same checks and messages as {@link loadConfig}; `file` names it in messages.
 */
export async function parseConfig(
  value: unknown,
  hosts: PresetLookup,
  file = '<config>',
): Promise<{ config: Config; diagnostics: Diagnostic[] }> {
  const diagnostics: Diagnostic[] = [];
  // A config object built from a resolver's (`{ ...resolver.config, format }`, never a file) carries
  // the host profile its preset gave it, which no config key sets: it is kept as it is.
  let carried: Readonly<Partial<HostProfile>> = {};
  if (isPlainObject(value) && Object.hasOwn(value, 'profile')) {
    const { profile, ...rest } = value;
    if (isPlainObject(profile)) carried = profile as Partial<HostProfile>;
    value = rest;
  }
  // A `preset` key merges the value over that preset, as in a config file (docs/presets.md).
  const name = isPlainObject(value) ? presetOf(value) : undefined;
  const layered =
    name === undefined ? value : mergeLayers(presetBase(hosts, name), value as Record<string, unknown>);
  const profile = { ...(name === undefined ? {} : presetProfile(hosts, name)), ...carried };
  const names = configNames(hosts);
  const fast = quickConfig(layered, names, profile);
  if (fast !== null) return { config: fast, diagnostics };
  const { validateConfig } = await import('./validate-config.js');
  const config = validateConfig(layered, plainSource(file, value), [], diagnostics, names, profile);
  return { config, diagnostics };
}

/**
 * The config a preset stands for, with its own name kept (`preset`), ready to merge the user's
 * layers over. It has the tier of the layer that names it: `loadConfig` drops the keys that widen
 * reads from a preset only a project config names (docs/security.md, "Trust tiers").
 * @throws CtxfilesError `config-invalid` for a name that is not a preset.
 */
function presetBase(hosts: PresetLookup, name: string): Record<string, unknown> {
  const preset = hosts.preset(name)?.config;
  if (preset === undefined) {
    throw new CtxfilesError('config-invalid', [
      formatProblem(
        { keyPath: 'preset' },
        `"${name}" is not a preset. Expected one of ${hosts.presetNames.join(', ')}`,
      ),
    ]);
  }
  return { ...preset, preset: name };
}

/**
 * The fast path for the common case: a valid config with only known keys, checked by the
 * validator generated from the JSON Schema. Anything else returns `null` and takes the thorough
 * path (zod, with positions and hints).
 */
function quickConfig(
  value: unknown,
  names: ConfigNames,
  profile: Readonly<Partial<HostProfile>>,
): Config | null {
  return isQuickValid(value, names) ? normalizeConfig(value as ConfigInput, profile) : null;
}

function presetOf(value: Readonly<Record<string, unknown>>): string | undefined {
  const name = value['preset'];
  return typeof name === 'string' ? name : undefined;
}

/** `trustedProjects` outside the user config: dropped with a warning (only the user config trusts). */
function sanitizeTrustedProjects(
  value: Readonly<Record<string, unknown>>,
  file: string,
  shown: string,
  diagnostics: Diagnostic[],
  locate: KeyLocator,
): { value: Record<string, unknown>; dropped: DroppedKey[] } {
  const { trustedProjects: _ignored, ...rest } = value;
  diagnostics.push({
    level: 'warn',
    code: 'untrusted-key',
    message: formatProblem(
      { file: shown, keyPath: 'trustedProjects', ...locate(['trustedProjects']) },
      'ignored: only the user config names trusted projects',
    ).message,
    entry: 'trustedProjects',
    path: file,
  });
  return { value: rest, dropped: [{ keyPath: 'trustedProjects', file }] };
}
