// Writes docs/conformance.md from a lab run: the host table, the hosts the lab does not drive and
// why, and each case per host with its result and, for a listed difference, the reason.
import fs from 'node:fs';

/** Agent CLIs looked at and not driven (yet), with the reason; shown in docs/conformance.md. */
export const NOT_DRIVEN = [
  {
    name: 'Qwen Code',
    package: '@qwen-code/qwen-code',
    version: '0.24.4',
    reason:
      'Can be pointed at the lab (OpenAI-compatible: OPENAI_BASE_URL, OPENAI_API_KEY, OPENAI_MODEL; `qwen -p`); no driver yet, and ctxfiles has no preset for it (QWEN.md) to compare with: issue #24 adds hosts',
  },
  {
    name: 'Crush',
    package: '@charmland/crush',
    version: '0.96.1',
    reason:
      'Can be pointed at the lab (an `openai-compat` provider with `base_url` in crush.json; `crush run`); no driver yet and no ctxfiles preset for it: issue #24',
  },
  {
    name: 'Continue CLI',
    package: '@continuedev/cli',
    version: '1.5.47',
    reason:
      'Its documented headless use needs a Continue account key or an Anthropic key on first run; a local config.yaml with a model `apiBase` may avoid the login but was not tried; no driver yet and no ctxfiles preset for it',
  },
  {
    name: 'Kilo CLI',
    package: '@kilocode/cli',
    version: '7.8.1',
    reason:
      'Built on OpenCode; a provider in its config should work as in the OpenCode driver; no driver yet and no ctxfiles preset for it',
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
