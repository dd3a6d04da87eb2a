import fs from 'node:fs';
import path from 'node:path';
import { CONFIG_SEARCH_PLACES } from '../config/search-places.js';
import { compileGlobMatcher } from '../config/glob-match.js';
import type { GlobSpec } from '../rules/compile-rule-globs.js';

/**
 * What `ctxfiles hook` keeps per session between processes. `disclosure` is exactly what
 * `session.state()` returns; the rest lets a hook answer "nothing is due" without loading the
 * config or walking the project.
 */
export interface HookState {
  readonly version: 1;
  readonly agent: string;
  readonly workDir: string;
  /** ISO time of the last write. */
  readonly updated: string;
  /** Signatures of every config file the config search could find (see {@link configFingerprint}). */
  readonly fingerprint: readonly string[];
  /** What the session start (or the last rebuild) learned about nested files. */
  readonly index: HookIndex;
  /** The session's disclosure state (`session.state()`). */
  readonly disclosure: unknown;
}

/** The nested files of the work dir, relative paths; a file's owner is its directory. */
export interface HookIndex {
  /** File names the nested walk looks for (a superset is harmless: it only costs probes). */
  readonly basenames: readonly string[];
  /** The nested files the session may inject. */
  readonly files: readonly string[];
  /** Files with a watched name that the walk does not disclose (pruned, inlined, over a cap). */
  readonly ignored: readonly string[];
  /** Chain candidates, for change tracking of chain files. */
  readonly candidates: readonly string[];
  /**
   * Rules a tool call may still inject (`glob` rules and nested owners' `always` rules, relative
   * paths; docs/rules.md). While one of them is not in the session's `injected` list, the quick
   * check answers "maybe" and the full path decides. Absent in states written before rules.
   */
  readonly rules?: readonly string[];
  /**
   * For each pending rule: its owner directory (relative to the work dir, `/` separators, `''` for
   * the work dir) and, for a `glob` rule, its globs (compiled again with the bounded matcher,
   * src/config/glob-match.ts, and tested against the path relative to the owner, or its last segment
   * with `basename`); no globs for a nested `always`
   * rule, which is due on any touch inside its owner. Absent: any pending rule means "maybe".
   */
  readonly ruleScopes?: readonly RuleScope[];
}

/** A pending rule as the quick check tests it (see {@link HookIndex.ruleScopes}). */
export interface RuleScope {
  readonly path: string;
  readonly owner: string;
  readonly globs: readonly GlobSpec[];
}

/**
 * The signature (`path size mtime`) of each config file the search could pick: the explicit file,
 * or every search place from the work dir up to `stopDir` (or the filesystem root). Any created,
 * removed or edited config changes it, and the hook then reloads everything.
 */
export function configFingerprint(
  workDir: string,
  configFile: string | undefined,
  stopDir: string,
): string[] {
  const signatures: string[] = [];
  const sign = (file: string) => {
    try {
      const info = fs.statSync(file, { throwIfNoEntry: false });
      if (info !== undefined) signatures.push(`${file} ${info.size} ${info.mtimeMs}`);
    } catch {
      // Absent: nothing to sign.
    }
  };
  if (configFile !== undefined) {
    sign(configFile);
    return signatures;
  }
  const stop = path.resolve(stopDir);
  for (let dir = workDir; ;) {
    for (const place of CONFIG_SEARCH_PLACES) sign(path.join(dir, place));
    const parent = path.dirname(dir);
    if (dir === stop || parent === dir) break;
    dir = parent;
  }
  return signatures;
}

