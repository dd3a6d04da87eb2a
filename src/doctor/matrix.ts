import path from 'node:path';
import type { ResolvedFile } from '../api/create-resolver.js';
import { loadTokenCounter, type TokenCounter } from '../render/count-tokens.js';
import type { RuleExplanation } from '../rules/explain-rules.js';
import { hostNotices, type HostNotice } from './check-host-notices.js';
import type { DoctorHost, HostRequest, HostResolution } from './hosts.js';
import { positionOf } from './position-of.js';

/** Why doctor looks from a site: the work dir, a `--path`, or a nested place found by the walk. */
export type SiteKind = 'workdir' | 'path' | 'nested';

/** One place doctor looks from: the work dir, a `--path`, or a nested place with instructions. */
export interface DoctorSite {
  /** Relative to the repository root with `/` separators; `.` for the root itself. */
  readonly path: string;
  readonly kind: SiteKind;
  readonly hosts: readonly HostColumn[];
}

/** A site to resolve at: its path as shown, its absolute path and its kind. */
export interface SiteSpec {
  readonly path: string;
  readonly absolute: string;
  readonly kind: SiteKind;
}

/** What one host loads at one site before the first tool call. */
export interface HostColumn {
  readonly host: string;
  /** The files and rules it loads, in order. */
  readonly files: readonly LoadedFile[];
  /** Bytes of the rendered block the host starts with (framing included). */
  readonly bytes: number;
  /** Tokens of that block (o200k_base): what the host spends before the first tool call. */
  readonly tokens: number;
  /** Files its caps cut or leave out. */
  readonly cuts: readonly Cut[];
  /** Instruction files another host reads here that this one never reads, with those hosts. */
  readonly unseen: readonly UnseenFile[];
  /**
   * At a site other than the work dir: what working here adds to what the host loads at the work
   * dir (the files it loads here and not there, and their tokens).
   */
  readonly adds?: { readonly files: readonly string[]; readonly tokens: number };
}

/** One loaded file. */
export interface LoadedFile {
  /** Relative to the repository root with `/`, or with `~` for the home dir, or absolute above the root. */
  readonly path: string;
  /** `user`, `chain`, `rules`, `global`, … (the resolution layer). */
  readonly layer: string;
  /** The file that imports it, displayed like `path`; absent when it was not imported. */
  readonly importedBy?: string;
  readonly bytes: number;
  readonly tokens: number;
}

/** A file a cap cut short (`kept` > 0) or left out (`kept` = 0). */
export interface Cut {
  readonly path: string;
  /** Where the cut falls in the file (1-based); line 1, column 1 when it was left out. */
  readonly line: number;
  readonly column: number;
  readonly keptBytes: number;
  readonly lostBytes: number;
  /** The cap: `budget.maxBytes` of the host. */
  readonly capBytes: number | null;
}

/** A file some other host reads that this host never does. */
export interface UnseenFile {
  readonly path: string;
  readonly readBy: readonly string[];
}

/**
 * What doctor keeps of one host's resolution at one site once its column is built: the paths it
 * loads, the rules it knows and its notices, never the text (each resolution is let go before the
 * next one starts: docs/doctor.md, "Bounds").
 */
export interface HostOutcome {
  readonly host: string;
  /** The files it loads, absolute, in load order. */
  readonly files: readonly string[];
  /** Every rule file it knows, as `explain` lists them. */
  readonly rules: readonly RuleExplanation[];
  /** True when the host expands `@path` imports. */
  readonly imports: boolean;
  readonly notices: readonly HostNotice[];
}

/** The outcomes of a site's hosts, in the order of the hosts. */
export interface SiteOutcome {
  readonly site: SiteSpec;
  readonly hosts: readonly HostOutcome[];
}

/** The options of {@link buildMatrix}. */
export interface MatrixOptions {
  /** The repository root: displayed paths are relative to it. */
  readonly root: string;
  readonly sites: readonly SiteSpec[];
  readonly hosts: readonly DoctorHost[];
  readonly request: Omit<HostRequest, 'workDir' | 'paths'>;
  /** Tells a directory from a file for a `--path`. */
  readonly isDirectory: (absolute: string) => boolean;
  /** The size of a file a cap left out (it is in no result); 0 when it cannot be known. */
  readonly sizeOf: (absolute: string) => number;
  readonly homeDir: string;
  /** The real path of a file (a link's target), or the path itself when it cannot be known. */
  readonly realPath: (absolute: string) => string;
}

