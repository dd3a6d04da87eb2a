/** How a rule applies, as the rules engine classifies it. */
export type RuleKind = 'always' | 'glob' | 'requested' | 'manual';

/** One entry of the rule catalog that `list_rules` returns. */
export interface RuleSummary {
  /** The name `get_rule` accepts. */
  readonly name: string;
  readonly kind: RuleKind;
  /** The rule's own description; empty when it has none. */
  readonly description: string;
  /** Globs (relative to the rule's owner directory) for `glob` rules; empty otherwise. */
  readonly globs: readonly string[];
  /** Absolute path of the rule file. */
  readonly path: string;
}

/** A rule with its body, as `get_rule` returns it. */
export interface RuleBody extends RuleSummary {
  readonly text: string;
}

/**
 * Where the MCP tools `list_rules` and `get_rule` get rules from. The server asks nothing else of
 * the rules engine: glob rules that match a path are expected to come through the disclosure
 * session (`session.afterTool`), like nested files, so `instructions_for_path` needs no hook.
 */
export interface RuleSource {
  /** Every rule, requested and manual ones included, in catalog order. */
  catalog(): Promise<readonly RuleSummary[]>;
  /** The rules with this name (two rules may share one); empty when none has it. */
  byName(name: string): Promise<readonly RuleBody[]>;
  /** Said in words when the catalog is empty. */
  readonly emptyNote: string;
}

/**
 * The rule source of this build: an empty catalog. Replaced by one backed by the rules engine
 * once `rules.sources` is implemented (see docs/mcp.md).
 */
export const NO_RULES: RuleSource = Object.freeze({
  catalog: () => Promise.resolve([]),
  byName: () => Promise.resolve([]),
  emptyNote: 'No rules are available: this version of ctxfiles reads no rule folders yet.',
});
