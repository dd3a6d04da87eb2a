import type { HostProfile, InstructionsConfig } from '../config/types.js';
import type { Rule } from '../rules/rule.js';
import type { Candidate } from './expand-entries.js';

// What the collection of one resolution's files is given besides the plan: the instruction sources
// (user file, chain, globs, extra files) and the rules. Its own file so that collect-files.ts and the
// modules it calls (chain-files.ts, layer-files.ts, user-files.ts) share it without a cycle.

/** The sources besides the contextPaths layers. */
export interface SourceOptions {
  readonly instructions: InstructionsConfig;
  /** How the preset's host walks, picks and orders the chain (absent: ctxfiles' own way). */
  readonly profile?: HostProfile | undefined;
  /** The user's home directory, for `~`. */
  readonly homeDir: string;
  /** Scoped rules (docs/rules.md); absent when `rules.sources` is empty. */
  readonly rules?: RulesSource | undefined;
  /** Values for `${env.NAME}` in `userFile` entries. Default: none (such entries are skipped). */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /**
   * The directory `contextPaths` resolve against and are contained in: the work dir, or the
   * project root with `contextRoot: project`. Default: the work dir.
   */
  readonly layerRoot?: string;
  /** The highest directory the chain may start at (see `ChainOptions.ceiling`). */
  readonly ceiling?: string | undefined;
  /**
   * Fills an `@rules` slot of the chain with that directory's `always` rules, in order
   * (docs/chains.md, "@rules"). Absent: the slot yields nothing.
   */
  readonly rulesAt?: (dir: string, depth: number) => readonly Candidate[];
  /**
   * The `instructions.globs` patterns a project-tier layer set, each with the directory of the file
   * that set it (real path): they match only there and below (docs/security.md, "Trust tiers").
   * Absent: every pattern came from a trusted layer.
   */
  readonly projectGlobs?: Readonly<Record<string, string>> | undefined;
}

/** The rules a resolution inlines, and the rule folders that `contextPaths` entries must not inline. */
export interface RulesSource {
  /** The `rules` layer, in order. */
  readonly layer: readonly Rule[];
  /** Absolute rule folders the rules engine reads (`<owner>/.cursor/rules`, …): entries naming one are left out. */
  readonly folders: { has(folder: string): boolean };
  /**
   * The `always` rules owned by one directory: for a chain candidate `@rules`, which places a chain
   * directory's rules inside the chain (they are then left out of `layer`).
   */
  readonly alwaysRulesOf?: ((dir: string) => readonly Rule[]) | undefined;
  /**
   * Rules whose `#[[file:path]]` references are followed with imports on (Kiro), by real path: the
   * directory their paths are relative to.
   */
  readonly fileReferences?: ReadonlyMap<string, string> | undefined;
}
