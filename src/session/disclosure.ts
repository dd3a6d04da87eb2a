import path from 'node:path';
import type { Format, WordingConfig } from '../config/types.js';
import type { NestedFile, NestedIndex } from '../discover/nested-index.js';
import type { Diagnostic } from '../errors.js';
import { isInside } from '../fs/contain.js';
import { describeHidden } from '../fs/hidden-unicode.js';
import { readInstruction } from '../fs/read-instruction.js';
import { errorCode, fsError, isAbsent, type FileInfo, type FileSystem } from '../fs/file-system.js';
import { MAX_INLINE_BYTES } from '../resolve/read-context-file.js';
import { renderEvent, type InstructionEvent } from '../render/render-events.js';
import { renderSessionFrame } from '../render/render-session-frame.js';
import { BUILT_IN_TOOLS, type ToolTable } from './tool-table.js';
import { touchedPaths, type ToolEvent } from './triggers.js';

/** One injected nested file in the session state. */
export interface InjectedRecord {
  /** Path relative to the work dir. */
  readonly path: string;
  readonly sha256: string;
  readonly bytes: number;
}

/** A file the session has shown, as change tracking remembers it. */
export interface TrackedRecord {
  /** Absolute path. */
  readonly path: string;
  readonly sha256: string;
  readonly size: number;
  readonly mtimeMs: number;
  /** For chain-style files, the directory whose first existing candidate this file is. */
  readonly scope: string | null;
  /** True once its removal was reported. */
  readonly removed: boolean;
}

/** What a session has shown: plain JSON, so a runner can store it and resume. */
export interface DisclosureState {
  readonly version: 1;
  /** Nested files injected, in order. */
  readonly injected: readonly InjectedRecord[];
  /** Nested files that will not be injected (too large, unreadable, binary), relative paths. */
  readonly skipped: readonly string[];
  /** Bytes of injected text so far. */
  readonly bytes: number;
  /** True once `maxSessionBytes` stopped injection. */
  readonly exhausted: boolean;
  /** Files under change tracking (empty when tracking is off). */
  readonly tracked: readonly TrackedRecord[];
}

/** Everything a disclosure engine needs. */
export interface DisclosureOptions {
  readonly fs: FileSystem;
  readonly workDir: string;
  readonly homeDir: string;
  /** Nested files, or `null` when disclosure is off. */
  readonly index: NestedIndex | null;
  readonly maxFileBytes: number;
  readonly maxSessionBytes: number;
  readonly format: Format;
  readonly wording: WordingConfig;
  /** Change tracking: off, or on with the chain's candidate names (for switches). */
  readonly tracking: { readonly enabled: boolean; readonly candidates: readonly string[] };
  /** Files shown in the system prompt; tracked when the state brings no `tracked` list. */
  readonly baseline: readonly TrackedRecord[];
  /** Tool names and what they touch; default the built-in table (docs/disclosure.md#tool-names). */
  readonly tools?: ToolTable | undefined;
}

/** The disclosure engine of one session. */
export interface Disclosure {
  /** The text to append to this tool result (empty when nothing is due) and what happened. */
  afterTool(event: ToolEvent): { text: string; diagnostics: Diagnostic[] };
  state(): DisclosureState;
}

/** A fresh state. */
export function emptyDisclosureState(): DisclosureState {
  return { version: 1, injected: [], skipped: [], bytes: 0, exhausted: false, tracked: [] };
}

interface ReadBody {
  readonly text: string;
  readonly sha256: string;
  readonly bytes: number;
  readonly mtimeMs: number;
}

/**
 * Creates the disclosure engine. On each successful file-tool call it (1) checks tracked files
 * for updates, candidate switches and removals, when tracking is on, and (2) injects every nested
 * file owning a touched directory that this session has not shown, outermost first. Each event is
 * reported once; everything counts against `maxSessionBytes`. Faults in single files are
 * diagnostics, and the tool result is then returned unchanged.
 */
