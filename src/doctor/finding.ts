import type { DiagnosticCode } from '../diagnostics.js';
import { compareCodeUnits } from '../discover/compare-code-units.js';

/** How bad a finding is; `--fail-on` picks the least that fails the run. */
export type Severity = 'error' | 'warn';

/** One problem doctor found in an instruction file (docs/doctor.md, "Findings"). */
export interface Finding {
  /** A code of the closed diagnostics set (docs/diagnostics.md). */
  readonly code: FindingCode;
  readonly severity: Severity;
  /** The file, relative to the repository root with `/` separators. */
  readonly file: string;
  /** 1-based. */
  readonly line: number;
  /** 1-based, in UTF-16 code units. */
  readonly column: number;
  readonly message: string;
  /** What to do, in one line. */
  readonly fix: string;
}

/** The severity of each finding code. */
export const SEVERITY = {
  'unmatched-glob': 'warn',
  // A rule loaded in every session costs tokens but loses nothing; the one form that loses the
  // rule's text (Cursor's quoted alwaysApply) is raised to an error where it is found.
  'misread-frontmatter': 'warn',
  'broken-import': 'error',
  'dangling-path': 'warn',
  'missing-script': 'warn',
  'duplicate-paragraph': 'warn',
  'stale-copy': 'warn',
  'over-cap': 'error',
  // A host sends text ctxfiles shows otherwise: its frame breaks, or a file too large to show.
  'frame-escaped': 'warn',
  'too-large': 'warn',
  'loaded-twice': 'warn',
} as const satisfies Partial<Record<DiagnosticCode, Severity>>;

/** A code doctor reports. */
export type FindingCode = keyof typeof SEVERITY;

/**
 * A finding, with the severity of its code unless `severity` says otherwise (an error only where a
 * host fails or loses text).
 */
export function finding(
  code: FindingCode,
  where: { readonly file: string; readonly line: number; readonly column: number },
  message: string,
  fix: string,
  severity: Severity = SEVERITY[code],
): Finding {
  return { code, severity, ...where, message, fix };
}

/** True when `severity` is at or above `threshold`. */
export function atOrAbove(severity: Severity, threshold: Severity): boolean {
  return threshold === 'warn' || severity === 'error';
}

/** Findings in file, line, column, code order; one per (code, file, line, column). */
export function sortFindings(findings: readonly Finding[]): Finding[] {
  const seen = new Set<string>();
  const unique = findings.filter((item) => {
    const key = `${item.code}\0${item.file}\0${item.line}\0${item.column}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  return unique.sort(
    (a, b) =>
      compareCodeUnits(a.file, b.file) ||
      a.line - b.line ||
      a.column - b.column ||
      compareCodeUnits(a.code, b.code),
  );
}

/** The most findings one report lists; the rest are counted (like the diagnostics of a resolution). */
export const MAX_FINDINGS = 1_000;

/**
 * At most {@link MAX_FINDINGS} findings, errors kept first (then in the order given), how many more
 * there were, and whether one left out was an error.
 */
export function capFindingList(findings: readonly Finding[]): {
  readonly findings: readonly Finding[];
  readonly leftOut: number;
  readonly errorsLeftOut: boolean;
} {
  if (findings.length <= MAX_FINDINGS) return { findings, leftOut: 0, errorsLeftOut: false };
  const kept = new Set<Finding>();
  for (const severity of ['error', 'warn'] as const)
    for (const item of findings) {
      if (kept.size === MAX_FINDINGS) break;
      if (item.severity === severity) kept.add(item);
    }
  const errorsLeftOut = findings.some((item) => item.severity === 'error' && !kept.has(item));
  return {
    findings: findings.filter((item) => kept.has(item)),
    leftOut: findings.length - kept.size,
    errorsLeftOut,
  };
}