/** Reads a stored value as a {@link HookState}, or `null` when it does not have that shape. */
export function asHookState(value: unknown): HookState | null {
  if (typeof value !== 'object' || value === null) return null;
  const state = value as Partial<HookState>;
  const index = state.index as Partial<HookIndex> | undefined;
  const strings = (list: unknown) => Array.isArray(list) && list.every((item) => typeof item === 'string');
  if (
    state.version !== 1 ||
    typeof state.agent !== 'string' ||
    typeof state.workDir !== 'string' ||
    !strings(state.fingerprint) ||
    typeof index !== 'object' ||
    index === null ||
    !strings(index.basenames) ||
    !strings(index.files) ||
    !strings(index.ignored) ||
    !strings(index.candidates) ||
    (index.rules !== undefined && !strings(index.rules)) ||
    (index.ruleScopes !== undefined && !validScopes(index.ruleScopes)) ||
    typeof state.disclosure !== 'object' ||
    state.disclosure === null
  )
    return null;
  return state as HookState;
}

function validScopes(scopes: unknown): boolean {
  return (
    Array.isArray(scopes) &&
    scopes.every((scope: Partial<RuleScope> | null) => {
      if (typeof scope !== 'object' || scope === null) return false;
      if (typeof scope.path !== 'string' || typeof scope.owner !== 'string' || !Array.isArray(scope.globs))
        return false;
      // A glob as a pattern; a state written by an older version keeps a regular expression
      // instead, which stays valid but is never run (the quick check then says "maybe").
      return scope.globs.every((glob: unknown) => {
        if (typeof glob !== 'object' || glob === null) return false;
        const { pattern, nocase, basename, negated, source, flags } = glob as Record<string, unknown>;
        if (typeof basename !== 'boolean') return false;
        if (typeof pattern === 'string') return typeof nocase === 'boolean' && typeof negated === 'boolean';
        return typeof source === 'string' && typeof flags === 'string';
      });
    })
  );
}

/** The parts of a disclosure state the quick check reads (the full shape is checked on resume). */
interface DisclosureView {
  readonly injected?: ReadonlyArray<{ readonly path?: unknown }>;
  readonly skipped?: readonly unknown[];
  readonly exhausted?: unknown;
  readonly tracked?: ReadonlyArray<{
    readonly path?: unknown;
    readonly size?: unknown;
    readonly mtimeMs?: unknown;
    readonly scope?: unknown;
    readonly removed?: unknown;
  }>;
}

/**
 * True when a tool call touching `dirs` (absolute, inside the work dir) certainly injects nothing:
 * every nested file owning one of them was shown or skipped, no file with a watched name appeared
 * that the index does not know, and no tracked file changed size or mtime. Costs one lstat per
 * watched name per directory level, plus one per tracked file; false sends the hook down the full
 * path, which re-walks and decides exactly.
 */
export function nothingDue(
  state: HookState,
  dirs: readonly string[],
  files: readonly string[] = [],
): boolean {
  const disclosure = state.disclosure as DisclosureView;
  if (disclosure.exhausted === true) return true;
  const done = new Set<string>();
  for (const record of disclosure.injected ?? []) if (typeof record.path === 'string') done.add(record.path);
  for (const skipped of disclosure.skipped ?? []) if (typeof skipped === 'string') done.add(skipped);
  if (!rulesQuiet(state, done, dirs, files)) return false;
  const indexed = new Set(state.index.files);
  const ignored = new Set(state.index.ignored);
  const { workDir } = state;
  const below = workDir + path.sep;
  for (const dir of dirs) {
    for (let current = dir; current.length > workDir.length; current = path.dirname(current)) {
      // A directory below the work dir (every one the hook passes) is cut, not resolved: the names
      // are plain, so a join would only normalize what is normal already (a hook runs per tool call).
      const inside = current.startsWith(below);
      const relativeDir = (inside ? current.slice(below.length) : path.relative(workDir, current))
        .split(path.sep)
        .join('/');
      for (const name of state.index.basenames) {
        const relativePath = `${relativeDir}/${name}`;
        if (indexed.has(relativePath)) {
          if (!done.has(relativePath)) return false;
        } else if (
          !ignored.has(relativePath) &&
          exists(inside ? `${current}${path.sep}${name}` : path.join(current, name))
        )
          return false;
      }
    }
  }
  for (const record of disclosure.tracked ?? []) {
    if (typeof record.path !== 'string') return false;
    let current = record.path;
    if (typeof record.scope === 'string') {
      const scope = record.scope;
      const first = state.index.candidates.find((candidate) => isFile(path.join(scope, candidate)));
      if (first === undefined) {
        if (record.removed !== true) return false;
        continue;
      }
      current = path.join(scope, first);
      if (current !== record.path) return false;
    }
    const info = lstat(current);
    if (info === null || !info.isFile()) {
      if (record.removed !== true) return false;
      continue;
    }
    if (record.removed === true || info.size !== record.size || info.mtimeMs !== record.mtimeMs) return false;
  }
  return true;
}

