import path from 'node:path';
import { isInside } from '../fs/contain.js';
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

/** What change tracking needs of a file shown at the start (a resolved context file's fields). */
export interface ShownFile {
  readonly path: string;
  readonly sha256: string;
  readonly bytes: number;
  readonly mtimeMs: number;
  /** `chain` files are scoped to their directory (a switched candidate is reported as such). */
  readonly source: string;
  /** Files whose text this one holds between import markers (`imports.mode: inline`). */
  readonly inlined?: readonly {
    readonly path: string;
    readonly sha256: string;
    readonly bytes: number;
    readonly mtimeMs: number;
  }[];
}

/**
 * The records change tracking starts from for the files shown at the start of a session: each
 * file, and each file it holds inline (docs/disclosure.md, "Change tracking").
 */
export function baselineRecords(files: readonly ShownFile[]): TrackedRecord[] {
  return files.flatMap((file) => [
    recordOf(file.path, file, file.source === 'chain' ? path.dirname(file.path) : null),
    ...(file.inlined ?? []).map((imported) => recordOf(imported.path, imported, null)),
  ]);
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
 * What a tracked file may be, as for every other read (docs/security.md): its real path inside the
 * (canonical) work dir, or the real path of a file the session's start showed from outside it (a
 * chain file, the user file, an extra file). A parent directory swapped for a symlink since then
 * changes the real path, so the file is not read.
 */
export interface TrackingContainment {
  readonly workDir: string;
  /** Real paths of the baseline files outside the work dir. */
  readonly outside: ReadonlySet<string>;
}

/** The {@link TrackingContainment} of a session that started from `baseline`. */
export function trackingContainment(
  fs: FileSystem,
  workDir: string,
  baseline: readonly TrackedRecord[],
): TrackingContainment {
  const outside = new Set<string>();
  for (const record of baseline) {
    if (isInside(workDir, record.path)) continue;
    try {
      outside.add(fs.realpath(record.path));
    } catch {
      // Gone already: nothing outside the work dir to allow for it.
    }
  }
  return { workDir, outside };
}

/**
 * True when a record of a resumed state names a file this session could track: inside the work
 * dir (scope included), or a baseline file outside it with the same scope.
 */
export function isTrackable(
  record: TrackedRecord,
  workDir: string,
  baseline: readonly TrackedRecord[],
): boolean {
  if (isInside(workDir, record.path)) return record.scope === null || isInside(workDir, record.scope);
  return baseline.some((shown) => shown.path === record.path && shown.scope === record.scope);
}

/**
 * What an updated file shows, from its new text: a rule file its body without frontmatter
 * (docs/rules.md, "In a session"). `null` (with a diagnostic) when the new text cannot be shown.
 */
export type BodyOf = (file: string, text: string, diagnostics: Diagnostic[]) => string | null;

/**
 * Change tracking of one session (docs/disclosure.md): updates, candidate switches and removals
 * of the files shown so far. `candidates` are the chain's names, for switches. Every file is
 * checked against `containment` before it is read. `bodyOf` turns an updated file's text into
 * what is shown (default: the text itself).
 */
export function createChangeTracker(
  fs: FileSystem,
  tracking: { readonly enabled: boolean; readonly candidates: readonly string[] },
  initial: readonly TrackedRecord[],
  containment: TrackingContainment,
  bodyOf: BodyOf = (_file, text) => text,
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
        const change = checkOne(fs, record, tracking.candidates, containment, bodyOf, diagnostics);
        if (change === 'unchanged') continue;
        if (change === 'refused') {
          tracked.delete(record.path);
          continue;
        }
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

type Checked =
  'unchanged' | 'refused' | { event: InstructionEvent | null; record: TrackedRecord; replaces: string };

/**
 * One tracked file against the disk: `unchanged`, a change to report, or (event `null`) a new
 * record for a file whose size or time changed but whose content did not.
 */
function checkOne(
  fs: FileSystem,
  record: TrackedRecord,
  candidates: readonly string[],
  containment: TrackingContainment,
  bodyOf: BodyOf,
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
  if (!contained(fs, current.path, containment)) {
    diagnostics.push({
      level: 'warn',
      code: 'symlink-outside-workdir',
      message: `${current.path} now leads outside the work dir (a symlink on its path); it is no longer tracked`,
      path: current.path,
    });
    return 'refused';
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
  const text = bodyOf(current.path, read.text, diagnostics);
  if (text === null) return { event: null, record: next, replaces: record.path };
  const previousPath = moved && !record.removed ? record.path : undefined;
  const event: InstructionEvent = { kind: 'updated', path: current.path, text, previousPath };
  return { event, record: next, replaces: record.path };
}

function contained(fs: FileSystem, file: string, containment: TrackingContainment): boolean {
  let real: string;
  try {
    real = fs.realpath(file);
  } catch {
    return false;
  }
  return isInside(containment.workDir, real) || containment.outside.has(real);
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
