import path from 'node:path';
import type { Diagnostic } from '../errors.js';
import { isInside } from '../fs/contain.js';
import { loadTokenCounter } from '../render/count-tokens.js';
import { escapeControl } from '../render/escape.js';
import type { SystemPrompt } from './build-system-prompt.js';

/** What happened to one context file or entry. */
export type FileOutcome =
  | 'included'
  | 'truncated'
  | 'dropped-by-budget'
  | 'manifest-only'
  | 'missing'
  | 'skipped-by-token'
  | 'outside-workdir'
  | 'deduped'
  | 'over-cap'
  | 'unreadable'
  | 'shadowed'
  | 'replaced';

/** One row of the file table. */
export interface ExplainFile {
  readonly path: string | null;
  readonly layer: string | null;
  readonly entry: string | null;
  readonly outcome: FileOutcome;
  /** Why, in words (the diagnostic's message), for every outcome but `included`. */
  readonly detail: string | null;
  /** For a file brought in by an `@path` import: the path of the file that imported it. */
  readonly importedBy?: string;
}

/** One row of the section table. */
export interface ExplainSection {
  readonly name: string;
  readonly bytes: number;
  readonly tokens: number;
  /** Share of the prompt's bytes, 0 to 1. */
  readonly share: number;
}

/** One rule file and why it did or did not apply (docs/rules.md, "explain"). */
export interface ExplainRule {
  readonly relativePath: string;
  readonly name: string;
  readonly source: string;
  /** `null` for a file discovery skipped. */
  readonly kind: string | null;
  readonly globs: readonly string[];
  readonly applied: boolean;
  readonly reason: string;
}

/** The whole explanation: sizes, files and diagnostics. */
export interface ExplainReport {
  readonly total: { readonly bytes: number; readonly tokens: number };
  readonly sections: readonly ExplainSection[];
  readonly files: readonly ExplainFile[];
  /** Every rule file; absent when rules are off. */
  readonly rules?: readonly ExplainRule[];
  readonly diagnostics: readonly Diagnostic[];
}

const OUTCOME_BY_CODE: Readonly<Record<string, FileOutcome>> = {
  missing: 'missing',
  'unknown-token': 'skipped-by-token',
  'empty-token': 'skipped-by-token',
  'outside-workdir': 'outside-workdir',
  'symlink-outside-workdir': 'outside-workdir',
  'invalid-entry': 'outside-workdir',
  deduped: 'deduped',
  'too-large': 'over-cap',
  'read-cap-skipped': 'over-cap',
  'directory-truncated': 'over-cap',
  unreadable: 'unreadable',
  vanished: 'unreadable',
  binary: 'unreadable',
  'not-regular': 'unreadable',
  'symlink-rejected': 'unreadable',
  'is-directory': 'missing',
  'not-a-directory': 'missing',
  'budget-dropped': 'dropped-by-budget',
  'candidate-shadowed': 'shadowed',
  'layer-replaced': 'replaced',
};

/** What {@link explain} needs of a resolution; a `ResolveResult` fits. */
export interface ExplainInput {
  readonly files: ReadonlyArray<{
    readonly path: string;
    readonly layer: string;
    readonly entry: string;
    readonly importedBy?: string | undefined;
  }>;
  readonly nested: ReadonlyArray<{ readonly path: string }>;
  readonly diagnostics: readonly Diagnostic[];
  readonly rules?: readonly ExplainRule[] | undefined;
}

/**
 * Explains a prompt and the resolution behind it: each section's bytes, tokens and share (the
 * bytes add up to the prompt's), every context file with its layer, entry and outcome, and every
 * diagnostic.
 */
export async function explain(prompt: SystemPrompt, result: ExplainInput): Promise<ExplainReport> {
  const totalTokens = (await loadTokenCounter())(prompt.text);
  const totalBytes = Buffer.byteLength(prompt.text, 'utf8');
  const sections = prompt.sections.map((section) => ({
    name: section.name,
    bytes: section.bytes,
    tokens: section.tokens,
    share: totalBytes === 0 ? 0 : section.bytes / totalBytes,
  }));
  return {
    total: { bytes: totalBytes, tokens: totalTokens },
    sections,
    files: explainFiles(result),
    ...(result.rules === undefined
      ? {}
      : {
          rules: result.rules.map(({ relativePath, name, source, kind, globs, applied, reason }) => ({
            relativePath,
            name,
            source,
            kind,
            globs,
            applied,
            reason,
          })),
        }),
    diagnostics: result.diagnostics,
  };
}

/**
 * The file table: the files of the result (`truncated` when the budget cut them short), then an
 * entry for each diagnostic that says what happened to a file or entry, then the nested files the
 * manifest lists.
 */
