// Writes docs/conformance.md from a lab run: the host table, the hosts the lab does not drive and
// why, and each case per host with its result and, for a listed difference, the reason.
import fs from 'node:fs';

/** Agent CLIs looked at and not driven (yet), with the reason; shown in docs/conformance.md. */
export const NOT_DRIVEN = [
  {
    name: 'Crush',
    package: '@charmland/crush',
    version: '0.96.1',
    reason:
      "The package holds no binary: its install script downloads the Go binary from the project's release pages, and the lab installs with scripts off and reaches nothing but the package registry; no ctxfiles preset for it",
  },
];

const OUTCOME = {
  match: 'matches',
  deliberate: 'deliberate difference',
  open: 'open difference',
  differ: 'FAILS: differs, not listed',
  timeout: 'FAILS: timed out twice',
  error: 'FAILS: no model request',
  egress: 'FAILS: tried to reach another address',
  'unknown-case': 'FAILS: listed case did not run',
};

const cell = (text) => String(text).replaceAll('|', '\\|').replaceAll('\n', ' ');

function hostTable(rows) {
  const lines = [
    '| host | package | version | matched/total | deliberate | open | failed |',
    '| --- | --- | --- | --- | --- | --- | --- |',
  ];
  for (const { host, skipped, summary } of rows) {
    const pkg = `\`${host.packages[0].replace(/@[^@]*$/, '')}\``;
    if (skipped) lines.push(`| ${host.label} | ${pkg} | ${host.version} | SKIPPED: ${cell(skipped)} | | | |`);
    else
      lines.push(
        `| ${host.label} | ${pkg} | ${host.version} | ${summary.matched}/${summary.total} | ${summary.deliberate} | ${summary.open} | ${summary.failed} |`,
      );
  }
  return lines.join('\n');
}

function caseTable(judged, about) {
  const lines = ['| case | what | result | reason |', '| --- | --- | --- | --- |'];
  for (const item of judged) {
    const reason = item.listed
      ? `${cell(item.listed.reason)}${item.listed.link ? ` (${item.listed.link})` : ''}`
      : '';
    lines.push(
      `| \`${item.case}\` | ${cell(about.get(item.case) ?? '')} | ${OUTCOME[item.outcome] ?? item.outcome} | ${reason} |`,
    );
  }
  return lines.join('\n');
}

/** Writes the report; `intro` and `howTo` are the fixed sections around the generated tables. */
export function writeReport(file, { rows, cases, notDriven, isolated, seconds }) {
  const about = new Map(cases.map((row) => [row.id, row.about]));
  const date = new Date().toISOString().slice(0, 10);
  const template = fs.readFileSync(new URL('./conformance-template.md', import.meta.url), 'utf8');
  const perHost = rows
    .filter((row) => !row.skipped)
    .map(
      (row) =>
        `### ${row.host.label} ${row.host.version}\n\nPreset \`${row.host.preset}\`. ${row.summary.matched} of ${row.summary.total} cases match.\n\n${caseTable(row.judged, about)}`,
    )
    .join('\n\n');
  const notDrivenTable = [
    '| CLI | package | looked at | why it is not driven |',
    '| --- | --- | --- | --- |',
    ...notDriven.map(
      (entry) => `| ${entry.name} | \`${entry.package}\` | ${entry.version} | ${cell(entry.reason)} |`,
    ),
  ].join('\n');
  const text = template
    .replace('{{date}}', date)
    .replace(
      '{{network}}',
      isolated
        ? 'each host ran in a network namespace with loopback only'
        : 'network isolation was NOT available; connect attempts were detected only',
    )
    .replace('{{seconds}}', String(seconds))
    .replace('{{hostTable}}', hostTable(rows))
    .replace('{{notDriven}}', notDrivenTable)
    .replace('{{perHost}}', perHost);
  fs.writeFileSync(file, text);
}
