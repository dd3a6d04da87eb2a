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
 * An empty rule source: the default of a connection created without one (embedders and tests);
 * `ctxfiles mcp` always passes {@link rulesOfResolver}.
 */
export const NO_RULES: RuleSource = Object.freeze({
  catalog: () => Promise.resolve([]),
  byName: () => Promise.resolve([]),
  emptyNote: 'No rules are available on this connection.',
});

/** What {@link rulesOfResolver} needs of a resolver. */
export interface RuleResolver {
  readonly config: { readonly rules?: { readonly sources: readonly string[] } | undefined };
  resolve(request: { readonly manifest: false; readonly agent?: string }): Promise<{
    readonly rules?: ReadonlyArray<{
      readonly name: string;
      readonly path: string;
      readonly kind: RuleKind | null;
      readonly description: string;
      readonly globs: readonly string[];
    }>;
  }>;
  rule(
    name: string,
    request?: { readonly agent?: string },
  ): Promise<
    ReadonlyArray<{
      readonly name: string;
      readonly path: string;
      readonly kind: RuleKind;
      readonly description: string;
      readonly globs: readonly string[];
      readonly text: string;
    }>
  >;
}

/**
 * The rule source backed by the rules engine (docs/rules.md): the catalog is every rule the
 * resolver found for `request.agent` (files discovery skipped and rules of other agents are left
 * out), in discovery order; `byName` is `resolver.rule(name, request)`. Glob rules reach `instructions_for_path` through the session, like nested
 * files.
 */
export function rulesOfResolver(
  resolver: RuleResolver,
  request: { readonly agent?: string | undefined } = {},
): RuleSource {
  // Rules scoped to another agent are not served (docs/rules.md, "Agent scope").
  const scope = request.agent === undefined ? {} : { agent: request.agent };
  const sources = resolver.config.rules?.sources ?? [];
  const summary = (rule: Omit<RuleSummary, 'kind'> & { readonly kind: RuleKind | null }): RuleSummary =>
    Object.freeze({
      name: rule.name,
      kind: rule.kind as RuleKind,
      description: rule.description,
      globs: rule.globs,
      path: rule.path,
    });
  return Object.freeze({
    async catalog() {
      const result = await resolver.resolve({ manifest: false, ...scope });
      return (result.rules ?? []).filter((rule) => rule.kind !== null).map(summary);
    },
    async byName(name: string) {
      return (await resolver.rule(name, scope)).map((rule) =>
        Object.freeze({ ...summary(rule), text: rule.text }),
      );
    },
    emptyNote:
      sources.length === 0
        ? 'No rules are available: rules.sources is empty in the config (see docs/rules.md).'
        : `No rule files were found for rules.sources (${sources.join(', ')}).`,
  });
}
