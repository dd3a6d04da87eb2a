import { compileRuleGlobs, type CompiledGlob } from './compile-rule-globs.js';
import { checkRuleRegex } from './rule-regex.js';
import { readRuleFrontmatter } from './read-rule-frontmatter.js';
import type { Classification, RuleAdapter, RuleLocation } from './rule-adapter.js';
import { EVERY_AGENT, type AgentScope, type RuleKind } from './rule.js';

/** The outcome of {@link parseRule}. */
export type ParsedRule =
  | {
      readonly ok: true;
      readonly kind: RuleKind;
      readonly globs: readonly string[];
      readonly compiled: readonly CompiledGlob[];
      readonly description: string;
      readonly agents: AgentScope;
      readonly regex: readonly string[];
      readonly text: string;
      /** YAML rejected the frontmatter and the known keys were read line by line. */
      readonly lenient: boolean;
      /** The body was cut to the adapter's `maxChars`. */
      readonly truncated: boolean;
    }
  | {
      readonly ok: false;
      readonly reason: 'bad frontmatter' | 'bad glob' | 'bad regex';
      readonly problem: string;
    };

type Classified = Extract<Classification, { ok: true }>;

/** The content patterns of every rule without any: one frozen list, shared. */
const NO_PATTERNS: readonly string[] = Object.freeze([]);

/**
 * Turns a rule file's text into its kind, globs (compiled), description, agent scope, content
 * patterns and body, the way `adapter` reads files at `location`. Pure; never throws. A file at a
 * fixed-kind location (Copilot's `copilot-instructions.md`, a single-file `.clinerules`, a nested
 * `AGENTS.md` for Windsurf) keeps that kind whatever its frontmatter, and keeps its whole text when what
 * looks like frontmatter is not.
 */
export function parseRule(text: string, adapter: RuleAdapter, location: RuleLocation): ParsedRule {
  const frontmatter = readRuleFrontmatter(text, adapter.keys);
  if (location.type === 'file') {
    // A fixed-kind file needs no frontmatter: a leading `---` that opens none is a Markdown rule line.
    const body = frontmatter.ok ? frontmatter.body : text;
    const fixed: Classified = { ok: true, kind: location.kind, globs: location.globs ?? [], description: '' };
    return finish(adapter, fixed, body, frontmatter.ok && frontmatter.lenient);
  }
  if (!frontmatter.ok) return { ok: false, reason: 'bad frontmatter', problem: frontmatter.problem };
  const classified = adapter.classify({ data: frontmatter.data, lenient: frontmatter.lenient });
  if (!classified.ok) return { ok: false, reason: 'bad frontmatter', problem: classified.problem };
  return finish(adapter, classified, frontmatter.body, frontmatter.lenient);
}

/** Compiles the globs, checks the content patterns and cuts the body of a classified rule. */
function finish(adapter: RuleAdapter, classified: Classified, body: string, lenient: boolean): ParsedRule {
  const compiled = compileRuleGlobs(classified.globs, adapter.globs, adapter.source);
  if (!compiled.ok) return { ok: false, reason: 'bad glob', problem: compiled.problem };
  const regex = classified.regex ?? NO_PATTERNS;
  for (const pattern of regex) {
    const problem = checkRuleRegex(pattern);
    if (problem !== null) return { ok: false, reason: 'bad regex', problem };
  }
  const max = adapter.maxChars;
  const truncated = max !== undefined && body.length > max;
  return {
    ok: true,
    kind: classified.kind,
    globs: classified.globs,
    compiled: compiled.globs,
    description: classified.description,
    agents: classified.agents ?? EVERY_AGENT,
    regex,
    text: truncated ? cut(body, max) : body,
    lenient,
    truncated,
  };
}

/** The first `max` code units of `text`, never ending inside a surrogate pair. */
function cut(text: string, max: number): string {
  const end = max > 0 && /[\uD800-\uDBFF]/.test(text[max - 1] ?? '') ? max - 1 : max;
  return text.slice(0, end);
}
