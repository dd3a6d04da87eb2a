import { DIAGNOSTICS } from '../diagnostics.js';
import { SEVERITY, type Finding } from './finding.js';
import type { DoctorReport } from './run-doctor.js';

/** Where the SARIF 2.1.0 schema is published (the `$schema` of every log). */
const SARIF_SCHEMA = 'https://json.schemastore.org/sarif-2.1.0.json';

/**
 * The findings as a SARIF 2.1.0 log for code scanning: one run, one rule per code found (its
 * meaning and what to do from the diagnostics table), one result per finding with its location
 * relative to the work dir.
 */
export function formatDoctorSarif(report: DoctorReport, version: string): string {
  const codes = [...new Set(report.findings.map((item) => item.code))].sort();
  const rules = codes.map((code) => {
    const info = DIAGNOSTICS.find((row) => row.code === code);
    return {
      id: code,
      shortDescription: { text: info?.meaning ?? code },
      help: { text: info?.action ?? '' },
      defaultConfiguration: { level: sarifLevel(SEVERITY[code]) },
    };
  });
  const log = {
    $schema: SARIF_SCHEMA,
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'ctxfiles',
            version,
            informationUri: 'https://github.com/ctxfiles/ctxfiles/blob/main/docs/doctor.md',
            rules,
          },
        },
        results: report.findings.map((item) => ({
          ruleId: item.code,
          ruleIndex: codes.indexOf(item.code),
          level: sarifLevel(item.severity),
          message: { text: `${item.message}. Fix: ${item.fix}.` },
          locations: [
            {
              physicalLocation: {
                artifactLocation: { uri: fileUri(item.file) },
                region: { startLine: item.line, startColumn: item.column },
              },
            },
          ],
        })),
      },
    ],
  };
  return `${JSON.stringify(log, null, 2)}\n`;
}

function sarifLevel(severity: Finding['severity']): 'error' | 'warning' {
  return severity === 'error' ? 'error' : 'warning';
}

/** A relative path as a URI reference: each segment percent-encoded. */
function fileUri(file: string): string {
  return file.split('/').map(encodeURIComponent).join('/');
}

/**
 * The findings as GitHub Actions workflow commands, one line each:
 * `::error file=F,line=L,col=C,title=T::message`. Data escapes `%`, CR and LF; property values
 * also `:` and `,` (the escaping of actions/toolkit `packages/core/src/command.ts`).
 */
export function formatDoctorGithub(report: DoctorReport): string {
  return report.findings
    .map((item) => {
      const command = item.severity === 'error' ? 'error' : 'warning';
      const properties = [
        `file=${escapeProperty(item.file)}`,
        `line=${item.line}`,
        `col=${item.column}`,
        `title=${escapeProperty(`ctxfiles doctor: ${item.code}`)}`,
      ].join(',');
      return `::${command} ${properties}::${escapeData(`${item.message}. Fix: ${item.fix}.`)}\n`;
    })
    .join('');
}

function escapeData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}