export function createDisclosure(options: DisclosureOptions, resumed: DisclosureState | null): Disclosure {
  const { fs, workDir, index } = options;
  const tools = options.tools ?? BUILT_IN_TOOLS;
  const initial = resumed ?? emptyDisclosureState();
  const injected = [...initial.injected];
  const skipped = new Set(initial.skipped);
  const done = new Set<string>([...injected.map((record) => record.path), ...skipped]);
  const tracked = new Map<string, TrackedRecord>();
  if (options.tracking.enabled) {
    for (const record of resumed === null ? options.baseline : resumed.tracked)
      tracked.set(record.path, record);
  }
  let bytes = initial.bytes;
  let exhausted = initial.exhausted;

  function owners(dirs: readonly string[]): NestedFile[] {
    const found: NestedFile[] = [];
    if (index === null || index.files.length === 0) return found;
    for (const dir of dirs) {
      if (dir === workDir || !isInside(workDir, dir)) continue;
      const chain: NestedFile[] = [];
      for (
        let current = dir;
        current !== workDir && current.length > workDir.length;
        current = path.dirname(current)
      ) {
        const owned = index.byOwner.get(current);
        if (owned !== undefined) chain.unshift(...owned);
      }
      for (const file of chain) if (!done.has(file.relativePath) && !found.includes(file)) found.push(file);
    }
    return found;
  }

  /** Compares every tracked file with the disk; returns the changes with their new records. */
  function checkTracked(
    diagnostics: Diagnostic[],
  ): Array<{ event: InstructionEvent; record: TrackedRecord; replaces: string }> {
    const changes: Array<{ event: InstructionEvent; record: TrackedRecord; replaces: string }> = [];
    for (const record of tracked.values()) {
      let current: { path: string; info: FileInfo } | null;
      try {
        current =
          record.scope === null
            ? probeFile(fs, record.path)
            : firstCandidate(fs, record.scope, options.tracking.candidates);
      } catch (error) {
        diagnostics.push({
          level: 'debug',
          code: 'temporarily-unavailable',
          message: `${record.path} cannot be checked now (${errorCode(error)}); it is kept as it was`,
          path: record.path,
        });
        continue;
      }
      if (current === null) {
        if (!record.removed)
          changes.push({
            event: { kind: 'removed', path: record.path },
            record: { ...record, removed: true },
            replaces: record.path,
          });
        continue;
      }
      const moved = current.path !== record.path;
      if (
        !moved &&
        !record.removed &&
        current.info.size === record.size &&
        current.info.mtimeMs === record.mtimeMs
      )
        continue;
      let body: ReadBody;
      try {
        body = readBody(fs, current.path, current.info);
      } catch (error) {
        diagnostics.push({
          level: 'debug',
          code: 'temporarily-unavailable',
          message: `${current.path} cannot be read now (${errorCode(error)}); it is kept as it was`,
          path: current.path,
        });
        continue;
      }
      const next: TrackedRecord = {
        path: current.path,
        sha256: body.sha256,
        size: body.bytes,
        mtimeMs: body.mtimeMs,
        scope: record.scope,
        removed: false,
      };
      if (!moved && !record.removed && body.sha256 === record.sha256) {
        tracked.set(record.path, next);
        continue;
      }
      changes.push({
        event: {
          kind: 'updated',
          path: current.path,
          text: body.text,
          previousPath: moved && !record.removed ? record.path : undefined,
        },
        record: next,
        replaces: record.path,
      });
    }
    return changes;
  }

  return {
    afterTool(event) {
      const diagnostics: Diagnostic[] = [];
      if (exhausted) return { text: '', diagnostics };
      const touched = touchedPaths(event, workDir, tools);
      diagnostics.push(...touched.diagnostics);
      const dirs = touched.directories;
      if (dirs.length === 0) return { text: '', diagnostics };
      const frames: string[] = [];
      const fitsBudget = (frame: string, what: string) => {
        const size = Buffer.byteLength(frame, 'utf8') + (frames.length > 0 ? 1 : 0);
        if (bytes + size > options.maxSessionBytes) {
          exhausted = true;
          diagnostics.push({
            level: 'info',
            code: 'session-budget-exhausted',
            message: `the session has injected ${bytes} bytes; ${what} would pass maxSessionBytes (${options.maxSessionBytes}), so nothing more is injected`,
          });
          return false;
        }
        bytes += size;
        frames.push(frame);
        return true;
      };

      if (tracked.size > 0) {
        for (const change of checkTracked(diagnostics)) {
          if (!fitsBudget(renderEvent(change.event, options), change.event.path))
            return { text: frames.join('\n'), diagnostics };
          tracked.delete(change.replaces);
          tracked.set(change.record.path, change.record);
        }
      }

      for (const file of owners(dirs)) {
        let body: ReadBody | null;
        try {
          body = readNested(fs, file, options.maxFileBytes, diagnostics);
        } catch {
          body = null;
        }
        if (body === null) {
          skipped.add(file.relativePath);
          done.add(file.relativePath);
          continue;
        }
        const frame = renderSessionFrame(
          options.format,
          { path: file.path, dir: file.ownerDir, text: body.text },
          options,
        );
        if (frame !== '' && !fitsBudget(frame, file.relativePath)) break;
        done.add(file.relativePath);
        injected.push({ path: file.relativePath, sha256: body.sha256, bytes: body.bytes });
        if (options.tracking.enabled) {
          const scope = options.tracking.candidates.includes(path.basename(file.path)) ? file.ownerDir : null;
          tracked.set(file.path, {
            path: file.path,
            sha256: body.sha256,
            size: body.bytes,
            mtimeMs: body.mtimeMs,
            scope,
            removed: false,
          });
        }
      }
      return { text: frames.join('\n'), diagnostics };
    },
    state() {
      return {
        version: 1,
        injected: [...injected],
        skipped: [...skipped],
        bytes,
        exhausted,
        tracked: [...tracked.values()],
      };
    },
  };
}

