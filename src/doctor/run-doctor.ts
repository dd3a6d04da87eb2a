import path from 'node:path';
import { canonicalWorkDir } from '../api/load-context.js';
import { CtxfilesError } from '../errors.js';
import type { FileSystem } from '../fs/file-system.js';
import { createNodeFileSystem } from '../fs/node-file-system.js';
import { checkCopies } from './check-copies.js';
import { checkHostNotices } from './check-host-notices.js';
import { checkRules } from './check-rules.js';
import { checkText } from './check-text.js';
import { checkTwice } from './check-twice.js';
import { gatherCorpus, projectRoot } from './corpus.js';
import { capFindingList, finding, sortFindings, type Finding } from './finding.js';
import { placeMarkers, type DoctorHost } from './hosts.js';
import { buildMatrix, displayPath, type DoctorSite, type SiteSpec } from './matrix.js';
import { indexRepository, type RepoIndex } from './repo-index.js';
import { shareReads } from './shared-reads.js';

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
  /** The repository root (the nearest ancestor of the work dir holding `.git`): paths are relative to it. */
  readonly root: string;
  readonly workDir: string;
  readonly hosts: readonly string[];
  /** The work dir, each `--path`, then each nested place with instructions below the work dir. */
  readonly sites: readonly DoctorSite[];
  /** Nested places past the cap, not resolved. */
  readonly placesLeftOut: number;
  readonly findings: readonly Finding[];
  /** Findings past the cap of 1,000, not listed (the exit code still counts them). */
  readonly findingsLeftOut: number;
  /** True when a finding left out is an error. */
  readonly errorsLeftOut: boolean;
}

/**
 * Resolves every host at every site → gathers the files they read → runs the checks.
 * @throws CtxfilesError `usage` for a `--path` that does not exist, `workdir-invalid` for a work dir
 * that is not a directory.
 */
export async function runDoctor(options: Readonly<DoctorOptions>): Promise<DoctorReport> {
  const fs = options.fs ?? createNodeFileSystem();
  const workDir = canonicalWorkDir(fs, options.workDir);
  const root = projectRoot(fs, workDir);
  const show = displayPath(root, options.homeDir);
  for (const site of options.paths)
    if (fs.probe(path.resolve(workDir, site)) === null)
      throw new CtxfilesError('usage', `--path ${site}: no such file or directory under ${workDir}`);
  const index = indexRepository(fs, root, workDir, placeMarkers(options.hosts), options.homeDir);
  // Every host at every site, then the corpus, read the same files: each is read once.
  const shared = shareReads(fs);
  const { sites, outcomes } = await buildMatrix({
    root,
    sites: sitesOf(workDir, options.paths, index, show),
    hosts: options.hosts,
    request: { fs: shared.fs, env: options.env, homeDir: options.homeDir },
    isDirectory: (absolute) =>
      fs.probe(absolute)?.kind === 'directory' || statKind(fs, absolute) === 'directory',
    sizeOf: (absolute) => fs.probe(absolute)?.size ?? 0,
    homeDir: options.homeDir,
    realPath: (absolute) => realPathOf(fs, absolute),
  });
  const corpus = gatherCorpus(shared.fs, root, workDir, outcomes, show, index);
  // The checks hold the corpus's text; the raw reads are let go before they run.
  shared.release();
  const all = sortFindings([
    ...checkRules(corpus),
    ...checkText(corpus),
    ...checkCopies(corpus),
    ...capFindings(sites),
    ...checkHostNotices(outcomes, show),
    ...checkTwice(corpus, sites, (shown) => realPathOf(fs, path.resolve(root, shown))),
  ]);
  const { findings, leftOut, errorsLeftOut } = capFindingList(all);
  return {
    root,
    workDir,
    hosts: options.hosts.map((host) => host.name),
    sites,
    placesLeftOut: index.placesLeftOut,
    findings,
    findingsLeftOut: leftOut,
    errorsLeftOut,
  };
}

/** The work dir, each `--path` (relative to the work dir), then the nested places of the index. */
function sitesOf(
  workDir: string,
  paths: readonly string[],
  index: RepoIndex,
  show: (absolute: string) => string,
): SiteSpec[] {
  const sites: SiteSpec[] = [{ path: show(workDir), absolute: workDir, kind: 'workdir' }];
  const seen = new Set([workDir]);
  for (const site of paths) {
    const absolute = path.resolve(workDir, site);
    if (seen.has(absolute)) continue;
    seen.add(absolute);
    sites.push({ path: show(absolute), absolute, kind: 'path' });
  }
  for (const place of index.places) {
    if (seen.has(place)) continue;
    seen.add(place);
    sites.push({ path: show(place), absolute: place, kind: 'nested' });
  }
  return sites;
}

function realPathOf(fs: FileSystem, absolute: string): string {
  try {
    return fs.realpath(absolute);
  } catch {
    return absolute;
  }
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