/**
 * Resolves every host at every site (the work dir and each `--path`: a directory is where the host
 * starts; a file puts itself in play from its directory) and builds the matrix columns. One
 * resolution at a time: each is turned into its column and {@link HostOutcome} before the next
 * starts, so a run holds the text of one resolution, not of every host at every site.
 */
export async function buildMatrix(options: Readonly<MatrixOptions>): Promise<{
  readonly sites: readonly DoctorSite[];
  readonly outcomes: readonly SiteOutcome[];
}> {
  const counter = loadTokenCounter();
  // Awaited after the first resolution; a resolution that throws first must not leave it unhandled.
  counter.catch(() => undefined);
  const show = displayPath(options.root, options.homeDir);
  const sites: DoctorSite[] = [];
  const outcomes: SiteOutcome[] = [];
  for (const site of options.sites) {
    const resolved = await resolveSite(options, site, counter, show);
    sites.push({ path: site.path, kind: site.kind, hosts: resolved.columns });
    outcomes.push({ site, hosts: resolved.outcomes });
  }
  return { sites: withAdds(sites), outcomes };
}

/** Sets `adds` on every column of the sites after the first (the work dir). */
function withAdds(sites: readonly DoctorSite[]): DoctorSite[] {
  const first = sites[0];
  if (first === undefined) return [];
  const base = new Map(
    first.hosts.map((column) => [column.host, new Set(column.files.map((file) => file.path))]),
  );
  return sites.map((site, index) =>
    index === 0
      ? site
      : {
          ...site,
          hosts: site.hosts.map((column) => {
            const there = base.get(column.host) ?? new Set<string>();
            const added = column.files.filter((file) => !there.has(file.path));
            let tokens = 0;
            for (const file of added) tokens += file.tokens;
            return { ...column, adds: { files: added.map((file) => file.path), tokens } };
          }),
        },
  );
}

async function resolveSite(
  options: Readonly<MatrixOptions>,
  site: SiteSpec,
  counter: Promise<TokenCounter>,
  show: (absolute: string) => string,
): Promise<{ columns: HostColumn[]; outcomes: HostOutcome[] }> {
  const absolute = site.absolute;
  const directory = site.kind !== 'path' || options.isDirectory(absolute);
  const workDir = directory ? absolute : path.dirname(absolute);
  const paths = directory ? [] : [path.basename(absolute)];
  const measured: { column: Omit<HostColumn, 'unseen'>; reads: ReadonlySet<string> }[] = [];
  const outcomes: HostOutcome[] = [];
  for (const host of options.hosts) {
    const resolution = await host.resolve({ ...options.request, workDir, paths });
    measured.push({
      column: measure(host.name, resolution, await counter, show, options),
      reads: readsOf(resolution),
    });
    outcomes.push(outcomeOf(host, resolution));
  }
  const reads = measured.map(({ column, reads: files }) => ({ host: column.host, files }));
  // A link and its target are one file: a host reading CLAUDE.md -> AGENTS.md reads AGENTS.md.
  const real = new Map(reads.map(({ host, files }) => [host, new Set([...files].map(options.realPath))]));
  const columns = measured.map(({ column }) => ({
    ...column,
    unseen: unseenBy(real.get(column.host) ?? new Set<string>(), column.host, reads, show, options.realPath),
  }));
  return { columns, outcomes };
}

/** What doctor keeps of a resolution for its checks. */
function outcomeOf(host: DoctorHost, { result, config }: HostResolution): HostOutcome {
  return {
    host: host.name,
    files: result.files.map((file) => file.path),
    rules: result.rules ?? [],
    imports: config.imports?.enabled === true,
    notices: hostNotices(host.frameTags, result),
  };
}

/** Displays an absolute path relative to the root, or with `~` for the home dir outside it. */
export function displayPath(root: string, homeDir: string): (absolute: string) => string {
  return (absolute) => {
    const relative = path.relative(root, absolute);
    const above = relative.startsWith('..') || path.isAbsolute(relative);
    if (above && homeDir !== '' && absolute.startsWith(homeDir + path.sep))
      return `~/${path.relative(homeDir, absolute).split(path.sep).join('/')}`;
    if (above && relative.split(path.sep).filter((part) => part === '..').length > 2) return absolute;
    return relative === '' ? '.' : relative.split(path.sep).join('/');
  };
}

