import path from 'node:path';
import { formatProblem, type Diagnostic } from '../errors.js';
import { isInside } from '../fs/contain.js';
import { isPlainObject } from '../shared/is-plain-object.js';
import { DEFAULT_CONFIG } from './defaults.js';
import type { HostProfile } from './types.js';

/**
 * One config key that reads outside the project (or reads more of it than the defaults allow)
 * when set to a value that `widens` accepts. From a project config such a value is dropped unless
 * the user config trusts the project (docs/security.md, "Trust tiers").
 */
export interface WideningKey {
  readonly keyPath: readonly string[];
  /** True when `value` (present in a project config) would widen what is read. */
  readonly widens: (value: unknown) => boolean;
  /** Why, in a few words, for the warning. */
  readonly reason: string;
}

const above = (limit: number) => (value: unknown) => typeof value === 'number' && value > limit;
const nonEmpty = (value: unknown) =>
  value !== null && value !== undefined && !(Array.isArray(value) && value.length === 0);

/**
 * The keys a project config may not set. A key another branch has not added yet simply never
 * matches: each row only reads the value at its key path.
 */
export const WIDENING_KEYS: readonly WideningKey[] = Object.freeze([
  {
    keyPath: ['instructions', 'walk'],
    widens: (value) => value === 'root',
    reason: 'it walks above the project',
  },
  {
    keyPath: ['instructions', 'globs'],
    widens: (value) =>
      Array.isArray(value) &&
      value.some(
        (pattern) =>
          typeof pattern !== 'string' ||
          pattern.startsWith('/') ||
          pattern.startsWith('~') ||
          /^[A-Za-z]:|\\/.test(pattern) ||
          pattern.split('/').includes('..'),
      ),
    reason: 'it reads files outside the project',
  },
  { keyPath: ['instructions', 'userFile'], widens: nonEmpty, reason: 'it reads a file outside the project' },
  { keyPath: ['instructions', 'extraFiles'], widens: nonEmpty, reason: 'it reads files outside the project' },
  {
    keyPath: ['instructions', 'projectRootMarkers'],
    widens: () => true,
    reason: 'it moves the project root',
  },
  {
    keyPath: ['instructions', 'symlinks'],
    widens: (value) => value === 'follow',
    reason: 'it follows links out of the project',
  },
  { keyPath: ['trustedProjects'], widens: () => true, reason: 'only the user config names trusted projects' },
  {
    keyPath: ['rules', 'userFolders'],
    widens: (value) => value === true,
    reason: 'it reads rule folders in the home directory',
  },
  {
    keyPath: ['contextDiscovery', 'maxFileBytes'],
    widens: above(DEFAULT_CONFIG.contextDiscovery.maxFileBytes),
    reason: 'it raises a size cap above its default',
  },
  {
    keyPath: ['contextDiscovery', 'maxSessionBytes'],
    widens: above(DEFAULT_CONFIG.contextDiscovery.maxSessionBytes),
    reason: 'it raises a size cap above its default',
  },
  {
    keyPath: ['contextDiscovery', 'maxManifestBytes'],
    widens: above(DEFAULT_CONFIG.contextDiscovery.maxManifestBytes),
    reason: 'it raises a size cap above its default',
  },
  {
    keyPath: ['contextDiscovery', 'maxFiles'],
    widens: above(DEFAULT_CONFIG.contextDiscovery.maxFiles),
    reason: 'it raises a size cap above its default',
  },
]);

/** A key a trust tier dropped, for `validate` and `explain`. */
export interface DroppedKey {
  /** `instructions.userFile`. */
  readonly keyPath: string;
  /** Absolute path of the file that set it (for a preset's key: the file that named the preset). */
  readonly file: string;
  /** Set when the key came from a preset that a project config named. */
  readonly preset?: string;
}

/** Line and column of a key path in the config file, when known (src/config/source-text.ts). */
export type KeyLocator = (keyPath: readonly string[]) => { line?: number; column?: number };

/**
 * Removes from a project config value every key of {@link WIDENING_KEYS} whose value widens reads,
 * with a `warn` `untrusted-key` naming the key and the file (and its line with `locate`). Returns a new value; the input is
 * never changed. Keys nested under `agents` are not config keys of the table and stay.
 */
export function sanitizeProjectConfig(
  value: Readonly<Record<string, unknown>>,
  file: string,
  shown: string,
  diagnostics: Diagnostic[],
  preset?: string,
  locate?: KeyLocator,
): { value: Record<string, unknown>; dropped: DroppedKey[] } {
  const copy = structuredClone(value) as Record<string, unknown>;
  const dropped: DroppedKey[] = [];
  for (const row of WIDENING_KEYS) {
    const parent = parentOf(copy, row.keyPath);
    const key = row.keyPath[row.keyPath.length - 1] as string;
    if (parent === undefined || !Object.hasOwn(parent, key) || !row.widens(parent[key])) continue;
    delete parent[key];
    const keyPath = row.keyPath.join('.');
    dropped.push(preset === undefined ? { keyPath, file } : { keyPath, file, preset });
    const [who, remedy] =
      preset === undefined
        ? ['a project config may not set it', 'set it in the user config']
        : [
            `it comes from the preset "${preset}" that a project config names, and a project config may not set it`,
            'name the preset in the user config or with --preset',
          ];
    diagnostics.push({
      level: 'warn',
      code: 'untrusted-key',
      message: formatProblem(
        { file: shown, keyPath, ...locate?.(row.keyPath) },
        `ignored: ${who} (${row.reason}); ${remedy}, or list the project in the user config's trustedProjects`,
      ).message,
      // The key is the target: one warning per key of the file (src/diagnostics.ts).
      entry: keyPath,
      path: file,
    });
  }
  return { value: copy, dropped };
}

