import type { z } from 'zod';
import { suggest, type Problem } from '../errors.js';
import type { SourceText } from './source-text.js';

/**
 * Keys that existed only to reproduce a host and became part of the hosts' profiles (DESIGN §13,
 * docs/config.md "Host profiles"): an error that says so, not a bare "unknown key".
 */
const RETIRED_KEYS: ReadonlySet<string> = new Set([
  'instructions.fallbackCandidates',
  'instructions.trim',
  'instructions.htmlComments',
  'instructions.order',
  'instructions.candidateScope',
  'instructions.projectRootFallback',
  'instructions.walkFrom',
  'imports.style',
  'imports.punctuation',
]);

function retiredMessage(key: string): string {
  return `"${key}" is no longer a config key: it reproduced a host, and the presets of the hosts that need it set it in their host profile. Remove it, and name the preset to get that behaviour (docs/config.md, "Host profiles").`;
}

/**
 * Maps zod issues to problem lines in the shape of every config error (docs/config.md, "Errors and
 * warnings"): one per issue, located at its key path, never a raw
 * ZodError. `knownKeys` returns the keys allowed at a path, for "did you mean" hints.
 */
export function toProblems(
  issues: readonly z.core.$ZodIssue[],
  source: SourceText,
  prefix: readonly PropertyKey[],
  knownKeys: (keyPath: readonly PropertyKey[]) => readonly string[],
): Problem[] {
  const problems: Problem[] = [];
  for (const issue of issues) {
    const keyPath = [...prefix, ...issue.path];
    const branch = issue.code === 'invalid_union' ? likelyBranch(issue.errors) : undefined;
    if (branch !== undefined) {
      problems.push(...toProblems(branch, source, keyPath, (path) => knownKeys([...issue.path, ...path])));
      continue;
    }
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        if (RETIRED_KEYS.has([...issue.path, key].join('.'))) {
          problems.push(source.problem([...keyPath, key], retiredMessage(key), 'key'));
          continue;
        }
        const hint = suggest(key, knownKeys(issue.path));
        const known = knownKeys(issue.path)
          .map((name) => `"${name}"`)
          .join(', ');
        problems.push(
          source.problem(
            [...keyPath, key],
            `unknown key "${key}". ${hint ? `Did you mean "${hint}"?` : `Known keys: ${known}.`}`,
            'key',
          ),
        );
      }
      continue;
    }
    problems.push(source.problem(keyPath, describeIssue(issue)));
  }
  return problems;
}

/**
 * The branch of a failed union the value was most likely meant for, so its own problem is shown
 * (an unknown key of an object form with its "did you mean", an enum's options) rather than
 * "Invalid input": the one branch whose problems all lie below the value, else the one branch
 * that did not fail on the value's type. `undefined` when that is not one branch.
 */
function likelyBranch(
  branches: readonly (readonly z.core.$ZodIssue[])[],
): readonly z.core.$ZodIssue[] | undefined {
  const deeper = branches.filter(
    (branch) => branch.length > 0 && branch.every((issue) => issue.path.length > 0),
  );
  if (deeper.length === 1) return deeper[0];
  if (deeper.length > 1) return undefined;
  const typed = branches.filter(
    (branch) => !branch.some((issue) => issue.path.length === 0 && issue.code === 'invalid_type'),
  );
  return typed.length === 1 ? typed[0] : undefined;
}

function describeIssue(issue: z.core.$ZodIssue): string {
  const value = (issue as { input?: unknown }).input;
  // A document whose root is not a mapping may not be a config at all (a secret named by a glob):
  // its text is never echoed, only its type.
  const input = issue.path.length === 0 && typeof value === 'string' ? new OpaqueString() : value;
  switch (issue.code) {
    case 'invalid_type':
      if (input === undefined) return `is required. Expected ${article(issue.expected)}.`;
      return `wrong type. Expected ${article(issue.expected)}, received ${describeValue(input)}.`;
    case 'too_small':
      return `too small. Expected ${issue.origin === 'number' ? 'a number' : 'a value'} ${issue.inclusive ? '>=' : '>'} ${String(issue.minimum)}, received ${describeValue(input)}.`;
    case 'too_big':
      return `too large. Expected ${issue.inclusive ? '<=' : '<'} ${String(issue.maximum)}, received ${describeValue(input)}.`;
    default:
      return `${issue.message}.`;
  }
}

function article(expected: string): string {
  if (expected === 'int') return 'an integer';
  if (expected === 'array' || expected === 'object' || expected === 'integer') return `an ${expected}`;
  return `a ${expected}`;
}

/** Stands for a string whose text must not be shown. */
class OpaqueString {}

/** Short description of a value for "received …". */
export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (value instanceof OpaqueString) return 'a string';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  if (typeof value === 'number') return Number.isInteger(value) ? String(value) : `${value}`;
  if (typeof value === 'object') return 'an object';
  return String(value);
}
