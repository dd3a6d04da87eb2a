import { createRequire } from 'node:module';

// RE2JS (a port of RE2) matches in time linear in the text, whatever the pattern: a pattern from a
// repository file can never make ctxfiles backtrack. It loads with the first rule that has one.
const require = createRequire(import.meta.url);
type Re2 = typeof import('re2js').RE2JS;
let library: Re2 | undefined;
const re2 = (): Re2 => (library ??= (require('re2js') as typeof import('re2js')).RE2JS);

/** Longest content pattern accepted, in characters (RE2's own program-size cap also applies). */
export const MAX_RULE_REGEX_LENGTH = 1_000;

const compiled = new Map<string, ReturnType<Re2['compile']> | null>();

function compile(pattern: string): ReturnType<Re2['compile']> | null {
  if (compiled.has(pattern)) return compiled.get(pattern) ?? null;
  let regex: ReturnType<Re2['compile']> | null = null;
  try {
    if (pattern.length <= MAX_RULE_REGEX_LENGTH) regex = re2().compile(pattern);
  } catch {
    regex = null;
  }
  if (compiled.size >= 1_024) compiled.clear();
  compiled.set(pattern, regex);
  return regex;
}

/**
 * Why a rule's content pattern is refused, or `null` when it is accepted: empty, longer than
 * {@link MAX_RULE_REGEX_LENGTH}, or not RE2 syntax (back-references and look-arounds, the constructs
 * that need backtracking, are not) (docs/rules.md, "Content patterns").
 */
export function checkRuleRegex(pattern: string): string | null {
  const shown = JSON.stringify(pattern.length > 60 ? `${pattern.slice(0, 59)}…` : pattern);
  if (pattern === '') return 'regex is empty';
  if (pattern.length > MAX_RULE_REGEX_LENGTH)
    return `regex ${shown} is longer than ${MAX_RULE_REGEX_LENGTH} characters`;
  if (compile(pattern) === null)
    return `regex ${shown} is not accepted: back-references and look-arounds cannot be matched in linear time`;
  return null;
}

/** True when `pattern` (checked by {@link checkRuleRegex}) matches somewhere in `text`, in linear time. */
export function ruleRegexMatches(pattern: string, text: string): boolean {
  const regex = compile(pattern);
  return regex !== null && regex.matcher(text).find();
}
