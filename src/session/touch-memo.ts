import path from 'node:path';
import type { Diagnostic } from '../errors.js';
import { isInside } from '../fs/contain.js';
import { lookupTool, type SessionToolSpec, type ToolTable } from './tool-table.js';
import { eventInput, touchedPaths, type ToolEvent } from './triggers.js';

/** Entries a memo holds before it starts over: a long session's memory stays bounded. */
export const TOUCH_MEMO_SIZE = 4_096;

/** What one tool call touched, with paths under the canonical work dir. */
export interface Touch {
  /** Files the call read or changed. */
  readonly files: readonly string[];
  /** Directories it worked in. */
  readonly dirs: readonly string[];
  readonly diagnostics: readonly Diagnostic[];
  /**
   * Set by the session once a call with these paths found nothing due. Nothing becomes due again:
   * the nested files and rules are fixed when the session opens and the session only adds to what
   * it has shown.
   */
  settled: boolean;
}

/** How a tool name reads: a request for a rule, a row of the tool table, or nothing. */
export type ToolLookup = 'rule' | SessionToolSpec | null;

/** The touches of one session's tool calls, and its tool names, remembered. */
export interface TouchMemo {
  /** The row of a tool name, matched case-insensitively; `'rule'` for a rule request when `rules` is on. */
  tool(name: string): ToolLookup;
  /**
   * What a successful call of a tool with row `spec` touched, as {@link touchedPaths} reads it, each
   * path mapped from the spelled to the canonical work dir. A call naming one path by a string key
   * is remembered by that string: the same string gives the same object.
   */
  touch(event: ToolEvent, spec: SessionToolSpec): Touch;
}

/** Options of {@link createTouchMemo}. */
export interface TouchMemoOptions {
  /** The canonical work dir. */
  readonly workDir: string;
  /** The work dir as the caller spelled it, when it differs (a symlinked cwd). */
  readonly spelledWorkDir?: string | undefined;
  readonly tools: ToolTable;
  /** True when a tool named `rule` requests a rule (rules are on). */
  readonly rules: boolean;
}

const NONE: readonly never[] = Object.freeze([]);

/**
 * A session's memo of tool calls: what a tool name means and where a path string leads. Paths are
 * read lexically against a work dir fixed for the session, so a remembered answer never goes stale;
 * whether something is due is the session's question, asked again until a call finds nothing
 * ({@link Touch.settled}). Each map starts over at {@link TOUCH_MEMO_SIZE} entries.
 */
export function createTouchMemo(options: Readonly<TouchMemoOptions>): TouchMemo {
  const { workDir, tools } = options;
  const toCanonical = rebaseUnder(options.spelledWorkDir, workDir);
  const names = new Map<string, ToolLookup>();
  // One map per kind of path: a file touches its parent, a directory itself.
  const files = new Map<string, Touch>();
  const dirs = new Map<string, Touch>();
  return {
    tool(name) {
      let found = names.get(name);
      if (found !== undefined) return found;
      // `{"tool":"rule","input":{"name":"…"}}` fetches a rule by name: a request, not a finished tool
      // call, so `ok` does not matter to it.
      found = options.rules && name.toLowerCase() === 'rule' ? 'rule' : (lookupTool(tools, name) ?? null);
      remember(names, name, found);
      return found;
    },
    touch(event, spec) {
      const input = eventInput(event.input, spec);
      const single = singlePath(input, spec);
      if (single === undefined)
        return general(input === event.input ? event : { ...event, input }, workDir, tools, toCanonical);
      if (single === null) return { files: NONE, dirs: NONE, diagnostics: NONE, settled: false };
      const onFiles = spec.as === 'read' || spec.as === 'write' || spec.as === 'edit';
      const memo = onFiles ? files : dirs;
      let touch = memo.get(single);
      if (touch === undefined) {
        const absolute = path.resolve(workDir, single);
        touch = onFiles
          ? fixed([toCanonical(absolute)], [toCanonical(path.dirname(absolute))])
          : fixed(NONE, [toCanonical(absolute)]);
        remember(memo, single, touch);
      }
      return touch;
    },
  };
}

/**
 * The one path a call names, for a row that reads paths only (no patch, no patterns): the string
 * of the first key holding a usable one; `null` when no key holds a usable value; `undefined`
 * when the call needs the general reading (a list, a patch, patterns, an input that is not an
 * object). The same keys and values as `firstValue` in triggers.ts.
 */
function singlePath(raw: ToolEvent['input'], spec: SessionToolSpec): string | null | undefined {
  if (spec.patchKeys !== undefined || spec.patternKeys !== undefined) return undefined;
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return undefined;
  for (const key of spec.pathKeys ?? NONE) {
    if (!Object.hasOwn(raw, key)) continue;
    const value = raw[key];
    if (typeof value === 'string') {
      if (value !== '' && !value.includes('\0')) return value;
    } else if (Array.isArray(value)) return undefined;
  }
  return null;
}

/** A call read by {@link touchedPaths}, mapped to the canonical work dir; never remembered. */
function general(
  event: ToolEvent,
  workDir: string,
  tools: ToolTable,
  toCanonical: (file: string) => string,
): Touch {
  const touched = touchedPaths(event, workDir, tools);
  return {
    files: touched.files.map(toCanonical),
    dirs: touched.directories.map(toCanonical),
    diagnostics: touched.diagnostics,
    settled: false,
  };
}

function fixed(files: readonly string[], dirs: readonly string[]): Touch {
  return { files: Object.freeze(files), dirs: Object.freeze(dirs), diagnostics: NONE, settled: false };
}

function remember<T>(memo: Map<string, T>, key: string, value: T): void {
  if (memo.size >= TOUCH_MEMO_SIZE) memo.clear();
  memo.set(key, value);
}

/**
 * Maps a path at or under `from` to the same path under `to`; other paths, and every path when
 * `from` is undefined or `to` itself, stay as they are. With the spelled and the canonical work
 * dir it turns one spelling of the work dir into the other, either way.
 */
export function rebaseUnder(from: string | undefined, to: string): (file: string) => string {
  if (from === undefined || from === to) return (file) => file;
  return (file) =>
    file === from ? to : isInside(from, file) ? path.join(to, path.relative(from, file)) : file;
}
