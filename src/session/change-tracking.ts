import path from 'node:path';
import type { FileInfo, FileSystem } from '../fs/file-system.js';
import { MAX_INLINE_BYTES, readInstruction } from '../fs/read-instruction.js';
import type { Diagnostic } from '../errors.js';
import type { InstructionEvent } from '../render/render-events.js';
import { unavailable, type ReadBody } from './read-faults.js';

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

/** A change to report: the event, the record that replaces the old one once it is shown. */
export interface TrackedChange {
  readonly event: InstructionEvent;
  readonly record: TrackedRecord;
  /** The path of the record it replaces. */
  readonly replaces: string;
}

/** The files a session tracks, by path. */
export interface ChangeTracker {
  /** True when nothing is tracked. */
  readonly empty: boolean;
  /** Compares every tracked file with the disk; unchanged content only refreshes its record. */
  check(diagnostics: Diagnostic[]): TrackedChange[];
  /** Records a change as shown. */
  accept(change: TrackedChange): void;
  /** Starts tracking a file the session injected (no-op when tracking is off). */
  add(file: { path: string; ownerDir: string }, body: Signature): void;
  records(): TrackedRecord[];
}

/**
 * Change tracking of one session (docs/disclosure.md): updates, candidate switches and removals
 * of the files shown so far. `candidates` are the chain's names, for switches.
 */
export function createChangeTracker(
  fs: FileSystem,
  tracking: { readonly enabled: boolean; readonly candidates: readonly string[] },
  initial: readonly TrackedRecord[],
): ChangeTracker {
  const tracked = new Map<string, TrackedRecord>();
  if (tracking.enabled) for (const record of initial) tracked.set(record.path, record);
  return {
    get empty() {
      return tracked.size === 0;
    },
    check(diagnostics) {
      const changes: TrackedChange[] = [];
      for (const record of tracked.values()) {
        const change = checkOne(fs, record, tracking.candidates, diagnostics);
        if (change === 'unchanged') continue;
        if (change.event === null) tracked.set(record.path, change.record);
        else changes.push({ ...change, event: change.event });
      }
      return changes;
    },
    accept(change) {
      tracked.delete(change.replaces);
      tracked.set(change.record.path, change.record);
    },
    add(file, body) {
      if (!tracking.enabled) return;
      const scope = tracking.candidates.includes(path.basename(file.path)) ? file.ownerDir : null;
      tracked.set(file.path, recordOf(file.path, body, scope));
    },
    records: () => [...tracked.values()],
  };
}

type Checked = 'unchanged' | { event: InstructionEvent | null; record: TrackedRecord; replaces: string };

/**
 * One tracked file against the disk: `unchanged`, a change to report, or (event `null`) a new
 * record for a file whose size or time changed but whose content did not.
 */
function checkOne(
  fs: FileSystem,
  record: TrackedRecord,
  candidates: readonly string[],
  diagnostics: Diagnostic[],
): Checked {
  let current: { path: string; info: FileInfo } | null;
  try {
    current =
      record.scope === null ? probeFile(fs, record.path) : firstCandidate(fs, record.scope, candidates);
  } catch (error) {
    diagnostics.push(unavailable(record.path, 'checked', { error }));
    return 'unchanged';
  }
  if (current === null) {
    if (record.removed) return 'unchanged';
    const event: InstructionEvent = { kind: 'removed', path: record.path };
    return { event, record: { ...record, removed: true }, replaces: record.path };
  }
  const moved = current.path !== record.path;
  const same = !moved && !record.removed;
  if (same && current.info.size === record.size && current.info.mtimeMs === record.mtimeMs)
    return 'unchanged';
  const read = readInstruction(fs, current.path, {
    maxBytes: MAX_INLINE_BYTES,
    expect: { dev: current.info.dev, ino: current.info.ino },
  });
  if (!read.ok) {
    diagnostics.push(unavailable(current.path, 'read', read));
    return 'unchanged';
  }
  const next = recordOf(current.path, read, record.scope);
  if (same && read.sha256 === record.sha256) return { event: null, record: next, replaces: record.path };
  const previousPath = moved && !record.removed ? record.path : undefined;
  const event: InstructionEvent = { kind: 'updated', path: current.path, text: read.text, previousPath };
  return { event, record: next, replaces: record.path };
}

/** What a record keeps of a file's content: its digest, size and time. */
type Signature = Pick<ReadBody, 'sha256' | 'bytes' | 'mtimeMs'>;

function recordOf(file: string, body: Signature, scope: string | null): TrackedRecord {
  return { path: file, sha256: body.sha256, size: body.bytes, mtimeMs: body.mtimeMs, scope, removed: false };
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