/** The host profile values that read above the project: what a project config cannot turn on. */
const WIDENING_PROFILE: ReadonlyArray<{
  readonly key: keyof HostProfile;
  readonly widens: (value: unknown) => boolean;
  readonly reason: string;
}> = Object.freeze([
  {
    key: 'projectRootFallback',
    widens: (value: unknown) => value === 'root' || value === 'homeParent',
    reason: 'with no project root marker it walks above the project',
  },
  {
    key: 'walkFrom',
    widens: (value: unknown) => value === 'projectRootParent',
    reason: 'it walks from the directory above the project root',
  },
]);

/**
 * The host profile of a preset that only a project config names, without the values that read
 * above the project ({@link WIDENING_PROFILE}), each with a `warn` `untrusted-key` at the file's
 * `preset` key; dropped as `profile.<name>`.
 */
export function sanitizeProfile(
  profile: Readonly<Partial<HostProfile>>,
  file: string,
  shown: string,
  diagnostics: Diagnostic[],
  preset: string,
): { profile: Partial<HostProfile>; dropped: DroppedKey[] } {
  const copy: Record<string, unknown> = { ...profile };
  const dropped: DroppedKey[] = [];
  for (const row of WIDENING_PROFILE) {
    if (!row.widens(copy[row.key])) continue;
    delete copy[row.key];
    const keyPath = `profile.${row.key}`;
    dropped.push({ keyPath, file, preset });
    diagnostics.push({
      level: 'warn',
      code: 'untrusted-key',
      message: formatProblem(
        { file: shown, keyPath: 'preset' },
        `the preset "${preset}" reads as its host does, and ${row.reason} (${keyPath}); a project config may not turn that on: ignored. Name the preset in the user config or with --preset, or list the project in the user config's trustedProjects`,
      ).message,
      entry: keyPath,
      path: file,
    });
  }
  return { profile: copy as Partial<HostProfile>, dropped };
}

/**
 * True when `workDir` lies inside one of the `trustedProjects` of the user config (`~` is the
 * home directory; entries that are not absolute never match).
 */
export function isTrustedProject(
  trustedProjects: unknown,
  workDir: string,
  homeDir: string,
  realpath: (file: string) => string,
): boolean {
  if (!Array.isArray(trustedProjects)) return false;
  return trustedProjects.some((entry) => {
    if (typeof entry !== 'string') return false;
    const expanded =
      entry === '~' ? homeDir : entry.startsWith('~/') ? path.join(homeDir, entry.slice(2)) : entry;
    if (!path.isAbsolute(expanded)) return false;
    const dir = path.resolve(expanded);
    let real = dir;
    try {
      real = realpath(dir);
    } catch {
      // A trusted directory that does not exist can still be compared by its spelling.
    }
    return isInside(dir, workDir) || isInside(real, workDir);
  });
}

/**
 * The keys that choose which files above the work dir are read: from an untrusted project config,
 * any of them bounds the chain walk and `contextRoot: project` by the config's own directory
 * (docs/security.md, "Trust tiers").
 */
const SCOPE_KEYS: readonly (readonly string[])[] = Object.freeze([
  ['instructions', 'walk'],
  ['instructions', 'candidates'],
  ['contextRoot'],
  ['contextPaths'],
]);

/** True when a config value sets any of the {@link SCOPE_KEYS}. */
export function setsScope(value: Record<string, unknown>): boolean {
  return SCOPE_KEYS.some((keyPath) => {
    const parent = parentOf(value, keyPath);
    return parent !== undefined && Object.hasOwn(parent, keyPath[keyPath.length - 1] as string);
  });
}

/** Deep merge of plain objects: `over` wins; arrays and every other value replace. */
export function mergeLayers(
  under: Readonly<Record<string, unknown>>,
  over: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  const result: Record<string, unknown> = { ...under };
  for (const [key, value] of Object.entries(over)) {
    const previous = result[key];
    result[key] = isPlainObject(previous) && isPlainObject(value) ? mergeLayers(previous, value) : value;
  }
  return result;
}

function parentOf(
  value: Record<string, unknown>,
  keyPath: readonly string[],
): Record<string, unknown> | undefined {
  let node: unknown = value;
  for (const key of keyPath.slice(0, -1)) {
    if (!isPlainObject(node) || !Object.hasOwn(node, key)) return undefined;
    node = node[key];
  }
  return isPlainObject(node) ? node : undefined;
}
