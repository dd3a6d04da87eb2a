import path from 'node:path';
import { homeDirectory } from '../fs/home-dir.js';
import { atOrAbove, type Severity } from '../doctor/finding.js';
import { formatDoctorGithub, formatDoctorSarif } from '../doctor/format-ci.js';
import { formatDoctorText } from '../doctor/format-text.js';
import { listHosts, type DoctorHost } from '../doctor/hosts.js';
import { HOST_REGISTRY } from '../hosts/index.js';
import { runDoctor, type DoctorReport } from '../doctor/run-doctor.js';
import { CtxfilesError } from '../errors.js';
import { EXIT, type CliIo } from './io.js';

/** The options `ctxfiles doctor` takes (docs/doctor.md). */
export interface DoctorCommandOptions {
  readonly cwd?: string;
  readonly host?: readonly string[];
  readonly path?: readonly string[];
  readonly json?: boolean;
  readonly format?: 'sarif' | 'github';
  /** `true` for the page on stdout, or the file to write it to. */
  readonly html?: boolean | string;
  readonly failOn?: Severity;
}

/**
 * `ctxfiles doctor`: what each host loads here and what is wrong in the instruction files. Exit 1
 * when a finding is at or above `--fail-on` (default `error`), else 0.
 */
export async function doctorCommand(
  options: Readonly<DoctorCommandOptions>,
  io: CliIo,
  version: string,
): Promise<number> {
  const outputs = [options.json === true, options.format !== undefined, options.html !== undefined];
  if (outputs.filter(Boolean).length > 1)
    throw new CtxfilesError('usage', '--json, --format and --html cannot be used together');
  const hosts = selectedHosts(options.host ?? []);
  const home = io.env['HOME'];
  const report = await runDoctor({
    workDir: path.resolve(io.cwd, options.cwd ?? '.'),
    hosts,
    paths: options.path ?? [],
    env: io.env,
    homeDir: home !== undefined && home !== '' ? home : homeDirectory(),
  });
  if (options.html !== undefined) await writeHtml(report, options.html, io);
  else if (options.json === true) io.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  else if (options.format === 'sarif') io.stdout.write(formatDoctorSarif(report, version));
  else if (options.format === 'github') io.stdout.write(formatDoctorGithub(report));
  else {
    io.stdout.write(formatDoctorText(report));
    // What each host's agents and modes would see here (src/doctor/host-agents.ts, docs/subagents.md).
    const { hostAgentsSection } = await import('../doctor/host-agents.js');
    io.stdout.write(
      await hostAgentsSection(
        {
          workDir: path.resolve(io.cwd, options.cwd ?? '.'),
          env: io.env,
          homeDir: home !== undefined && home !== '' ? home : homeDirectory(),
        },
        HOST_REGISTRY,
      ),
    );
  }
  const threshold = options.failOn ?? 'error';
  const failing =
    report.findings.some((item) => atOrAbove(item.severity, threshold)) ||
    report.errorsLeftOut ||
    (threshold === 'warn' && report.findingsLeftOut > 0);
  return failing ? EXIT.invalid : EXIT.ok;
}

/**
 * The hosts `--host` names, in the order given on the command line (the order of the output), each
 * once; every host when none is named.
 * @throws CtxfilesError `usage` for a name that is no host.
 */
function selectedHosts(names: readonly string[]): readonly DoctorHost[] {
  const known = listHosts(HOST_REGISTRY);
  const unknown = names.filter((name) => !known.some((host) => host.name === name));
  if (unknown.length > 0)
    throw new CtxfilesError(
      'usage',
      `--host ${unknown.join(' ')}: not a host; the hosts are ${known.map((host) => host.name).join(', ')}`,
    );
  const wanted = [...new Set(names)];
  return wanted.length === 0
    ? known
    : wanted.map((name) => known.find((host) => host.name === name) as DoctorHost);
}

/** The context map on stdout, or in a new or replaced file (never one a host reads: see the docs). */
async function writeHtml(report: DoctorReport, target: boolean | string, io: CliIo): Promise<void> {
  const { formatDoctorHtml } = await import('../doctor/format-html.js');
  const page = formatDoctorHtml(report);
  if (target === true) {
    io.stdout.write(page);
    return;
  }
  const file = path.resolve(io.cwd, String(target));
  if (!/\.html?$/i.test(file))
    throw new CtxfilesError(
      'usage',
      `--html ${String(target)}: the page is written only to a file ending in .html`,
    );
  const { writeFileSync } = await import('node:fs');
  writeFileSync(file, page);
  io.stderr.write(`wrote ${file}\n`);
}
