import type { Format, WordingConfig } from '../config/types.js';
import type { NestedFile, NestedIndex } from '../discover/nested-index.js';
import type { Diagnostic } from '../errors.js';
import type { FileSystem } from '../fs/file-system.js';
import type { FormatLookup } from '../render/render-types.js';
import type { ChangeTracker, TrackedRecord } from './change-tracking.js';
import type { InjectedRecord } from './disclosure-state.js';
import type { InViewTest, ShownIdentities } from './identity.js';
import type { nestedRulesByOwner, SessionRules } from './rule-injection.js';
import type { ToolTable } from './tool-table.js';
import type { TouchMemo } from './touch-memo.js';

// The types a disclosure engine is built from: the options it opens with and the state its tool
// calls share, kept apart so that src/session/disclosure.ts and the steps and frames it calls
// (disclosure-steps.ts, result-frames.ts) can all import them without a cycle.

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
  /** The host formats (their session frames), handed down from the host registry. */
  readonly formats: FormatLookup;
  readonly wording: WordingConfig;
  /** Change tracking: off, or on with the chain's candidate names (for switches). */
  readonly tracking: { readonly enabled: boolean; readonly candidates: readonly string[] };
  /** Files shown in the system prompt; tracked when the state brings no `tracked` list. */
  readonly baseline: readonly TrackedRecord[];
  /**
   * True when the resumed state comes from an earlier session of the same history and this one
   * starts from a new system prompt (the next step of a flow): the files of this prompt are tracked
   * as they are now, the state's other tracked files carry on.
   */
  readonly newPrompt?: boolean | undefined;
  /** Tool names and what they touch; default the built-in table (docs/disclosure.md#tool-names). */
  readonly tools?: ToolTable | undefined;
  /** Scoped rules to inject (docs/rules.md); absent when rules are off. */
  readonly rules?: SessionRules | undefined;
  /**
   * The host profile's `order`: the nested files one tool call discloses, from the work dir down
   * (`root-first`, default) or from the touched directory up (`closest-first`).
   */
  readonly order?: 'root-first' | 'closest-first' | 'path' | undefined;
  /**
   * The work dir as the caller spelled it, when it differs from the canonical `workDir` (a
   * symlinked cwd): tool paths under it are read as paths under `workDir`, and injected paths are
   * shown under it.
   */
  readonly spelledWorkDir?: string | undefined;
  /**
   * Expands the `@path` imports of an injected body (docs/imports.md); absent: imports are off.
   * Returns the text to inject (inline mode) and the imported files to inject after it (entries).
   */
  readonly expandBody?:
    | ((
        file: NestedFile,
        body: { readonly text: string; readonly sha256: string },
        diagnostics: Diagnostic[],
      ) => { readonly text: string; readonly imported: readonly ImportedBody[] })
    | undefined;
  /**
   * What the host shows by itself (DESIGN §13, "A host's own view"): a nested file or rule it
   * holds is never injected. Absent: the host shows nothing by itself.
   */
  readonly inView?: InViewTest | undefined;
}

/** A file an injected nested file imports, injected right after it. */
export interface ImportedBody {
  readonly path: string;
  readonly text: string;
  readonly sha256: string;
  readonly bytes: number;
}

/** The state one disclosure engine shares between its tool calls. */
export interface Session {
  readonly options: DisclosureOptions;
  /** Tool names and touched paths, remembered by the strings the calls use. */
  readonly memo: TouchMemo;
  readonly injected: InjectedRecord[];
  readonly skipped: Set<string>;
  /** Tool names already reported by a `notice`, with its code. */
  readonly noticed: Set<string>;
  /** Relative paths injected or skipped: never injected again by a tool call. */
  readonly done: Set<string>;
  /** The files shown, by identity: another route to one of them is never injected. */
  readonly identities: ShownIdentities;
  readonly tracker: ChangeTracker;
  readonly budget: { bytes: number; exhausted: boolean };
  readonly nestedRules: ReturnType<typeof nestedRulesByOwner>;
  /** Shows a canonical path as the caller spelled the work dir. */
  readonly shown: (file: string) => string;
  readonly frameOptions: DisclosureOptions;
}
