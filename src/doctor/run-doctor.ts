import path from 'node:path';
import { canonicalWorkDir } from '../api/load-context.js';
import { CtxfilesError } from '../errors.js';
import type { FileSystem } from '../fs/file-system.js';
import { createNodeFileSystem } from '../fs/node-file-system.js';
import { checkCopies } from './check-copies.js';
import { checkHostNotices } from './check-host-notices.js';
import { checkRules } from './check-rules.js';
import { checkText } from './check-text.js';
import { gatherCorpus } from './corpus.js';
import { finding, sortFindings, type Finding } from './finding.js';
import type { DoctorHost } from './hosts.js';
import { buildMatrix, displayPath, type DoctorSite } from './matrix.js';

/** The options of {@link runDoctor}. */
export interface DoctorOptions {
  /** Absolute work dir. */
  readonly workDir: string;
  /** The hosts to compare (see `listHosts`). */
  readonly hosts: readonly DoctorHost[];
  /** `--path` values, relative to the work dir. */
  readonly paths: readonly string[];
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly homeDir: string;
  readonly fs?: FileSystem;
}

/** What `ctxfiles doctor` prints: the matrix per site and the findings (docs/doctor.md). */
export interface DoctorReport {
  readonly workDir: string;
  readonly hosts: readonly string[];
  readonly sites: readonly DoctorSite[];
  readonly findings: readonly Finding[];
}

/**
 * Resolves every host at every site → gathers the files they read → runs the checks.
 * @throws CtxfilesError `usage` for a `--path` that does not exist, `workdir-invalid` for a work dir
 * that is not a directory.
 */
export async function runDoctor(options: Readonly<DoctorOptions>): Promise<DoctorReport> {
  const fs = options.fs ?? createNodeFileSystem();
  const workDir = canonicalWorkDir(fs, options.workDir);
  const show = displayPath(workDir, options.homeDir);
  for (const site of options.paths)
    if (fs.probe(path.resolve(workDir, site)) === null)
      throw new CtxfilesError('usage', `--path ${site}: no such file or directory under ${workDir}`);
  const { sites, resolutions } = await buildMatrix({
    workDir,
    sites: ['.', ...options.paths.map((site) => site.split(path.sep).join('/'))],
    hosts: options.hosts,
    request: { fs, env: options.env, homeDir: options.homeDir },
    isDirectory: (absolute) =>
      fs.probe(absolute)?.kind === 'directory' || statKind(fs, absolute) === 'directory',
    sizeOf: (absolute) => fs.probe(absolute)?.size ?? 0,
    homeDir: options.homeDir,
  });
  const corpus = gatherCorpus(fs, workDir, resolutions, show);
  const findings = sortFindings([
    ...checkRules(corpus),
    ...checkText(corpus),
    ...checkCopies(corpus),
    ...capFindings(sites),
    ...checkHostNotices(resolutions, show),
  ]);
  return { workDir, hosts: options.hosts.map((host) => host.name), sites, findings };
}

function statKind(fs: FileSystem, absolute: string): string | null {
  try {
    return fs.stat(absolute).kind;
  } catch {
    return null;
  }
}

/** `over-cap` for every file a host's cap cut or left out, inside the project. */
function capFindings(sites: readonly DoctorSite[]): Finding[] {
  const findings: Finding[] = [];
  for (const site of sites) {
    for (const column of site.hosts) {
      for (const cut of column.cuts) {
        if (cut.path.startsWith('~/') || path.isAbsolute(cut.path)) continue;
        const cap = cut.capBytes === null ? 'its cap' : `its ${cut.capBytes}-byte cap`;
        const what =
          cut.keptBytes === 0
            ? `${column.host} leaves this file out: ${cap} is spent before it`
            : `${column.host} cuts this file here to stay within ${cap}`;
        findings.push(
          finding(
            'over-cap',
            { file: cut.path, line: cut.line, column: cut.column },
            `${what}; ${cut.lostBytes} bytes are never sent`,
            'shorten the files it loads from the project root down, or move detail into nested files',
          ),
        );
      }
    }
  }
  return findings;
}
