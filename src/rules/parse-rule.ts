import { compileRuleGlobs, type CompiledGlob } from './compile-rule-globs.js';
import { readRuleFrontmatter } from './read-rule-frontmatter.js';
import type { RuleAdapter, RuleLocation } from './rule-adapter.js';
import type { RuleKind } from './rule.js';

/** The outcome of {@link parseRule}. */
export type ParsedRule =
  | {
      readonly ok: true;
      readonly kind: RuleKind;
      readonly globs: readonly string[];
      readonly compiled: readonly CompiledGlob[];
      readonly description: string;
      readonly text: string;
      /** YAML rejected the frontmatter and the known keys were read line by line. */
      readonly lenient: boolean;
    }
  | { readonly ok: false; readonly reason: 'bad frontmatter' | 'bad glob'; readonly problem: string };

/**
 * Turns a rule file's text into its kind, globs (compiled), description and body, the way `adapter`
 * reads files at `location`. Pure; never throws. A file at a fixed-kind location (Copilot's
 * `copilot-instructions.md`, a single-file `.clinerules`) keeps that kind whatever its frontmatter,
 * and keeps its whole text when what looks like frontmatter is not.
 */
export function parseRule(text: string, adapter: RuleAdapter, location: RuleLocation): ParsedRule {
  const frontmatter = readRuleFrontmatter(text, adapter.keys);
  // A fixed-kind file needs no frontmatter: a leading `---` that opens none is a Markdown rule line.
  if (!frontmatter.ok && location.type === 'file')
    return { ok: true, kind: location.kind, globs: [], compiled: [], description: '', text, lenient: false };
  if (!frontmatter.ok) return { ok: false, reason: 'bad frontmatter', problem: frontmatter.problem };
  const base = { text: frontmatter.body, lenient: frontmatter.lenient };
  if (location.type === 'file')
    return { ok: true, kind: location.kind, globs: [], compiled: [], description: '', ...base };
  const classified = adapter.classify({ data: frontmatter.data, lenient: frontmatter.lenient });
  if (!classified.ok) return { ok: false, reason: 'bad frontmatter', problem: classified.problem };
  const compiled = compileRuleGlobs(classified.globs, adapter.globs, adapter.source);
  if (!compiled.ok) return { ok: false, reason: 'bad glob', problem: compiled.problem };
  return {
    ok: true,
    kind: classified.kind,
    globs: classified.globs,
    compiled: compiled.globs,
    description: classified.description,
    ...base,
  };
}
