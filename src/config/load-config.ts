import os from 'node:os';
import path from 'node:path';
import { CtxfilesError, formatProblem, type Diagnostic } from '../errors.js';
import type { FileSystem } from '../fs/file-system.js';
import { createNodeFileSystem } from '../fs/node-file-system.js';
import { KNOWN_TOP_LEVEL_KEYS } from './defaults.js';
import { DEFAULT_LOADED, normalizeConfig } from './normalize-config.js';
import { findForbiddenKey } from './forbidden-keys.js';
import { isSourceFile, readSourceFile, relativeDisplay, whyNotAFile } from './read-source.js';
import type { ConfigInput } from './schema.js';
import type { SourceText } from './source-text.js';
import type { Config, Flow } from './types.js';
import fastValidate from './validate-config.generated.js';

/**
 * Where a config is looked for, in each directory from the work dir upward, in this order
 * (docs/config.md, "Where the config is found"). `package.json` counts only when it has a `ctxfiles` key.
 */
export const CONFIG_SEARCH_PLACES: readonly string[] = Object.freeze([
  '.opencode.json',
  '.opencode.yaml',
  '.opencode.yml',
  'opencode.json',
  'ctxfiles.config.json',
  'ctxfiles.config.yaml',
  'ctxfiles.config.yml',
  'ctxfiles.config.js',
  'ctxfiles.config.mjs',
  'ctxfiles.config.cjs',
  'ctxfiles.config.ts',
  'package.json',
]);

const CODE_EXTENSIONS = new Set(['.js', '.mjs', '.cjs', '.ts']);

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
   * configs (`.js`, `.ts`, ...) are imported by cosmiconfig from the real disk.
   */
  readonly fs?: FileSystem;
}

/** A validated config, its flows, and what loading noticed. */
export interface LoadedConfig {
  /** Absolute path of the config file, or `null` when none was found (defaults apply). */
  readonly filepath: string | null;
  readonly config: Config;
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
): Promise<LazyLoadedConfig>;
export async function loadConfig(options?: Readonly<LoadConfigOptions>): Promise<LoadedConfig>;
export async function loadConfig(
  options: Readonly<LoadConfigOptions> = {},
): Promise<LoadedConfig | LazyLoadedConfig> {
  const cwd = path.resolve(options.cwd ?? process.cwd());
  const display = relativeDisplay(options.displayCwd ?? process.cwd());
  const fs = options.fs ?? createNodeFileSystem();
  const diagnostics: Diagnostic[] = [];

  let filepath: string | null;
  if (options.configFile !== undefined) {
    filepath = path.resolve(cwd, options.configFile);
    if (!isSourceFile(fs, filepath, display(filepath), 'config-syntax')) {
      const why = whyNotAFile(fs, filepath);
      throw new CtxfilesError('config-not-found', [
        formatProblem(
          { file: display(filepath) },
          why === 'the file does not exist' ? 'the config file does not exist' : why,
        ),
      ]);
    }
  } else {
    filepath = searchConfig(fs, cwd, options.stopDir ?? os.homedir(), diagnostics, display);
  }

  const config =
    filepath === null
      ? DEFAULT_LOADED
      : await readConfig(fs, filepath, display(filepath), diagnostics, options.thorough === true);
  const flowRoot = filepath === null ? cwd : path.dirname(filepath);
  let flows: Promise<ReadonlyMap<string, Flow>> | undefined;
  const loadFlows = () => {
    flows ??= import('./load-flows.js').then((module) =>
      module.loadFlows({ root: flowRoot, globs: config.flows, display, fs }),
    );
    return flows;
  };
  if (options.lazyFlows === true) return { filepath, config, diagnostics, loadFlows };
  return { filepath, config, flows: await loadFlows(), diagnostics };
}

/**
 * Validates a config value that was not read from a file (an embedder's object), applying
 * defaults. Same checks and messages as {@link loadConfig}; `file` names it in messages.
 */
export async function parseConfig(
  value: unknown,
  file = '<config>',
): Promise<{ config: Config; diagnostics: Diagnostic[] }> {
  const diagnostics: Diagnostic[] = [];
  const fast = quickConfig(value);
  if (fast !== null) return { config: fast, diagnostics };
  const { validateConfig } = await import('./validate-config.js');
  return { config: validateConfig(value, plainSource(file, value), [], diagnostics), diagnostics };
}

/**
 * The fast path for the common case: a valid config with only known keys, checked by the
 * validator generated from the JSON Schema. Anything else returns `null` and takes the thorough
 * path (zod, with positions and hints).
 */
