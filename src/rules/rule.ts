import type { HiddenCharacter } from '../fs/hidden-unicode.js';

/**
 * When a rule applies: `always` (every request), `glob` (a path in play matches one of its globs),
 * `requested` (listed by name and description; fetched on request) or `manual` (only when named).
 */
export type RuleKind = 'always' | 'glob' | 'requested' | 'manual';

/**
 * The agents a rule is for (docs/rules.md, "Agent scope"): `only` non-empty keeps it to the agents it
 * names (a Roo Code mode folder); `except` leaves out the agents it names (Copilot's `excludeAgent`).
 * Both empty: every agent, and a request without an agent. Names compare with the request's agent.
 */
export interface AgentScope {
  readonly only: readonly string[];
  readonly except: readonly string[];
}

/** The scope of a rule every agent gets. */
export const EVERY_AGENT: AgentScope = Object.freeze({
  only: Object.freeze([]) as readonly string[],
  except: Object.freeze([]) as readonly string[],
});

/** True when a rule scoped to `scope` applies to a request for `agent` (none: `undefined`). */
export function appliesToAgent(scope: AgentScope, agent: string | undefined): boolean {
  if (scope.only.length > 0 && (agent === undefined || !scope.only.includes(agent))) return false;
  return agent === undefined || !scope.except.includes(agent);
}

/**
 * One rule file of any vendor, normalized. Frozen once built; the engine never learns which vendor
 * it came from except through `source`. See docs/rules.md.
 */
export interface Rule {
  /** Absolute path as spelled (owner dir joined with the vendor folder and the file). */
  readonly path: string;
  /** Canonical path after symlinks; identity for dedupe. */
  readonly realPath: string;
  /** `path` relative to the work dir, `/` separators (`../.cursor/rules/x.mdc` above it). */
  readonly relativePath: string;
  /** Absolute directory holding the vendor folder; globs match paths relative to it. */
  readonly ownerDir: string;
  /** Path below the vendor's rules folder without the extension, `/` between folders. */
  readonly name: string;
  /** The adapter that read it: a `rules.sources` name (`cursor`, `claude`, `kiro`, …). */
  readonly source: string;
  readonly kind: RuleKind;
  /** Globs as written (split and trimmed); empty unless `kind` is `glob`. */
  readonly globs: readonly string[];
  /** Frontmatter `description`, or the empty string. */
  readonly description: string;
  /** Which agents the rule is for; {@link EVERY_AGENT} unless the vendor scopes it. */
  readonly agents: AgentScope;
  /**
   * Content patterns (Continue's `regex`), as written: a `glob` rule with patterns applies only when the
   * matched file's text matches one of them. Empty for every other rule.
   */
  readonly regex: readonly string[];
  /** The file's text without its frontmatter. */
  readonly text: string;
  /** Byte size of the whole file. */
  readonly bytes: number;
  /** SHA-256 of the file's raw bytes (frontmatter included), hex: the change-tracking signature. */
  readonly sha256: string;
  readonly mtimeMs: number;
  /** Invisible or direction-changing characters found in the text (already reported as a warn). */
  readonly hidden: readonly HiddenCharacter[];
}

/** Why a rule file was not turned into a {@link Rule}. */
export type SkipReason =
  | 'bad frontmatter'
  | 'bad glob'
  | 'bad regex'
  | 'over budget'
  | 'too large'
  | 'binary'
  | 'unreadable'
  | 'other agent';

/** A rule file that discovery found but skipped (a `warn` diagnostic says why). */
export interface SkippedRule {
  readonly path: string;
  readonly relativePath: string;
  readonly ownerDir: string;
  readonly name: string;
  readonly source: string;
  readonly reason: SkipReason;
  /** The problem in words, as in the diagnostic. */
  readonly problem: string;
}

/** A rule that applies to a path in play, and why. */
export interface RuleMatch {
  readonly rule: Rule;
  /** The path that brought it in, as the caller gave it. */
  readonly path: string;
  /** The glob that matched, as written; `null` for an `always` rule of a nested owner. */
  readonly glob: string | null;
  /** The content pattern the file's text matched, for a rule with `regex`. */
  readonly regex?: string;
}