/** A host's column at a site but for `unseen`, which needs the reads of every host there. */
function measure(
  host: string,
  resolution: HostResolution,
  countTokens: TokenCounter,
  show: (absolute: string) => string,
  { sizeOf }: Readonly<MatrixOptions>,
): Omit<HostColumn, 'unseen'> {
  const { result, config } = resolution;
  return {
    host,
    files: result.files.map((file) => loadedFile(file, countTokens, show)),
    bytes: Buffer.byteLength(result.text, 'utf8'),
    tokens: countTokens(result.text),
    cuts: cutsOf(resolution, config.budget.maxBytes, show, sizeOf),
  };
}

function loadedFile(file: ResolvedFile, countTokens: TokenCounter, show: (absolute: string) => string) {
  return {
    path: show(file.path),
    layer: file.layer,
    ...(file.importedBy === undefined ? {} : { importedBy: show(file.importedBy) }),
    bytes: file.bytes,
    tokens: countTokens(file.text),
  };
}

/** Every instruction file a host reads here: the files it loads and every rule file it knows. */
export function readsOf({ result }: HostResolution): ReadonlySet<string> {
  const reads = new Set(result.files.map((file) => file.path));
  for (const rule of result.rules ?? []) reads.add(rule.path);
  // A file a cap leaves out is still one the host reads (and cuts): it is not unseen.
  for (const diagnostic of result.diagnostics)
    if (diagnostic.code === 'budget-dropped' && diagnostic.path !== undefined) reads.add(diagnostic.path);
  return reads;
}

function unseenBy(
  own: ReadonlySet<string>,
  host: string,
  reads: readonly { readonly host: string; readonly files: ReadonlySet<string> }[],
  show: (absolute: string) => string,
  realPath: (absolute: string) => string,
): UnseenFile[] {
  // Keyed by the real path: a link and its target (CLAUDE.md -> AGENTS.md) are one unseen file,
  // shown by the target's name when a host reads it by that name, read by the hosts of both.
  const byFile = new Map<string, { file: string; readBy: string[] }>();
  for (const other of reads) {
    if (other.host === host) continue;
    for (const file of other.files) {
      const real = realPath(file);
      if (own.has(real) || show(file).startsWith('~/')) continue;
      const entry = byFile.get(real) ?? { file, readBy: [] };
      if (file === real) entry.file = file;
      if (!entry.readBy.includes(other.host)) entry.readBy.push(other.host);
      byFile.set(real, entry);
    }
  }
  return [...byFile.values()]
    .map(({ file, readBy }) => ({ path: show(file), readBy }))
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/**
 * The files the host's budget cut or left out. The kept part of a cut file is the longest start of
 * its text that the rendered block holds; the cut falls where that start ends.
 */
function cutsOf(
  { result }: HostResolution,
  capBytes: number | null,
  show: (absolute: string) => string,
  sizeOf: (absolute: string) => number,
): Cut[] {
  const cuts: Cut[] = [];
  for (const diagnostic of result.diagnostics) {
    if (diagnostic.path === undefined) continue;
    if (diagnostic.code === 'budget-dropped') {
      const lostBytes = sizeOf(diagnostic.path);
      cuts.push({ path: show(diagnostic.path), line: 1, column: 1, keptBytes: 0, lostBytes, capBytes });
    } else if (diagnostic.code === 'budget-truncated') {
      const file = result.files.find((candidate) => candidate.path === diagnostic.path);
      if (file === undefined) continue;
      const kept = keptPrefix(file.text, result.text);
      const keptBytes = Buffer.byteLength(file.text.slice(0, kept), 'utf8');
      cuts.push({
        path: show(file.path),
        ...positionOf(file.text, kept),
        keptBytes,
        lostBytes: Buffer.byteLength(file.text, 'utf8') - keptBytes,
        capBytes,
      });
    }
  }
  // The file cut short first, then the files left out after it.
  return cuts.sort((a, b) => Number(a.keptBytes === 0) - Number(b.keptBytes === 0));
}

/** The length of the longest start of `text` that `block` contains (binary search: starts nest). */
function keptPrefix(text: string, block: string): number {
  let low = 0;
  let high = text.length;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (block.includes(text.slice(0, middle))) low = middle;
    else high = middle - 1;
  }
  return low;
}
