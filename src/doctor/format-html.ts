import type { Finding } from './finding.js';
import type { DoctorSite, HostColumn } from './matrix.js';
import type { DoctorReport } from './run-doctor.js';

/** No request leaves the page: no scripts, no fetches, no images, only its own style. */
const POLICY = "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'";

const STYLE = `
body{font:14px/1.45 system-ui,sans-serif;margin:24px;color:#1b1f24;background:#fff}
h1{font-size:20px;margin:0 0 4px}h2{font-size:16px;margin:0}
.meta{color:#57606a;margin-bottom:16px}
.place{border:1px solid #d0d7de;border-radius:6px;margin:10px 0;padding:10px 12px}
.place.nested{margin-left:calc(var(--depth) * 18px)}
.kind{font-size:12px;color:#57606a;margin-left:8px}
table{border-collapse:collapse;margin:8px 0;width:100%}
th,td{border-bottom:1px solid #eaeef2;padding:3px 8px;text-align:left;vertical-align:top}
td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}
code{font:12px ui-monospace,monospace}
.finding{display:block;font-size:12px;margin:2px 0}
.error{color:#cf222e}.warn{color:#9a6700}
.adds{color:#0969da}
.summary{font-weight:600}
`;

/**
 * The context map: one self-contained HTML page (no script, no network, every text escaped) with
 * the places that hold instructions as a tree, per host what applies at each and its tokens, each
 * finding beside its file, and the report as `--json` prints it in a JSON script block.
 */
export function formatDoctorHtml(report: DoctorReport): string {
  const byFile = findingsByFile(report.findings);
  const places = [...report.sites].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const errors = report.findings.filter((item) => item.severity === 'error').length;
  const parts = [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${escapeHtml(POLICY)}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>ctxfiles doctor: ${escapeHtml(report.root)}</title>`,
    `<style>${STYLE}</style></head><body>`,
    `<h1>Context map of ${escapeHtml(report.root)}</h1>`,
    `<p class="meta">Hosts: ${escapeHtml(report.hosts.join(', '))}. ${report.sites.length} place(s) with instructions; findings: ${errors} error(s), ${report.findings.length - errors} warning(s)${report.findingsLeftOut > 0 ? `, ${report.findingsLeftOut} more not listed` : ''}.</p>`,
  ];
  for (const site of places) parts.push(placeSection(site, byFile));
  const unplaced = report.findings.filter((item) => !shownFiles(report).has(item.file));
  if (unplaced.length > 0)
    parts.push(
      '<section class="place"><h2>Other findings</h2>',
      ...unplaced.map((item) => `<div>${escapeHtml(item.file)}</div>${findingHtml(item)}`),
      '</section>',
    );
  parts.push(
    `<script type="application/json" id="ctxfiles-doctor-report">${jsonForScript(report)}</script>`,
    '</body></html>',
  );
  return `${parts.join('\n')}\n`;
}

function placeSection(site: DoctorSite, byFile: ReadonlyMap<string, readonly Finding[]>): string {
  const depth = site.path === '.' ? 0 : site.path.split('/').length;
  const kind = site.kind === 'workdir' ? 'work dir' : site.kind === 'path' ? '--path' : 'nested place';
  // Each finding once per place: beside the first row that shows its file.
  const placed = new Set<string>();
  const rows = site.hosts.map((column) => hostRows(column, byFile, placed)).join('\n');
  return [
    `<section class="place ${site.kind === 'workdir' ? '' : 'nested'}" style="--depth:${Math.min(depth, 12)}">`,
    `<h2><code>${escapeHtml(site.path)}</code><span class="kind">${kind}</span></h2>`,
    '<table><thead><tr><th>host</th><th>file</th><th>layer</th><th class="n">bytes</th><th class="n">tokens</th></tr></thead>',
    `<tbody>${rows}</tbody></table>`,
    '</section>',
  ].join('\n');
}

function hostRows(
  column: HostColumn,
  byFile: ReadonlyMap<string, readonly Finding[]>,
  placed: Set<string>,
): string {
  const host = escapeHtml(column.host);
  const rows = column.files.map((file, index) => {
    const notes = placed.has(file.path) ? '' : (byFile.get(file.path) ?? []).map(findingHtml).join('');
    placed.add(file.path);
    const name = `<code>${escapeHtml(file.path)}</code>${file.importedBy === undefined ? '' : ' (import)'}`;
    return `<tr><td>${index === 0 ? host : ''}</td><td>${name}${notes}</td><td>${escapeHtml(file.layer)}</td><td class="n">${file.bytes}</td><td class="n">${file.tokens}</td></tr>`;
  });
  if (column.files.length === 0)
    rows.push(`<tr><td>${host}</td><td>(nothing)</td><td></td><td></td><td></td></tr>`);
  const adds =
    column.adds === undefined
      ? ''
      : ` <span class="adds">(adds ${column.adds.files.length} file(s), ${column.adds.tokens} tokens here)</span>`;
  const cuts = column.cuts
    .map((cut) => ` <span class="error">cap: ${escapeHtml(cut.path)} loses ${cut.lostBytes} bytes</span>`)
    .join('');
  rows.push(
    `<tr class="summary"><td></td><td>sent before the first tool call${adds}${cuts}</td><td></td><td class="n">${column.bytes}</td><td class="n">${column.tokens}</td></tr>`,
  );
  return rows.join('\n');
}

function findingHtml(item: Finding): string {
  return `<span class="finding ${item.severity}">${item.severity} ${escapeHtml(item.code)} at ${item.line}:${item.column}: ${escapeHtml(item.message)}; fix: ${escapeHtml(item.fix)}</span>`;
}

function findingsByFile(findings: readonly Finding[]): Map<string, Finding[]> {
  const byFile = new Map<string, Finding[]>();
  for (const item of findings) {
    const list = byFile.get(item.file);
    if (list === undefined) byFile.set(item.file, [item]);
    else list.push(item);
  }
  return byFile;
}

function shownFiles(report: DoctorReport): Set<string> {
  const files = new Set<string>();
  for (const site of report.sites)
    for (const column of site.hosts) for (const file of column.files) files.add(file.path);
  return files;
}

/** Text for an element or an attribute value in double quotes. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/** JSON that cannot close its script element or start a comment: `<`, `>`, `&` and line separators escaped. */
function jsonForScript(report: DoctorReport): string {
  return JSON.stringify(report).replace(
    /[<>&\u2028\u2029]/g,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
