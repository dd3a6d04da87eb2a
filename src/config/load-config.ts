import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CtxfilesError, formatProblem, suggest, type Diagnostic } from '../errors.js';
import { DEFAULT_CONFIG, KNOWN_TOP_LEVEL_KEYS } from './defaults.js';
import { loadFlows } from './load-flows.js';
import { readSourceFile } from './read-source.js';
import { configSchema } from './schema.js';
import { findForbiddenKey, parseSourceText, type SourceText } from './source-text.js';
import { toProblems } from './zod-issues.js';
import type { AgentConfig, Config, Flow } from './types.js';

/**
 * Where a config is looked for, in each directory from the work dir upward, in this order
 * (DESIGN §3). `package.json` counts only when it has a `ctxfiles` key.
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
  readonly configFile?: string;
  /** Where the upward search stops (inclusive). Default: the user's home directory. */
  readonly stopDir?: string;
  /** Paths in messages are shown relative to this directory. Default: the process's cwd. */
  readonly displayCwd?: string;
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

/**
 * Finds, reads and validates the config and its flow files.
 * @returns the loaded config; defaults when no file is found.
 * @throws CtxfilesError `config-not-found` for a missing explicit file, `config-syntax` for a
 * malformed file, `config-invalid` for wrong values, and the `flow-*` codes for flow files.
 */
export async function loadConfig(options: Readonly<LoadConfigOptions> = {}): Promise<LoadedConfig> {
  const cwd = path.resolve(options.cwd ?? process.cwd());
  const displayCwd = options.displayCwd ?? process.cwd();
  const display = (file: string) => path.relative(displayCwd, file) || path.basename(file);
  const diagnostics: Diagnostic[] = [];

  let filepath: string | null;
  if (options.configFile !== undefined) {
    filepath = path.resolve(cwd, options.configFile);
    if (!isFile(filepath)) {
      throw new CtxfilesError('config-not-found', [formatProblem({ file: display(filepath) }, 'the config file does not exist')]);
    }
  } else {
    filepath = searchConfig(cwd, options.stopDir ?? os.homedir(), diagnostics, display);
  }

  const raw = filepath === null ? undefined : await readConfigValue(filepath, display(filepath));
  const config = raw === undefined ? DEFAULT_LOADED : validateConfig(raw.value, raw.source, raw.prefix, diagnostics);
  const flowRoot = filepath === null ? cwd : path.dirname(filepath);
  const flows = loadFlows({ root: flowRoot, globs: config.flows, display });
  return { filepath, config, flows, diagnostics };
}

const DEFAULT_LOADED: Config = Object.freeze({
  contextPaths: DEFAULT_CONFIG.contextPaths,
  agents: Object.freeze({}),
  contextDiscovery: DEFAULT_CONFIG.contextDiscovery,
  flows: DEFAULT_CONFIG.flows,
  instructions: DEFAULT_CONFIG.instructions,
  format: DEFAULT_CONFIG.format,
  budget: DEFAULT_CONFIG.budget,
  wording: DEFAULT_CONFIG.wording,
});

/**
 * Validates a config value that was not read from a file (an embedder's object), applying
 * defaults. Same checks and messages as {@link loadConfig}; `file` names it in messages.
 */
export async function parseConfig(value: unknown, file = '<config>'): Promise<{ config: Config; diagnostics: Diagnostic[] }> {
  const diagnostics: Diagnostic[] = [];
  const source = plainSource(file, value);
  const config = validateConfig(value, source, [], diagnostics);
  return { config, diagnostics };
}

