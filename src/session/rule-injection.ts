import path from 'node:path';
import type { Diagnostic } from '../errors.js';
import { isInside } from '../fs/contain.js';
import type { FileSystem } from '../fs/file-system.js';
import type { RuleSet } from '../rules/create-rule-set.js';
import { PARSE_CODES, reparseRule } from '../rules/rule-body.js';
import type { Rule } from '../rules/rule.js';
import { readNested } from './injection.js';
import type { ReadBody } from './read-faults.js';
import { toPosix } from '../shared/to-posix.js';

/** The rules a session may inject (docs/rules.md, "In a session"). */
export interface SessionRules {
  readonly set: RuleSet;
  /** Real paths of the rules the block already shows: never injected. */
  readonly inlined: ReadonlySet<string>;
}

/** A rule due in a tool result, and the line that says why. */
export interface DueRule {
  readonly rule: Rule;
  readonly note: string;
}

/**
 * The rules a tool call brings in that the session has not shown (`done` holds relative paths):
 * `glob` rules matching a touched file, then `always` rules of nested owners holding a touched file or
 * directory; each once, in discovery order. Cost: one cached `rulesFor` lookup per file and a walk up
 * the directories of each touched directory through a map of nested owners.
 */
export function dueRules(
  rules: SessionRules,
  nestedByOwner: ReadonlyMap<string, readonly Rule[]>,
  workDir: string,
  files: readonly string[],
  dirs: readonly string[],
  done: ReadonlySet<string>,
): DueRule[] {
  const due = new Map<Rule, string>();
  const open = (rule: Rule) =>
    !done.has(rule.relativePath) && !rules.inlined.has(rule.realPath) && !due.has(rule);
  if (files.length > 0)
    for (const match of rules.set.rulesFor(files)) {
      if (!open(match.rule)) continue;
      const file = toPosix(path.relative(workDir, match.path));
      due.set(
        match.rule,
        match.regex !== undefined
          ? `${file} matches its ${match.glob === null ? '' : `glob ${match.glob} and its `}pattern ${match.regex}`
          : match.glob === null
            ? `it applies to everything under ${ownerOf(match.rule, workDir)}, where ${file} is`
            : `${file} matches its glob ${match.glob}`,
      );
    }
  if (nestedByOwner.size > 0)
    for (const dir of dirs) {
      if (dir === workDir || !isInside(workDir, dir)) continue;
      for (let current = dir; current.length > workDir.length; current = path.dirname(current))
        for (const rule of nestedByOwner.get(current) ?? [])
          if (open(rule))
            due.set(rule, `it applies to everything under ${ownerOf(rule, workDir)}, where the tool worked`);
    }
  if (due.size === 0) return [];
  if (due.size === 1) return [...due.entries()].map(([rule, why]) => ({ rule, note: ruleNote(rule, why) }));
  const order = new Map(rules.set.rules.map((rule, index) => [rule, index]));
  return [...due.entries()]
    .sort(([a], [b]) => (order.get(a) as number) - (order.get(b) as number))
    .map(([rule, why]) => ({ rule, note: ruleNote(rule, why) }));
}

/** Groups the `always` rules of nested owners by owner directory. */
export function nestedRulesByOwner(set: RuleSet): ReadonlyMap<string, readonly Rule[]> {
  const byOwner = new Map<string, Rule[]>();
  for (const rule of set.nested()) {
    const list = byOwner.get(rule.ownerDir) ?? [];
    list.push(rule);
    byOwner.set(rule.ownerDir, list);
  }
  return byOwner;
}

/** The first line of an injected rule: its name, source and why it is shown. */
export function ruleNote(rule: Rule, why: string): string {
  return `Rule ${JSON.stringify(rule.name)} (${rule.source}) applies: ${why}.`;
}

function ownerOf(rule: Rule, workDir: string): string {
  const relative = toPosix(path.relative(workDir, rule.ownerDir));
  return relative === '' ? '.' : `${relative}/`;
}

/**
 * Reads a rule file when it is injected, not when the session started (docs/rules.md, "In a
 * session"): the same checks and bounded read as a nested file, then the rule's body without
 * frontmatter. `null` with a `warn` when the file vanished, cannot be read, or no longer parses.
 */
export function readRule(
  fs: FileSystem,
  rule: Rule,
  maxBytes: number,
  diagnostics: Diagnostic[],
): { readonly text: string; readonly read: ReadBody } | null {
  const read = readNested(fs, rule, maxBytes, diagnostics);
  if (read === null) return null;
  const text = ruleBodyOf(rule, read.text, diagnostics);
  return text === null ? null : { text, read };
}

/** The body of a rule file's current text; `null` with a `warn` when it no longer parses. */
export function ruleBodyOf(
  rule: Pick<Rule, 'path' | 'relativePath' | 'ownerDir' | 'source'>,
  text: string,
  diagnostics: Diagnostic[],
): string | null {
  const parsed = reparseRule(rule, text);
  if (parsed === null) return text;
  if (parsed.ok) return parsed.text;
  diagnostics.push({
    level: 'warn',
    code: PARSE_CODES[parsed.reason],
    message: `${rule.relativePath}: ${parsed.problem}; the rule is not shown`,
    path: rule.path,
  });
  return null;
}
