import path from 'node:path';
import type { DiagnosticCode } from '../diagnostics.js';
import { parseRule, type ParsedRule } from './parse-rule.js';
import { RULE_ADAPTERS } from './rule-adapters.js';
import type { Rule } from './rule.js';

/**
 * Parses the current text of a discovered rule file the way discovery read it (same adapter, same
 * location), so a session shows a rule's body, never its frontmatter, after the file changed. `null`
 * when the rule's source or location is no longer known (cannot happen for a rule discovery made).
 */
export function reparseRule(
  rule: Pick<Rule, 'path' | 'ownerDir' | 'source'>,
  text: string,
): ParsedRule | null {
  const adapter = RULE_ADAPTERS.get(rule.source);
  if (adapter === undefined) return null;
  const below = path.relative(rule.ownerDir, rule.path).split(path.sep).join('/');
  for (const location of adapter.locations) {
    if (location.type === 'file' ? below === location.path : below.startsWith(`${location.path}/`))
      return parseRule(text, adapter, location);
  }
  return null;
}

/** The diagnostic code of each reason {@link parseRule} refuses a file for. */
export const PARSE_CODES = {
  'bad frontmatter': 'rule-frontmatter',
  'bad glob': 'rule-glob',
  'bad regex': 'rule-regex',
  'over budget': 'rule-budget',
} as const satisfies Record<string, DiagnosticCode>;