function explainFiles(result: ExplainInput): ExplainFile[] {
  const truncated = new Set(
    result.diagnostics.filter((d) => d.code === 'budget-truncated').map((d) => d.path),
  );
  const files: ExplainFile[] = result.files.map((file) => ({
    path: file.path,
    layer: file.layer,
    entry: file.entry,
    outcome: truncated.has(file.path) ? 'truncated' : 'included',
    detail: truncated.has(file.path) ? `cut short to fit the budget` : null,
    ...(file.importedBy === undefined ? {} : { importedBy: file.importedBy }),
  }));
  for (const diagnostic of result.diagnostics) {
    const outcome = OUTCOME_BY_CODE[diagnostic.code];
    if (outcome === undefined) continue;
    files.push({
      path: diagnostic.path ?? null,
      layer: diagnostic.layer ?? null,
      entry: diagnostic.entry ?? null,
      outcome,
      detail: diagnostic.message,
    });
  }
  for (const nested of result.nested) {
    files.push({
      path: nested.path,
      layer: 'nested',
      entry: null,
      outcome: 'manifest-only',
      detail: 'listed in the manifest; injected on first use of its directory',
    });
  }
  return files;
}

/** How {@link formatExplain} draws its bars. */
export interface FormatExplainOptions {
  /** Characters per bar; default 24. */
  readonly width?: number;
  /** Draw with `#` and `.` instead of `█` and `░`, for terminals that are not UTF-8. */
  readonly ascii?: boolean;
}

/**
 * The terminal view of a report: a bar per section, a table of files, the diagnostics. `options`
 * may also be the bar width alone, as in earlier versions.
 */
export function formatExplain(
  report: ExplainReport,
  workDir: string,
  options: FormatExplainOptions | number = {},
): string {
  const { width = 24, ascii = false } = typeof options === 'number' ? { width: options } : options;
  const [full, empty] = ascii ? ['#', '.'] : ['█', '░'];
  const lines: string[] = [];
  lines.push(`Prompt: ${report.total.bytes} bytes, ${report.total.tokens} tokens`);
  const nameWidth = Math.max(8, ...report.sections.map((section) => section.name.length));
  for (const section of report.sections) {
    const filled = Math.round(section.share * width);
    const bar = full.repeat(filled) + empty.repeat(width - filled);
    lines.push(
      `  ${section.name.padEnd(nameWidth)} ${String(section.bytes).padStart(7)} B ${String(section.tokens).padStart(6)} tok  ${bar} ${(section.share * 100).toFixed(1).padStart(5)}%`,
    );
  }
  lines.push('', 'Context files:');
  if (report.files.length === 0) lines.push('  (none)');
  const shown = (file: string | null) =>
    file === null ? '-' : isInside(workDir, file) ? path.relative(workDir, file) || '.' : file;
  for (const file of report.files) {
    const entry =
      (file.entry === null ? '' : ` (entry ${JSON.stringify(file.entry)})`) +
      (file.importedBy === undefined ? '' : ` imported by ${shown(file.importedBy)}`);
    lines.push(`  ${file.outcome.padEnd(17)} ${(file.layer ?? '-').padEnd(7)} ${shown(file.path)}${entry}`);
    // "missing" says it all; other outcomes carry the reason on a second line.
    if (file.detail !== null && file.outcome !== 'manifest-only' && file.outcome !== 'missing')
      lines.push(`  ${''.padEnd(17)} ${''.padEnd(7)} ${file.detail}`);
  }
  if (report.rules !== undefined) {
    lines.push('', 'Rules:');
    if (report.rules.length === 0) lines.push('  (none)');
    for (const rule of report.rules) {
      const globs = rule.globs.length === 0 ? '' : ` [${rule.globs.join(', ')}]`;
      lines.push(
        `  ${(rule.applied ? 'applied' : 'not applied').padEnd(11)} ${rule.source.padEnd(8)} ${(rule.kind ?? 'skipped').padEnd(9)} ${rule.relativePath}${globs}`,
      );
      lines.push(`  ${''.padEnd(11)} ${''.padEnd(8)} ${''.padEnd(9)} ${rule.reason}`);
    }
  }
  lines.push('', 'Diagnostics:');
  // A `debug` diagnostic about a file listed above says what its line already says: once is enough.
  const listed = new Set(report.files.map((file) => file.path));
  const diagnostics = report.diagnostics.filter(
    (diagnostic) =>
      diagnostic.level !== 'debug' || diagnostic.path === undefined || !listed.has(diagnostic.path),
  );
  if (diagnostics.length === 0) lines.push('  (none)');
  for (const diagnostic of diagnostics)
    lines.push(`  ${diagnostic.level.padEnd(5)} ${diagnostic.code}: ${diagnostic.message}`);
  // Every line is one line of the view: paths, entries and messages cannot move the cursor.
  return `${lines.map(escapeControl).join('\n')}\n`;
}
