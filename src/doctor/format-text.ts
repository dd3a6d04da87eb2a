import type { Finding } from './finding.js';
import type { HostColumn } from './matrix.js';
import type { DoctorReport } from './run-doctor.js';

/** The widest line of the table (the findings below it are one line each, however long). */
export const TABLE_WIDTH = 100;

const FILE_WIDTH = 46;

/**
 * The terminal view: per site, one block per host listing the files it loads in order with bytes and
 * tokens, what its caps cut and what it never reads; then the findings, each with its fix.
 * Every table line fits in {@link TABLE_WIDTH} columns (long paths lose their start to `…`).
 */
export function formatDoctorText(report: DoctorReport): string {
  const lines: string[] = [];
  for (const site of report.sites) {
    lines.push(site.path === '.' ? 'At the work dir (.)' : `At ${clip(site.path, TABLE_WIDTH - 3)}`);
    lines.push(row('host', '#', 'file', 'layer', 'bytes', 'tokens'));
    for (const column of site.hosts) lines.push(...hostLines(column));
    lines.push('');
  }
  lines.push(...findingLines(report.findings));
  return `${lines.join('\n')}\n`;
}

function hostLines(column: HostColumn): string[] {
  const lines: string[] = [];
  column.files.forEach((file, index) => {
    const name = file.importedBy === undefined ? file.path : `${file.path} (import)`;
    lines.push(
      row(index === 0 ? column.host : '', String(index + 1), name, file.layer, file.bytes, file.tokens),
    );
  });
  if (column.files.length === 0) lines.push(row(column.host, '-', '(nothing)', '', '', ''));
  lines.push(row('', '', 'sent before the first tool call', '', column.bytes, column.tokens));
  for (const cut of column.cuts) {
    const where = cut.keptBytes === 0 ? 'left out' : `cut at ${cut.line}:${cut.column}`;
    lines.push(clip(`${' '.repeat(16)}cap: ${cut.path} ${where}, ${cut.lostBytes} bytes lost`, TABLE_WIDTH));
  }
  if (column.unseen.length > 0)
    lines.push(
      ...wrap(
        'never reads: ',
        column.unseen.map((file) => `${clipStart(file.path, 60)} (${file.readBy.join(', ')})`),
      ),
    );
  return lines;
}

/** Items after a label, comma-separated, wrapped at {@link TABLE_WIDTH} under the file column. */
function wrap(label: string, items: readonly string[]): string[] {
  const indent = ' '.repeat(16);
  const lines: string[] = [];
  let line = `${indent}${label}`;
  items.forEach((item, index) => {
    const text = index < items.length - 1 ? `${item},` : item;
    const next = index === 0 ? `${line}${text}` : `${line} ${text}`;
    if (index > 0 && next.length > TABLE_WIDTH) {
      lines.push(line);
      line = `${indent}  ${text}`;
    } else line = next;
  });
  lines.push(line);
  return lines.map((entry) => clip(entry, TABLE_WIDTH));
}

function row(
  host: string,
  index: string,
  file: string,
  layer: string,
  bytes: number | string,
  tokens: number | string,
): string {
  return [
    host.padEnd(12),
    index.padStart(3),
    ' ',
    clipStart(file, FILE_WIDTH).padEnd(FILE_WIDTH),
    ' ',
    layer.padEnd(8),
    String(bytes).padStart(10),
    String(tokens).padStart(9),
  ]
    .join('')
    .trimEnd();
}

function findingLines(findings: readonly Finding[]): string[] {
  if (findings.length === 0) return ['No findings.'];
  const errors = findings.filter((item) => item.severity === 'error').length;
  const lines = [`Findings: ${errors} error(s), ${findings.length - errors} warning(s)`];
  for (const item of findings) {
    lines.push(
      `${item.severity.padEnd(5)}  ${item.file}:${item.line}:${item.column}  ${item.code}: ${item.message}`,
    );
    lines.push(`       fix: ${item.fix}`);
  }
  return lines;
}

/** Cuts a line to `width` columns, ending with `…`. */
function clip(text: string, width: number): string {
  return text.length <= width ? text : `${text.slice(0, width - 1)}…`;
}

/** Cuts a path to `width` columns from its start, which matters least. */
function clipStart(text: string, width: number): string {
  return text.length <= width ? text : `…${text.slice(text.length - width + 1)}`;
}
