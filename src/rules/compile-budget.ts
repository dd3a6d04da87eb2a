/**
 * Hard budgets for what ctxfiles compiles from repository files: rule globs (automata), content
 * patterns (RE2 programs) and the frontmatter the YAML parser reads. A pattern past its own cap, a rule with too many patterns, or a rule
 * that would spend more than what is left of the budget of one discovery (one resolution) is
 * skipped with a `warn`, never the command (docs/rules.md, "Bounds").
 */

/** Most globs plus content patterns one rule may have. */
export const MAX_RULE_PATTERNS = 64;
/** Most automaton states one rule glob may compile to (a config's own globs may have more). */
export const MAX_RULE_GLOB_STATES = 4_096;
/** Most RE2 instructions one content pattern may compile to (src/rules/regex-program-size.ts). */
export const MAX_RULE_REGEX_PROGRAM = 4_096;
/** Most globs plus content patterns compiled in one discovery. */
export const MAX_DISCOVERY_PATTERNS = 20_000;
/** Most automaton states of every rule glob of one discovery. */
export const MAX_DISCOVERY_GLOB_STATES = 200_000;
/** Most RE2 instructions of every content pattern of one discovery. */
export const MAX_DISCOVERY_REGEX_PROGRAM = 40_000;
/**
 * Most bytes of rule frontmatter given to the YAML parser in one discovery (blocks of plain
 * one-line pairs, read directly, are not counted): 2 MiB, about a second of parsing.
 */
export const MAX_DISCOVERY_YAML_BYTES = 2 * 1024 * 1024;

/** What is left to compile in one discovery; spent as rules are parsed. */
export interface CompileBudget {
  patterns: number;
  globStates: number;
  regexProgram: number;
  yamlBytes: number;
}

/** A full budget, for one discovery (one resolution). */
export function createCompileBudget(): CompileBudget {
  return {
    patterns: MAX_DISCOVERY_PATTERNS,
    globStates: MAX_DISCOVERY_GLOB_STATES,
    regexProgram: MAX_DISCOVERY_REGEX_PROGRAM,
    yamlBytes: MAX_DISCOVERY_YAML_BYTES,
  };
}
