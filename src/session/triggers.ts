import path from 'node:path';
import { globBase } from '../config/globs.js';

/** A tool call as a runner reports it after it ran. */
export interface ToolEvent {
  /** Tool name; matched case-insensitively. */
  readonly tool: string;
  /** The tool's input as the model gave it. */
  readonly input?: Readonly<Record<string, unknown>> | null | undefined;
  /** Whether the call succeeded. Only successful calls touch anything. */
  readonly ok?: boolean | undefined;
}

/** Headers of the patch format whose path names a file the patch works on. */
const PATCH_HEADER = /^\*\*\* (?:Add File|Update File|Delete File|Move to): (.+)$/gm;

/**
 * The directories a tool call works in, as absolute paths (docs/disclosure.md, "Trigger tools"):
 *
 * | tool | directory |
 * | --- | --- |
 * | `read`, `write`, `edit`, `multiedit` | parent of `file_path` |
 * | `patch` | parent of each file in the `patch_text` headers |
 * | `grep` | `path` (none: nothing) |
 * | `glob` | `path` (default: the work dir) joined with the pattern's literal directory prefix |
 * | `ls` | `path` |
 *
 * Every other tool (`bash`, `delete`, …) and every failed call touch nothing. camelCase input
 * keys (`filePath`, `patchText`) are accepted too. Relative paths resolve against the work dir.
 * Paths are only normalized here: containment is the caller's decision.
 */
export function touchedDirectories(event: ToolEvent, workDir: string): string[] {
  if (event.ok !== true) return [];
  const input = event.input ?? {};
  const text = (key: string, camel?: string): string | undefined => {
    const value = input[key] ?? (camel === undefined ? undefined : input[camel]);
    return typeof value === 'string' && value !== '' && !value.includes('\0') ? value : undefined;
  };
  const absolute = (value: string) => path.resolve(workDir, value);
  switch (event.tool.toLowerCase()) {
    case 'read':
    case 'write':
    case 'edit':
    case 'multiedit': {
      const file = text('file_path', 'filePath');
      return file === undefined ? [] : [path.dirname(absolute(file))];
    }
    case 'patch': {
      const patch = text('patch_text', 'patchText');
      if (patch === undefined) return [];
      const dirs = new Set<string>();
      for (const match of patch.matchAll(PATCH_HEADER)) {
        const file = (match[1] as string).trim();
        if (file !== '' && !file.includes('\0')) dirs.add(path.dirname(absolute(file)));
      }
      return [...dirs];
    }
    case 'grep':
    case 'ls':
    case 'list': {
      const dir = text('path');
      return dir === undefined ? [] : [absolute(dir)];
    }
    case 'glob': {
      const base = text('path') ?? '.';
      const pattern = text('pattern');
      const prefix = pattern === undefined ? '' : globBase(pattern).base;
      return [path.resolve(workDir, base, prefix)];
    }
    default:
      return [];
  }
}