function quickConfig(value: unknown): Config | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  if (Object.keys(value).some((key) => !KNOWN_TOP_LEVEL_KEYS.includes(key))) return null;
  if (findForbiddenKey(value, []) !== undefined || !fastValidate(value)) return null;
  return normalizeConfig(value as ConfigInput);
}

function searchConfig(
  fs: FileSystem,
  start: string,
  stopDir: string,
  diagnostics: Diagnostic[],
  display: (file: string) => string,
): string | null {
  const stop = path.resolve(stopDir);
  let dir = start;
  for (;;) {
    const found: string[] = [];
    for (const place of CONFIG_SEARCH_PLACES) {
      const candidate = path.join(dir, place);
      if (!isSourceFile(fs, candidate, display(candidate), 'config-syntax')) continue;
      if (place === 'package.json' && !packageHasKey(fs, candidate, display(candidate))) continue;
      found.push(candidate);
    }
    const [first, ...shadowed] = found;
    if (first !== undefined) {
      for (const other of shadowed) {
        diagnostics.push({
          level: 'info',
          code: 'config-shadowed',
          message: `${display(other)} is ignored: ${display(first)} comes first in the search order`,
          path: other,
        });
      }
      return first;
    }
    const parent = path.dirname(dir);
    if (dir === stop || parent === dir) return null;
    dir = parent;
  }
}

async function readConfig(
  fs: FileSystem,
  file: string,
  shown: string,
  diagnostics: Diagnostic[],
  thoroughOnly: boolean,
): Promise<Config> {
  const extension = path.extname(file);
  // zod and the YAML parser load only on the thorough path.
  const thorough = async () => (await import('./validate-config.js')).validateConfig;
  if (CODE_EXTENSIONS.has(extension)) {
    // Executable configs are code the user chose to run; cosmiconfig knows how to load each kind.
    const { cosmiconfig } = await import('cosmiconfig');
    let value: unknown;
    try {
      const result = await cosmiconfig('ctxfiles', { searchStrategy: 'none', cache: false }).load(file);
      value = result?.config ?? {};
    } catch (error) {
      throw new CtxfilesError(
        'config-syntax',
        [formatProblem({ file: shown }, `cannot load the config: ${(error as Error).message}`)],
        { cause: error },
      );
    }
    return (await thorough())(value, plainSource(shown, value), [], diagnostics);
  }
  const text = readSourceFile(fs, file, shown, 'config-syntax');
  const isPackage = path.basename(file) === 'package.json';
  if (extension === '.json' && !thoroughOnly) {
    // JSON that parses and validates needs neither the YAML parser nor zod.
    const fast = quickConfig(parseJson(text, isPackage));
    if (fast !== null) return fast;
  }
  const { parseSourceText } = await import('./source-text.js');
  const source = parseSourceText(text, shown, 'config-syntax');
  const quick = thoroughOnly
    ? null
    : quickConfig(
        isPackage ? (source.value as Record<string, unknown> | null)?.['ctxfiles'] : (source.value ?? {}),
      );
  if (quick !== null) return quick;
  if (isPackage) {
    const value = (source.value as Record<string, unknown>)['ctxfiles'];
    return (await thorough())(value, source, ['ctxfiles'], diagnostics);
  }
  return (await thorough())(source.value ?? {}, source, [], diagnostics);
}

/** JSON.parse without throwing; a leading BOM is accepted. `undefined` on any failure. */
function parseJson(text: string, isPackage: boolean): unknown {
  try {
    const value: unknown = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
    return isPackage ? (value as Record<string, unknown> | null)?.['ctxfiles'] : value;
  } catch {
    return undefined;
  }
}

/** A source without positions, for values that did not come from JSON or YAML text. */
export function plainSource(file: string, value: unknown): SourceText {
  return {
    file,
    value,
    locate: () => undefined,
    problem: (keyPath, message) => {
      const keys = keyPath
        .map((key) => (typeof key === 'number' ? `[${key}]` : `.${String(key)}`))
        .join('')
        .replace(/^\./, '');
      return formatProblem({ file, keyPath: keys }, message);
    },
  };
}

/**
 * True when a `package.json` has a `ctxfiles` key. A package.json that cannot be read is an error
 * (it may hold the config); one that is not JSON is passed over unless it mentions `"ctxfiles":`.
 */
function packageHasKey(fs: FileSystem, file: string, shown: string): boolean {
  const text = readSourceFile(fs, file, shown, 'config-syntax');
  const value = parseJson(text, false);
  // Malformed JSON that mentions the key is read as the config, so its syntax error is reported.
  if (value === undefined) return /"ctxfiles"\s*:/.test(text);
  return typeof value === 'object' && value !== null && Object.hasOwn(value, 'ctxfiles');
}
