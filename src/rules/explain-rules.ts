import path from 'node:path';
import { isInside } from '../fs/contain.js';
import type { RuleSet } from './create-rule-set.js';
import type { RuleKind, SkippedRule } from './rule.js';

/** What a request puts in play for rules. */
export interface RuleRequest {
  /** Paths in play (`--paths`, `request.paths`, touched files), absolute or relative to the work dir. */
  readonly paths?: readonly string[];
  /** Names of rules asked for (`--rule`, `request.rules`, a `rule` session event). */
  readonly names?: readonly string[];
  /** The canonical work dir: owners and paths inside it are shown relative to it in reasons. */
  readonly workDir?: string;
}

/** One line of `explain` for a rule file. */
export interface RuleExplanation {
  readonly path: string;
  readonly relativePath: string;
  readonly name: string;
  readonly source: string;
  /** `null` for a skipped file. */
  readonly kind: RuleKind | null;
  readonly globs: readonly string[];
  readonly description: string;
  /** True when the rule's text is part of the result for this request. */
  readonly applied: boolean;
  /**
   * `always`; `always inside <owner>` (nested, applied) or `nested, no path inside <owner>`;
   * `matched <glob> by <path>`; `no path matched`; `named`; `listed in catalog`; `manual, not named`;
   * for a skipped file `bad frontmatter`, `bad glob`, `too large`, `binary`, `unreadable`,
   * followed by `: <problem>`.
   */
  readonly reason: string;
}

/**
 * Explains every rule of a set for one request, plus the files discovery skipped: kind, globs and why
 * it did or did not apply. Rules keep discovery order; skipped files follow.
 */
export function explainRules(
  set: RuleSet,
  skipped: readonly SkippedRule[],
  request: Readonly<RuleRequest> = {},
): readonly RuleExplanation[] {
  const matches = new Map(set.rulesFor(request.paths ?? []).map((match) => [match.rule, match]));
  const named = new Set((request.names ?? []).flatMap((name) => set.byName(name)));
  const nested = new Set(set.nested());
  const shown = relativeTo(request.workDir);
  const lines: RuleExplanation[] = set.rules.map((rule) => {
    const match = matches.get(rule);
    let applied = true;
    let reason: string;
    if (rule.kind === 'always' && !nested.has(rule)) reason = 'always';
    else if (named.has(rule)) reason = 'named';
    else if (rule.kind === 'always') {
      applied = match !== undefined;
      const owner = shown(rule.ownerDir, true);
      reason = applied ? `always inside ${owner}` : `nested, no path inside ${owner}`;
    } else if (rule.kind === 'glob') {
      applied = match !== undefined;
      reason =
        match === undefined
          ? 'no path matched'
          : `matched ${[match.glob, match.regex === undefined ? null : `pattern ${match.regex}`].filter((part) => part !== null).join(' and ')} by ${shown(match.path, false)}`;
    } else {
      applied = false;
      reason = rule.kind === 'requested' ? 'listed in catalog' : 'manual, not named';
    }
    return Object.freeze({
      path: rule.path,
      relativePath: rule.relativePath,
      name: rule.name,
      source: rule.source,
      kind: rule.kind,
      globs: rule.globs,
      description: rule.description,
      applied,
      reason,
    });
  });
  for (const file of skipped) lines.push(skippedExplanation(file));
  return Object.freeze(lines);
}

/** The line of a file discovery skipped: never applied, for the reason and problem it was skipped. */
function skippedExplanation(file: SkippedRule): RuleExplanation {
  return Object.freeze({
    path: file.path,
    relativePath: file.relativePath,
    name: file.name,
    source: file.source,
    kind: null,
    globs: Object.freeze([]),
    description: '',
    applied: false,
    reason: `${file.reason}: ${file.problem}`,
  });
}

/** Shows a path inside `workDir` relative to it (`/` separators; a directory ends with `/`). */
function relativeTo(workDir: string | undefined): (file: string, dir: boolean) => string {
  return (file, dir) => {
    if (workDir === undefined || !path.isAbsolute(file)) return file;
    if (file === workDir) return '.';
    if (!isInside(workDir, file)) return file;
    const relative = path.relative(workDir, file).split(path.sep).join('/');
    return dir ? `${relative}/` : relative;
  };
}
