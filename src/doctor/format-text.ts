import { escapeControl } from '../render/escape.js';
import type { DoctorSite, HostColumn } from './matrix.js';
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
  const root = escapeControl(report.root);
  for (const site of report.sites) {
    const where = site.path === '.' ? `the root (${root})` : escapeControl(site.path);
    const title = site.kind === 'workdir' ? `At the work dir, ${where}` : `At ${where}`;
    lines.push(clip(site.kind === 'nested' ? `${title} (nested)` : title, TABLE_WIDTH));
    lines.push(row('host', '#', 'file', 'layer', 'bytes', 'tokens'));
    for (const column of site.hosts) for (const line of hostLines(column)) lines.push(line);
    for (const line of unseenLines(site)) lines.push(line);
    lines.push('');
  }
  if (report.placesLeftOut > 0)
    lines.push(
      `${report.placesLeftOut} more nested place(s) with instructions not shown (the cap is ${report.sites.length} sites)`,
      '',
    );
  for (const line of findingLines(report)) lines.push(line);
  return `${lines.join('\n')}\n`;
}

function hostLines(column: HostColumn): string[] {
  const lines: string[] = [];
  const host = escapeControl(column.host);
  column.files.forEach((file, index) => {
    const shown = escapeControl(file.path);
    const name = file.importedBy === undefined ? shown : `${shown} (import)`;
    lines.push(
      row(
        index === 0 ? host : '',
        String(index + 1),
        name,
        escapeControl(file.layer),
        file.bytes,
        file.tokens,
      ),
    );
  });
  if (column.files.length === 0) lines.push(row(host, '-', '(nothing)', '', '', ''));
  lines.push(row('', '', 'sent before the first tool call', '', column.bytes, column.tokens));
  if (column.adds !== undefined)
    lines.push(row('', '', `adds here: ${column.adds.files.length} file(s)`, '', '', column.adds.tokens));
  for (const cut of column.cuts) {
    const where = cut.keptBytes === 0 ? 'left out' : `cut at ${cut.line}:${cut.column}`;
    lines.push(
      clip(
        `${' '.repeat(16)}cap: ${escapeControl(cut.path)} ${where}, ${cut.lostBytes} bytes lost`,
        TABLE_WIDTH,
      ),
    );
  }
  return lines;
}

/**
 * The files some hosts read here and others never do, one group per set of hosts that miss the
 * same files: `never read by codex, gemini-cli: a, b (read by claude-code)`.
 */
function unseenLines(site: DoctorSite): string[] {
  const groups = new Map<string, { hosts: string[]; items: string[] }>();
  for (const column of site.hosts) {
    if (column.unseen.length === 0) continue;
    const items = column.unseen.map(
      (file) => `${clipStart(escapeControl(file.path), 60)} (${file.readBy.map(escapeControl).join(', ')})`,
    );
    const key = items.join('\0');
    const group = groups.get(key) ?? { hosts: [], items };
    group.hosts.push(escapeControl(column.host));
    groups.set(key, group);
  }
  const lines: string[] = [];
  for (const { hosts, items } of groups.values()) {
    lines.push(clip(`${' '.repeat(16)}never read by ${hosts.join(', ')}:`, TABLE_WIDTH));
    for (const line of wrap('  ', items)) lines.push(line);
  }
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

function findingLines(report: DoctorReport): string[] {
  const { findings, findingsLeftOut } = report;
  if (findings.length === 0) return ['No findings.'];
  let errors = 0;
  for (const item of findings) if (item.severity === 'error') errors += 1;
  const lines = [`Findings: ${errors} error(s), ${findings.length - errors} warning(s)`];
  for (const item of findings) {
    const where = `${escapeControl(item.file)}:${item.line}:${item.column}`;
    lines.push(`${item.severity.padEnd(5)}  ${where}  ${item.code}: ${escapeControl(item.message)}`);
    lines.push(`       fix: ${escapeControl(item.fix)}`);
  }
  if (findingsLeftOut > 0)
    lines.push(
      `… and ${findingsLeftOut} more finding(s) not listed${report.errorsLeftOut ? ', errors among them' : ''}`,
    );
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