function searchConfig(start: string, stopDir: string, diagnostics: Diagnostic[], display: (file: string) => string): string | null {
  const stop = path.resolve(stopDir);
  let dir = start;
  for (;;) {
    const found: string[] = [];
    for (const place of CONFIG_SEARCH_PLACES) {
      const candidate = path.join(dir, place);
      if (!isFile(candidate)) continue;
      if (place === 'package.json' && !packageHasKey(candidate)) continue;
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

async function readConfigValue(file: string, shown: string): Promise<{ value: unknown; source: SourceText; prefix: readonly PropertyKey[] }> {
  const extension = path.extname(file);
  if (CODE_EXTENSIONS.has(extension)) {
    // Executable configs are code the user chose to run; cosmiconfig knows how to load each kind.
    const { cosmiconfig } = await import('cosmiconfig');
    try {
      const result = await cosmiconfig('ctxfiles', { searchStrategy: 'none', cache: false }).load(file);
      const value: unknown = result?.config ?? {};
      return { value, source: plainSource(shown, value), prefix: [] };
    } catch (error) {
      throw new CtxfilesError('config-syntax', [formatProblem({ file: shown }, `cannot load the config: ${(error as Error).message}`)], { cause: error });
    }
  }
  const source = parseSourceText(readSourceFile(file, shown, 'config-syntax'), shown, 'config-syntax');
  if (path.basename(file) === 'package.json') {
    const value = (source.value as Record<string, unknown>)['ctxfiles'];
    return { value, source, prefix: ['ctxfiles'] };
  }
  return { value: source.value ?? {}, source, prefix: [] };
}

function validateConfig(value: unknown, source: SourceText, prefix: readonly PropertyKey[], diagnostics: Diagnostic[]): Config {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new CtxfilesError('config-invalid', [source.problem(prefix, 'the config must be an object')]);
  }
  const forbidden = findForbiddenKey(value, [...prefix]);
  if (forbidden !== undefined) {
    throw new CtxfilesError('config-invalid', [source.problem(forbidden, `the key "${String(forbidden[forbidden.length - 1])}" is not allowed`, 'key')]);
  }
  const parsed = configSchema.safeParse(value, { reportInput: true });
  if (!parsed.success) {
    throw new CtxfilesError('config-invalid', toProblems(parsed.error.issues, source, prefix, knownKeysAt));
  }
  for (const key of Object.keys(value)) {
    if (KNOWN_TOP_LEVEL_KEYS.includes(key)) continue;
    const hint = suggest(key, KNOWN_TOP_LEVEL_KEYS.filter((known) => known !== '$schema'));
    diagnostics.push({
      level: 'warn',
      code: 'unknown-key',
      message: source.problem([...prefix, key], `unknown key "${key}" is ignored.${hint ? ` Did you mean "${hint}"?` : ''}`, 'key').message,
    });
  }
  const data = parsed.data;
  return Object.freeze({
    contextPaths: Object.freeze([...(data.contextPaths ?? DEFAULT_CONFIG.contextPaths)]),
    agents: Object.freeze(Object.fromEntries(Object.entries(data.agents ?? {}).map(([id, agent]) => [id, deepFreeze(agent) as unknown as AgentConfig]))),
    contextDiscovery: Object.freeze({ ...DEFAULT_CONFIG.contextDiscovery, ...stripUndefined(data.contextDiscovery ?? {}) }),
    flows: Object.freeze([...(data.flows ?? DEFAULT_CONFIG.flows)]),
    instructions: Object.freeze({ ...DEFAULT_CONFIG.instructions, ...stripUndefined(data.instructions ?? {}) }),
    format: data.format ?? DEFAULT_CONFIG.format,
    budget: Object.freeze({ ...DEFAULT_CONFIG.budget, ...stripUndefined(data.budget ?? {}) }),
    wording: Object.freeze({ ...DEFAULT_CONFIG.wording, ...stripUndefined(data.wording ?? {}) }),
  });
}

function knownKeysAt(keyPath: readonly PropertyKey[]): readonly string[] {
  const last = keyPath[keyPath.length - 1];
  if (keyPath.length === 0) return KNOWN_TOP_LEVEL_KEYS;
  if (last === 'context') return ['paths', 'mode', 'nested'];
  if (last === 'contextDiscovery') return Object.keys(DEFAULT_CONFIG.contextDiscovery);
  if (last === 'instructions') return Object.keys(DEFAULT_CONFIG.instructions);
  if (last === 'budget') return Object.keys(DEFAULT_CONFIG.budget);
  if (last === 'wording') return Object.keys(DEFAULT_CONFIG.wording);
  return [];
}

/** A source without positions, for values that did not come from JSON or YAML text. */
export function plainSource(file: string, value: unknown): SourceText {
  return {
    file,
    value,
    locate: () => undefined,
    problem: (keyPath, message) => {
      const keys = keyPath.map((key) => (typeof key === 'number' ? `[${key}]` : `.${String(key)}`)).join('').replace(/^\./, '');
      return formatProblem({ file, keyPath: keys }, message);
    },
  };
}

function isFile(file: string): boolean {
  try {
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

function packageHasKey(file: string): boolean {
  try {
    const value: unknown = JSON.parse(fs.readFileSync(file, 'utf8'));
    return typeof value === 'object' && value !== null && Object.hasOwn(value, 'ctxfiles');
  } catch {
    return false;
  }
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined)) as Partial<T>;
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}