/**
 * True when no pending rule can be due: every pending rule was shown, or (with `ruleScopes`) no
 * touched file lies in a pending glob rule's owner and matches one of its globs, and no touched
 * directory lies in a pending nested `always` rule's owner. Without `ruleScopes` any pending rule
 * answers "maybe" (false).
 */
function rulesQuiet(
  state: HookState,
  done: ReadonlySet<string>,
  dirs: readonly string[],
  files: readonly string[],
): boolean {
  const pending = (state.index.rules ?? []).filter((rule) => !done.has(rule));
  if (pending.length === 0) return true;
  const scopes = state.index.ruleScopes;
  if (scopes === undefined) return false;
  const byPath = new Map(scopes.map((scope) => [scope.path, scope]));
  const { workDir } = state;
  for (const rule of pending) {
    const scope = byPath.get(rule);
    if (scope === undefined) return false;
    const owner = path.resolve(workDir, scope.owner);
    const prefix = owner.endsWith(path.sep) ? owner : owner + path.sep;
    if (scope.globs.length === 0) {
      if (dirs.some((dir) => dir === owner || dir.startsWith(prefix))) return false;
      continue;
    }
    for (const file of files) {
      if (!file.startsWith(prefix)) continue;
      const relative = file.slice(prefix.length).split(path.sep).join('/');
      for (const glob of scope.globs) {
        // A state written before globs were kept as patterns (or a damaged one) means "maybe".
        if (typeof glob.pattern !== 'string') return false;
        const compiled = compileGlobMatcher(glob.pattern, { nocase: glob.nocase === true });
        if (!compiled.ok) return false;
        const subject = glob.basename ? relative.slice(relative.lastIndexOf('/') + 1) : relative;
        if (compiled.matcher.test(subject) !== (glob.negated === true)) return false;
      }
    }
  }
  return true;
}

/**
 * The files with a watched name in `dirs` and their ancestors (below the work dir) that exist but
 * are not in `files`: remembered as ignored so that the quick check does not rebuild for them again.
 */
export function unindexedFiles(
  workDir: string,
  dirs: readonly string[],
  basenames: readonly string[],
  files: ReadonlySet<string>,
): string[] {
  const found = new Set<string>();
  for (const dir of dirs) {
    for (let current = dir; current.length > workDir.length; current = path.dirname(current)) {
      const relativeDir = path.relative(workDir, current).split(path.sep).join('/');
      for (const name of basenames) {
        const relativePath = `${relativeDir}/${name}`;
        if (!files.has(relativePath) && exists(path.join(current, name))) found.add(relativePath);
      }
    }
  }
  return [...found];
}

function lstat(file: string): fs.Stats | null {
  try {
    // No exception for the common "absent" answer: probes are the whole cost of a quiet hook.
    return fs.lstatSync(file, { throwIfNoEntry: false }) ?? null;
  } catch {
    return null;
  }
}

function exists(file: string): boolean {
  return lstat(file) !== null;
}

function isFile(file: string): boolean {
  return lstat(file)?.isFile() === true;
}
