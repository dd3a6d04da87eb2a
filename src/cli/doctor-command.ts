import path from 'node:path';
import { homeDirectory } from '../fs/home-dir.js';
import { atOrAbove, type Severity } from '../doctor/finding.js';
import { formatDoctorGithub, formatDoctorSarif } from '../doctor/format-ci.js';
import { formatDoctorText } from '../doctor/format-text.js';
import { listHosts } from '../doctor/hosts.js';
import { runDoctor } from '../doctor/run-doctor.js';
import { CtxfilesError } from '../errors.js';
import { EXIT, type CliIo } from './io.js';

/** The options `ctxfiles doctor` takes (docs/doctor.md). */
export interface DoctorCommandOptions {
  readonly cwd?: string;
  readonly host?: readonly string[];
  readonly path?: readonly string[];
  readonly json?: boolean;
  readonly format?: 'sarif' | 'github';
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
  if (options.json === true && options.format !== undefined)
    throw new CtxfilesError('usage', '--json and --format cannot be used together');
  const known = listHosts();
  const unknown = (options.host ?? []).filter((name) => !known.some((host) => host.name === name));
  if (unknown.length > 0)
    throw new CtxfilesError(
      'usage',
      `--host ${unknown.join(' ')}: not a host; the hosts are ${known.map((host) => host.name).join(', ')}`,
    );
  const wanted = new Set(options.host ?? []);
  const hosts = known.filter((host) => wanted.size === 0 || wanted.has(host.name));
  const home = io.env['HOME'];
  const report = await runDoctor({
    workDir: path.resolve(io.cwd, options.cwd ?? '.'),
    hosts,
    paths: options.path ?? [],
    env: io.env,
    homeDir: home !== undefined && home !== '' ? home : homeDirectory(),
  });
  if (options.json === true) io.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  else if (options.format === 'sarif') io.stdout.write(formatDoctorSarif(report, version));
  else if (options.format === 'github') io.stdout.write(formatDoctorGithub(report));
  else {
    io.stdout.write(formatDoctorText(report));
    // What each host's agents and modes would see here (src/doctor/host-agents.ts, docs/subagents.md).
    const { hostAgentsSection } = await import('../doctor/host-agents.js');
    io.stdout.write(
      await hostAgentsSection({
        workDir: path.resolve(io.cwd, options.cwd ?? '.'),
        env: io.env,
        homeDir: home !== undefined && home !== '' ? home : homeDirectory(),
      }),
    );
  }
  const threshold = options.failOn ?? 'error';
  return report.findings.some((item) => atOrAbove(item.severity, threshold)) ? EXIT.invalid : EXIT.ok;
}
