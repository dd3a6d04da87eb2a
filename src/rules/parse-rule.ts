import {
  MAX_DISCOVERY_PATTERNS,
  MAX_DISCOVERY_REGEX_PROGRAM,
  MAX_RULE_PATTERNS,
  MAX_RULE_REGEX_PROGRAM,
  type CompileBudget,
} from './compile-budget.js';
import { compileRuleGlobs, type CompiledGlob } from './compile-rule-globs.js';
import { regexProgramSize } from './regex-program-size.js';
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
      readonly reason: 'bad frontmatter' | 'bad glob' | 'bad regex' | 'over budget';
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
 * looks like frontmatter is not. With `budget` (one per discovery), what the rule's patterns compile
 * to is taken from it; a rule that needs more than is left is refused, `over budget`.
 */
export function parseRule(
  text: string,
  adapter: RuleAdapter,
  location: RuleLocation,
  budget?: CompileBudget,
): ParsedRule {
  if (adapter.frontmatter === 'verbatim') {
    // The tool sends the file as written (Roo Code): nothing is read from it, nothing left out.
    const classified = adapter.classify({ data: {}, lenient: false });
    if (!classified.ok) return { ok: false, reason: 'bad frontmatter', problem: classified.problem };
    return finish(adapter, classified, text, false, budget);
  }
  const frontmatter = readRuleFrontmatter(text, adapter.keys, budget);
  if (!frontmatter.ok && frontmatter.overBudget === true)
    return { ok: false, reason: 'over budget', problem: frontmatter.problem };
  if (location.type === 'file') {
    // A fixed-kind file needs no frontmatter: a leading `---` that opens none is a Markdown rule line.
    const body = frontmatter.ok ? frontmatter.body : text;
    const fixed: Classified = { ok: true, kind: location.kind, globs: location.globs ?? [], description: '' };
    return finish(adapter, fixed, body, frontmatter.ok && frontmatter.lenient, budget);
  }
  if (!frontmatter.ok) return { ok: false, reason: 'bad frontmatter', problem: frontmatter.problem };
  const classified = adapter.classify({ data: frontmatter.data, lenient: frontmatter.lenient });
  if (!classified.ok) return { ok: false, reason: 'bad frontmatter', problem: classified.problem };
  return finish(adapter, classified, frontmatter.body, frontmatter.lenient, budget);
}

/** Compiles the globs, checks the content patterns and cuts the body of a classified rule. */
function finish(
  adapter: RuleAdapter,
  classified: Classified,
  body: string,
  lenient: boolean,
  budget: CompileBudget | undefined,
): ParsedRule {
  const regex = classified.regex ?? NO_PATTERNS;
  const refused = overCount(classified.globs.length + regex.length, budget);
  if (refused !== null) return refused;
  const compiled = compileRuleGlobs(classified.globs, adapter.globs, adapter.source, budget);
  if (!compiled.ok)
    return { ok: false, reason: compiled.overBudget ? 'over budget' : 'bad glob', problem: compiled.problem };
  for (const pattern of regex) {
    // Counted before anything is compiled: past its own cap the check below refuses it, past what
    // the budget has left the rule is refused here.
    const size = regexProgramSize(pattern);
    if (budget !== undefined && size <= MAX_RULE_REGEX_PROGRAM && size > budget.regexProgram)
      return {
        ok: false,
        reason: 'over budget',
        problem: `regex ${JSON.stringify(pattern.slice(0, 60))} would pass the ${MAX_DISCOVERY_REGEX_PROGRAM} instructions one resolution compiles from content patterns`,
      };
    const problem = checkRuleRegex(pattern);
    if (problem !== null) return { ok: false, reason: 'bad regex', problem };
    if (budget !== undefined) budget.regexProgram -= size;
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

/** A refusal when a rule has more patterns than one rule may, or than the budget has left; else `null`. */
function overCount(count: number, budget: CompileBudget | undefined): ParsedRule | null {
  if (count > MAX_RULE_PATTERNS)
    return {
      ok: false,
      reason: 'over budget',
      problem: `${count} globs and content patterns, more than the ${MAX_RULE_PATTERNS} one rule may have`,
    };
  if (budget === undefined) return null;
  if (count > budget.patterns)
    return {
      ok: false,
      reason: 'over budget',
      problem: `its patterns would pass the ${MAX_DISCOVERY_PATTERNS} one resolution compiles`,
    };
  budget.patterns -= count;
  return null;
}

/** The first `max` code units of `text`, never ending inside a surrogate pair. */
function cut(text: string, max: number): string {
  const end = max > 0 && /[\uD800-\uDBFF]/.test(text[max - 1] ?? '') ? max - 1 : max;
  return text.slice(0, end);
}
