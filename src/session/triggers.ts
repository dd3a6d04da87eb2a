import path from 'node:path';
import { globBase } from '../config/globs.js';
import type { Diagnostic } from '../errors.js';
import { BUILT_IN_TOOLS, lookupTool, type SessionToolSpec, type ToolTable } from './tool-table.js';

/** A tool call as a runner reports it after it ran. */
export interface ToolEvent {
  /** Tool name; matched case-insensitively. */
  readonly tool: string;
  /**
   * The tool's input as the model gave it: an object, or that object as JSON text (OpenAI Agents
   * hands tools their arguments so); any other string is the patch of a free-form patch tool.
   */
  readonly input?: Readonly<Record<string, unknown>> | string | null | undefined;
  /** Whether the call succeeded. Only successful calls touch anything. */
  readonly ok?: boolean | undefined;
}

/** Headers of the patch format whose path names a file the patch works on. */
const PATCH_HEADER = /^\*\*\* (Add File|Update File|Delete File|Move to):(.*)$/gm;

/** What a tool call touched, as absolute paths (docs/disclosure.md#tool-names). */
export interface TouchedPaths {
  /** Files the call read or changed, in input order, without duplicates. */
  readonly files: string[];
  /** Directories it worked in: each file's parent, and the directories it listed or searched. */
  readonly directories: string[];
  /** `malformed-patch` when a patch's text names no file. */
  readonly diagnostics: Diagnostic[];
}

/**
 * The directories a tool call works in, as absolute paths, with the built-in tool table
 * (docs/disclosure.md#tool-names). Kept for embedders; {@link touchedPaths} also returns files.
 *
 * | tool | directory |
 * | --- | --- |
 * | `read`, `write`, `edit`, `multiedit` | parent of `file_path` |
 * | `patch` | parent of each file in the `patch_text` headers |
 * | `grep` | `path` (none: nothing) |
 * | `glob` | `path` (default: the work dir) joined with the pattern's literal directory prefix |
 * | `ls` | `path` |
 *
 * Every other tool (`bash`, `delete`, …) and every failed call touch nothing. Relative paths
 * resolve against the work dir. Paths are only normalized here: containment is the caller's decision.
 */
export function touchedDirectories(event: ToolEvent, workDir: string): string[] {
  return touchedPaths(event, workDir, BUILT_IN_TOOLS).directories;
}

/**
 * The files and directories a successful tool call touched, looked up in `tools` by name
 * (case-insensitively; an unknown name touches nothing):
 * - `read`, `write`, `edit`: the first `pathKeys` key holding a path (or a list of paths) names
 *   files; a patch (`patchKeys`, or an input that is itself a string) names the files in its
 *   `*** Add File:`, `*** Update File:`, `*** Delete File:` and `*** Move to:` lines;
 * - `list`: the path is a directory;
 * - `search`: the path is a directory (none: nothing);
 * - with `patternKeys` (globs, built-in rows only): the path (default: the work dir) joined with
 *   each glob's literal directory prefix is a directory; for a file tool a pattern without glob
 *   characters names a file;
 * - `shell`: nothing.
 * A patch that names no file, or a header with no path, is a `warn` `malformed-patch` and touches
 * nothing. Never throws.
 */
export function touchedPaths(event: ToolEvent, workDir: string, tools: ToolTable): TouchedPaths {
  const result: TouchedPaths = { files: [], directories: [], diagnostics: [] };
  if (event.ok !== true || typeof event.tool !== 'string') return result;
  const spec = lookupTool(tools, event.tool);
  if (spec === undefined || spec.as === 'shell') return result;
  const raw: unknown = eventInput(event.input, spec);
  const input: Readonly<Record<string, unknown>> =
    typeof raw === 'object' && raw !== null && !Array.isArray(raw) ? (raw as Record<string, unknown>) : {};
  const absolute = (value: string) => path.resolve(workDir, value);
  const addFile = (file: string) => {
    if (!result.files.includes(file)) result.files.push(file);
    addDir(path.dirname(file));
  };
  const addDir = (dir: string) => {
    if (!result.directories.includes(dir)) result.directories.push(dir);
  };

  const paths = firstValue(input, spec.pathKeys);
  if (spec.patchKeys !== undefined) {
    const text = typeof raw === 'string' ? usable(raw) : firstValue(input, spec.patchKeys)?.[0];
    if (text !== undefined) {
      const files = patchFiles(text);
      if (files === null) {
        result.diagnostics.push({
          level: 'warn',
          code: 'malformed-patch',
          message: `the ${event.tool} input names no file in "*** Add File:", "*** Update File:", "*** Delete File:" or "*** Move to:" lines; nothing is disclosed for it`,
        });
      } else for (const file of files) addFile(absolute(file));
    }
  }
  const patterns = firstValue(input, spec.patternKeys);
  const onFiles = spec.as === 'read' || spec.as === 'write' || spec.as === 'edit';
  if (patterns !== undefined) {
    for (const base of paths ?? ['.'])
      for (const pattern of patterns) {
        const glob = globBase(pattern);
        const target = path.resolve(workDir, base, glob.base);
        if (onFiles && !glob.isGlob) addFile(target);
        else addDir(target);
      }
  } else if (onFiles) for (const file of paths ?? []) addFile(absolute(file));
  else for (const dir of paths ?? []) addDir(absolute(dir));
  return result;
}

/**
 * A tool input as the table reads it: an input given as JSON text of an object is that object
 * (the text of a patch tool only when it starts with `{`, since any other text is the patch);
 * everything else as it is.
 */
export function eventInput(raw: ToolEvent['input'], spec: SessionToolSpec): ToolEvent['input'] {
  if (typeof raw !== 'string') return raw;
  const text = raw.trimStart();
  if (!text.startsWith('{') && spec.patchKeys !== undefined) return raw;
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed))
      return parsed as Readonly<Record<string, unknown>>;
  } catch {
    // Not JSON: a patch, or text the session reports as unreadable.
  }
  return raw;
}

/** The value of the first key holding a usable path or a non-empty list of them. */
function firstValue(
  input: Readonly<Record<string, unknown>>,
  keys: readonly string[] | undefined,
): string[] | undefined {
  for (const key of keys ?? []) {
    if (!Object.hasOwn(input, key)) continue;
    const value = input[key];
    const values = (Array.isArray(value) ? value : [value]).flatMap((item) => {
      const text = usable(item);
      return text === undefined ? [] : [text];
    });
    if (values.length > 0) return values;
  }
  return undefined;
}

function usable(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' && !value.includes('\0') ? value : undefined;
}

/** The files a patch names, or `null` when it names none or has a header without a path. */
function patchFiles(text: string): string[] | null {
  const files: string[] = [];
  for (const match of text.matchAll(PATCH_HEADER)) {
    const file = (match[2] as string).trim();
    if (file === '') return null;
    files.push(file);
  }
  return files.length === 0 ? null : files;
}
