import type { TrackedRecord } from './change-tracking.js';

// What a session has shown, as plain JSON a runner stores and resumes (`session.state()`, checked on
// the way back in by src/session/session-state.ts); the engine that fills it is
// src/session/disclosure.ts.

/** One injected nested file in the session state. */
export interface InjectedRecord {
  /** Path relative to the work dir. */
  readonly path: string;
  readonly sha256: string;
  readonly bytes: number;
}

/**
 * What a session has shown: plain JSON, so a runner can store it and resume. A file the host shows
 * by itself, or one with the identity of a file shown already (a link twin), is `skipped`.
 */
export interface DisclosureState {
  readonly version: 1;
  /** Nested files injected, in order. */
  readonly injected: readonly InjectedRecord[];
  /**
   * Nested files and rules that will not be injected (too large, unreadable, binary, shown by the
   * host itself, or the same file as one shown already), relative paths.
   */
  readonly skipped: readonly string[];
  /** Bytes of injected text so far. */
  readonly bytes: number;
  /** True once `maxSessionBytes` stopped injection. */
  readonly exhausted: boolean;
  /** Files under change tracking (empty when tracking is off). */
  readonly tracked: readonly TrackedRecord[];
}

/** A fresh state. */
export function emptyDisclosureState(): DisclosureState {
  return { version: 1, injected: [], skipped: [], bytes: 0, exhausted: false, tracked: [] };
}