function probeFile(fs: FileSystem, file: string): { path: string; info: FileInfo } | null {
  const info = fs.probe(file);
  return info === null || info.kind !== 'file' ? null : { path: file, info };
}

/** The first candidate of a directory that is a regular file (symlinks are not candidates). */
function firstCandidate(
  fs: FileSystem,
  dir: string,
  candidates: readonly string[],
): { path: string; info: FileInfo } | null {
  for (const candidate of candidates) {
    const found = probeFile(fs, path.join(dir, candidate));
    if (found !== null) return found;
  }
  return null;
}

/** A tracked file's current text; a fault means "temporarily unavailable" and is thrown to the caller. */
function readBody(fs: FileSystem, file: string, info: FileInfo): ReadBody {
  const read = readInstruction(fs, file, {
    maxBytes: MAX_INLINE_BYTES,
    expect: { dev: info.dev, ino: info.ino },
  });
  if (!read.ok) throw fsError(read.code ?? read.fault.toUpperCase(), 'read', file);
  return read;
}

function readNested(
  fs: FileSystem,
  file: NestedFile,
  maxBytes: number,
  diagnostics: Diagnostic[],
): ReadBody | null {
  const warn = (code: string, message: string) =>
    diagnostics.push({ level: 'warn', code, message, path: file.path });
  try {
    // The walk followed no symlinks; refuse a path that became one since.
    if (fs.realpath(file.path) !== file.path) {
      warn('symlink-rejected', `${file.relativePath} is now reached through a symlink and is not injected`);
      return null;
    }
  } catch (error) {
    if (isAbsent(error)) warn('vanished', `${file.relativePath} no longer exists and is not injected`);
    else warn('unreadable', `${file.relativePath} cannot be read (${errorCode(error)}) and is not injected`);
    return null;
  }
  const read = readInstruction(fs, file.path, { maxBytes });
  if (!read.ok) {
    const messages = {
      vanished: `${file.relativePath} no longer exists and is not injected`,
      unreadable: `${file.relativePath} cannot be read (${read.code ?? 'error'}) and is not injected`,
      'too-large': `${file.relativePath} is larger than maxFileBytes (${maxBytes}) and is never injected`,
      binary: `${file.relativePath} looks binary and is not injected`,
    };
    warn(read.fault, messages[read.fault]);
    return null;
  }
  if (read.invalidUtf8)
    warn('invalid-utf8', `${file.relativePath} is not valid UTF-8; invalid bytes are shown as U+FFFD`);
  if (read.hidden.length > 0)
    warn(
      'hidden-unicode',
      `${file.relativePath} holds invisible or direction-changing characters: ${describeHidden(read.hidden)}`,
    );
  return read;
}
