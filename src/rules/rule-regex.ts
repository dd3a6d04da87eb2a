import { createRequire } from 'node:module';
import { MAX_DISCOVERY_REGEX_PROGRAM, MAX_RULE_REGEX_PROGRAM } from './compile-budget.js';
import { regexProgramSize } from './regex-program-size.js';

// RE2JS (a port of RE2) matches in time linear in the text, whatever the pattern: a pattern from a
// repository file can never make ctxfiles backtrack. It loads with the first rule that has one.
const require = createRequire(import.meta.url);
type Re2 = typeof import('re2js').RE2JS;
let library: Re2 | undefined;
const re2 = (): Re2 => (library ??= (require('re2js') as typeof import('re2js')).RE2JS);

/** Longest content pattern accepted, in characters. */
export const MAX_RULE_REGEX_LENGTH = 1_000;

/**
 * Compiled patterns, by pattern. Bounded by the size of what it holds, not by a count: at most
 * {@link MAX_DISCOVERY_REGEX_PROGRAM} instructions in all (a pattern refused counts one), so every
 * pattern one discovery accepted fits, and a long-lived process (the MCP server) holds no more.
 */
const compiled = new Map<string, { regex: ReturnType<Re2['compile']> | null; size: number }>();
let cachedSize = 0;

function compile(pattern: string): ReturnType<Re2['compile']> | null {
  const cached = compiled.get(pattern);
  if (cached !== undefined) return cached.regex;
  let regex: ReturnType<Re2['compile']> | null = null;
  const size = pattern.length <= MAX_RULE_REGEX_LENGTH ? regexProgramSize(pattern) : Infinity;
  try {
    if (size <= MAX_RULE_REGEX_PROGRAM) regex = re2().compile(pattern);
  } catch {
    regex = null;
  }
  const kept = regex === null ? 1 : size;
  if (cachedSize + kept > MAX_DISCOVERY_REGEX_PROGRAM) {
    compiled.clear();
    cachedSize = 0;
  }
  compiled.set(pattern, { regex, size: kept });
  cachedSize += kept;
  return regex;
}

/** The instructions the compile cache holds now (for tests: it never holds more than its bound). */
export function regexCacheSize(): number {
  return cachedSize;
}

/**
 * Why a rule's content pattern is refused, or `null` when it is accepted: empty, longer than
 * {@link MAX_RULE_REGEX_LENGTH}, a program of more than {@link MAX_RULE_REGEX_PROGRAM}
 * instructions (counted before compiling it: src/rules/regex-program-size.ts), or not RE2 syntax
 * (back-references and look-arounds, the constructs that need backtracking, are not)
 * (docs/rules.md, "Content patterns" and "Bounds").
 */
export function checkRuleRegex(pattern: string): string | null {
  const shown = JSON.stringify(pattern.length > 60 ? `${pattern.slice(0, 59)}…` : pattern);
  if (pattern === '') return 'regex is empty';
  if (pattern.length > MAX_RULE_REGEX_LENGTH)
    return `regex ${shown} is longer than ${MAX_RULE_REGEX_LENGTH} characters`;
  if (regexProgramSize(pattern) > MAX_RULE_REGEX_PROGRAM)
    return `regex ${shown} compiles to more than ${MAX_RULE_REGEX_PROGRAM} instructions (counted repeats multiply)`;
  if (compile(pattern) === null)
    return `regex ${shown} is not accepted: back-references and look-arounds cannot be matched in linear time`;
  return null;
}

/** True when `pattern` (checked by {@link checkRuleRegex}) matches somewhere in `text`, in linear time. */
export function ruleRegexMatches(pattern: string, text: string): boolean {
  const regex = compile(pattern);
  return regex !== null && regex.matcher(text).find();
}
