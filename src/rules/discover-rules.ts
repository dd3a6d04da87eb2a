import path from 'node:path';
import type { DiagnosticCode } from '../diagnostics.js';
import type { Diagnostic } from '../errors.js';
import { isInside, type SymlinkPolicy } from '../fs/contain.js';
import type { DirEntry, FileSystem } from '../fs/file-system.js';
import type { HiddenCharacter } from '../fs/hidden-unicode.js';
import { decodingWarnings, readInstruction } from '../fs/read-instruction.js';
import { createCompileBudget, type CompileBudget } from './compile-budget.js';
import { parseRule } from './parse-rule.js';
import { PARSE_CODES } from './rule-body.js';
import { listedOwner } from './listed-owner.js';
import { readsIn, type OwnerPlace, type RuleAdapter, type RuleLocation } from './rule-adapter.js';
import { RULE_ADAPTERS } from './rule-adapters.js';
import type { Rule, SkippedRule, SkipReason } from './rule.js';
import { createDiagnostics } from '../diagnostics.js';
import { toPosix } from '../shared/to-posix.js';
import { compareCodeUnits } from '../discover/compare-code-units.js';
import { freezeRule } from './freeze-rule.js';
import { collect, listedFile, type Candidate } from './rule-candidates.js';

/** Rule files read before discovery stops, whatever `maxRules` says. */
export const MAX_RULE_FILES = 2_000;
/** Folder depth below a vendor's rules folder that discovery enters. */
export const MAX_RULE_FOLDER_DEPTH = 8;

/** Options of {@link discoverRules}. */
export interface DiscoverRulesOptions {
  /** Canonical absolute work dir; `relativePath` of each rule is relative to it. */
  readonly workDir: string;
  /**
   * Absolute directories that may hold vendor folders: the work dir, chain directories and, with
   * `rules.nested`, directories found by the nested walk. Visited in code-unit order, deduplicated.
   */
  readonly ownerDirs: readonly string[];
  /** Adapter names (`rules.sources`), in config order; unknown names are reported and ignored. */
  readonly sources: readonly string[];
  /** A rule file larger than this is skipped with a `warn`. */
  readonly maxFileBytes: number;
  /**
   * Symlinks inside a vendor folder are followed only when their real target stays inside this
   * directory (the chain's containment root). Default: the work dir. An owner outside it is its own
   * root.
   */
  readonly root?: string;
  /**
   * `instructions.symlinks` (docs/chains.md, "Symlinks"), applied to every vendor folder, rule file
   * and folder below it as to every other source: `inside` (default) follows a link whose real target
   * stays inside the root, `reject` refuses every link, `follow` follows every link.
   */
  readonly symlinks?: SymlinkPolicy;
  /**
   * The user's home directory, when the user-level folders of the sources (`userLocations`, such as
   * `~/.kiro/steering/`) are read too (`rules.userFolders`, trusted layers only). Its rules are owned
   * by it: their globs match paths relative to it.
   */
  readonly userDir?: string;
  /** At most this many rules are kept (after ordering); default {@link MAX_RULE_FILES}. */
  readonly maxRules?: number;
  /** Folder depth below a rules folder; default {@link MAX_RULE_FOLDER_DEPTH}. */
  readonly maxDepth?: number;
  /**
   * File names that are instruction files of the config (its `contextPaths` file entries and chain
   * candidates): a source's nested file of that name (Windsurf's `AGENTS.md`) is not read as a rule,
   * since nested disclosure already shows it when the agent works below it, and turning nested
   * disclosure off must keep it out (docs/rules.md, "Windsurf").
   */
  readonly instructionNames?: ReadonlySet<string>;
  /**
   * For owner dirs a walk listed (real directories: the walk never enters a link): their entries,
   * all but plain files whose name is no location's first segment, ignoring case. A location the
   * listing shows absent is not looked up (each look-up of an absent path costs a call per path
   * segment), a one-file location listed as a plain file is read as listed, and the others are
   * resolved from the owner down (src/rules/listed-owner.ts). Owners not in the map are looked up
   * from the root.
   */
  readonly ownerEntries?: ReadonlyMap<string, readonly DirEntry[]>;
}

/** The outcome of {@link discoverRules}. */
export interface DiscoveredRules {
  /** Frozen rules ordered by owner dir, then path below it (code units). */
  readonly rules: readonly Rule[];
  /** Rule files found but not used, in the same order. */
  readonly skipped: readonly SkippedRule[];
  readonly diagnostics: readonly Diagnostic[];
}

/**
 * Finds and reads the rule files of `sources` under each owner dir through the filesystem port, and
 * normalizes them with the vendors' adapters. Deterministic: owners in code-unit order, then files by
 * their path below the owner (code units), whatever order the filesystem lists entries in; the same
 * file reached twice (two sources, a symlink) is kept once, first wins. Each faulty file (bad
 * frontmatter, bad glob, too large, binary, unreadable, a symlink leading outside the root) is a `warn`
 * and is skipped; nothing throws.
 */
export function discoverRules(fs: FileSystem, options: Readonly<DiscoverRulesOptions>): DiscoveredRules {
  const diagnostics: Diagnostic[] = createDiagnostics();
  const adapters = adaptersOf(options.sources, diagnostics);
  const root = options.root ?? options.workDir;
  const maxRules = options.maxRules ?? MAX_RULE_FILES;
  const maxDepth = options.maxDepth ?? MAX_RULE_FOLDER_DEPTH;
  const symlinks = options.symlinks ?? 'inside';
  const projectOwners = new Set(options.ownerDirs);
  const userDir = options.userDir;
  const owners = [...new Set([...projectOwners, ...(userDir === undefined ? [] : [userDir])])].sort(
    compareCodeUnits,
  );
  const rules: Rule[] = [];
  const skipped: SkippedRule[] = [];
  const seen = new Set<string>();
  // What the rules' globs and content patterns may compile to, for the whole discovery.
  const budget = createCompileBudget();
  let total = 0;
  const byFirst = locationsByFirstSegment(adapters);
  const scan = { adapters, options, projectOwners, root, symlinks, maxDepth, diagnostics, byFirst };
  for (const ownerDir of owners) {
    const candidates = candidatesOf(fs, ownerDir, scan);
    if (candidates.length === 0) continue;
    const relativeOf = relativeTo(options.workDir, ownerDir);
    candidates.sort((a, b) => compareCodeUnits(a.sortKey ?? a.key, b.sortKey ?? b.key));
    for (const candidate of candidates) {
      // One real path is one file: a symlink to a rule already listed, or two sources sharing a folder.
      if (seen.has(candidate.realPath)) continue;
      seen.add(candidate.realPath);
      if (total >= maxRules) {
        diagnostics.push({
          level: 'warn',
          code: 'rule-limit',
          message: `rule discovery stopped after ${maxRules} rule files`,
          path: candidate.path,
        });
        return freeze(rules, skipped, diagnostics);
      }
      total += 1;
      const into = { rules, skipped, diagnostics, budget };
      readCandidate(fs, candidate, ownerDir, relativeOf(candidate), options, into);
    }
  }
  return freeze(rules, skipped, diagnostics);
}

/** The adapters of the sources, each once, in order; an unknown source is a `warn`. */
function adaptersOf(sources: readonly string[], diagnostics: Diagnostic[]): RuleAdapter[] {
  const adapters: RuleAdapter[] = [];
  for (const source of sources) {
    const adapter = RULE_ADAPTERS.get(source);
    if (adapter === undefined)
      diagnostics.push({
        level: 'warn',
        code: 'rule-source',
        message: `unknown rules source ${JSON.stringify(source)}`,
      });
    else if (!adapters.includes(adapter)) adapters.push(adapter);
  }
  return adapters;
}

/** What {@link candidatesOf} needs of one discovery. */
interface Scan {
  readonly adapters: readonly RuleAdapter[];
  readonly options: Readonly<DiscoverRulesOptions>;
  readonly projectOwners: ReadonlySet<string>;
  readonly root: string;
  readonly symlinks: SymlinkPolicy;
  readonly maxDepth: number;
  readonly diagnostics: Diagnostic[];
  readonly byFirst: LocationsByFirstSegment;
}

/** The project locations of the sources, in order, and their indexes by first segment in lower case. */
interface LocationsByFirstSegment {
  readonly all: readonly (readonly [RuleAdapter, RuleLocation])[];
  readonly at: ReadonlyMap<string, readonly number[]>;
}

function locationsByFirstSegment(adapters: readonly RuleAdapter[]): LocationsByFirstSegment {
  const all: (readonly [RuleAdapter, RuleLocation])[] = [];
  const at = new Map<string, number[]>();
  for (const adapter of adapters)
    for (const location of adapter.locations) {
      const cut = location.path.indexOf('/');
      const first = (cut === -1 ? location.path : location.path.slice(0, cut)).toLowerCase();
      const list = at.get(first) ?? [];
      list.push(all.length);
      at.set(first, list);
      all.push([adapter, location]);
    }
  return { all, at };
}

/**
 * The project locations an owner's listing may hold, in source and location order: those whose
 * first segment some entry names, ignoring case (the same length too, as {@link listedOwner}
 * compares). Every other location is absent from the listing, so it is not even asked.
 */
function listedLocations(
  entries: readonly DirEntry[],
  byFirst: LocationsByFirstSegment,
): (readonly [RuleAdapter, RuleLocation])[] {
  let picked: number[] | undefined;
  for (const { name } of entries) {
    const indexes = byFirst.at.get(name.toLowerCase());
    if (indexes === undefined) continue;
    for (const index of indexes) {
      const location = (byFirst.all[index] as readonly [RuleAdapter, RuleLocation])[1];
      const cut = location.path.indexOf('/');
      if ((cut === -1 ? location.path.length : cut) === name.length && !picked?.includes(index))
        (picked ??= []).push(index);
    }
  }
  if (picked === undefined) return [];
  return picked
    .sort((a, b) => a - b)
    .map((index) => byFirst.all[index] as readonly [RuleAdapter, RuleLocation]);
}

/** The rule files of every location of every source below one owner, unsorted. */
function candidatesOf(fs: FileSystem, ownerDir: string, scan: Scan): Candidate[] {
  const { options, symlinks, maxDepth, diagnostics } = scan;
  const ownerRoot = isInside(scan.root, ownerDir) ? scan.root : ownerDir;
  const candidates: Candidate[] = [];
  const owner: OwnerPlace =
    ownerDir === options.workDir ? 'work-dir' : isInside(options.workDir, ownerDir) ? 'nested' : 'above';
  const entries = options.ownerEntries?.get(ownerDir);
  const listed = entries === undefined ? undefined : listedOwner(entries);
  // A listed owner is a real directory: look-ups below it start there, not at the root.
  const at = { ownerDir, root: ownerRoot, base: listed === undefined ? ownerRoot : ownerDir };
  const isUser = ownerDir === options.userDir;
  const pairs =
    entries !== undefined && !isUser
      ? listedLocations(entries, scan.byFirst)
      : scan.adapters.flatMap((adapter) =>
          locationsOf(adapter, scan.projectOwners.has(ownerDir), isUser).map(
            (location) => [adapter, location] as const,
          ),
        );
  for (const [adapter, location] of pairs) {
    if (!readsIn(location, owner, options.instructionNames)) continue;
    const known = listed?.(location) ?? 'look-up';
    if (known === 'absent') continue;
    // Listed in another case only: absent on a case-sensitive volume, which one probe (no
    // exception when absent) tells before the look-up. On a case-insensitive one it is the file
    // listed, which the nested walk delivers already when an instruction name names it (Windsurf's
    // agents.md beside an AGENTS.md): an instruction reaches the model once.
    if (known === 'other-case') {
      if (owner === 'nested' && listedAsInstruction(entries ?? [], location.path, options.instructionNames))
        continue;
      if (fs.probe(path.join(ownerDir, location.path)) === null) continue;
    }
    if (known === 'plain-file' && location.type === 'file')
      candidates.push(listedFile(ownerDir, adapter, location));
    else collect(fs, at, symlinks, adapter, location, maxDepth, candidates, diagnostics);
  }
  return candidates;
}

/** True when `entries` hold a file named `name` in another case that is an instruction name. */
function listedAsInstruction(
  entries: readonly DirEntry[],
  name: string,
  instructionNames: ReadonlySet<string> | undefined,
): boolean {
  if (instructionNames === undefined) return false;
  const folded = name.toLowerCase();
  return entries.some(
    (entry) => entry.name !== name && entry.name.toLowerCase() === folded && instructionNames.has(entry.name),
  );
}

/** Reads one rule file into `rules`, or records why it is skipped. */
function readCandidate(
  fs: FileSystem,
  candidate: Candidate,
  ownerDir: string,
  relativePath: string,
  options: Readonly<DiscoverRulesOptions>,
  into: { rules: Rule[]; skipped: SkippedRule[]; diagnostics: Diagnostic[]; budget: CompileBudget },
): void {
  const { rules, skipped, diagnostics } = into;
  const skip = (reason: SkipReason, code: DiagnosticCode, problem: string) => {
    diagnostics.push({
      level: 'warn',
      code,
      message: `${relativePath}: ${problem}; the rule is skipped`,
      path: candidate.path,
    });
    const { path, name, adapter } = candidate;
    skipped.push(
      Object.freeze({ path, relativePath, ownerDir, name, source: adapter.source, reason, problem }),
    );
  };
  const read = readInstruction(fs, candidate.realPath, {
    maxBytes: options.maxFileBytes,
    ...(candidate.expect === null ? {} : { expect: candidate.expect }),
  });
  if (!read.ok) {
    if (read.fault === 'vanished' || changedKind(candidate, read.code)) return;
    if (read.fault === 'too-large')
      return skip('too large', 'too-large', `larger than ${options.maxFileBytes} bytes`);
    if (read.fault === 'binary') return skip('binary', 'binary', 'looks binary (it holds a NUL byte)');
    return skip('unreadable', 'unreadable', `cannot be read (${read.code ?? 'error'})`);
  }
  const parsed = parseRule(read.text, candidate.adapter, candidate.location, into.budget);
  if (!parsed.ok) return skip(parsed.reason, PARSE_CODES[parsed.reason], parsed.problem);
  reportText(candidate, relativePath, parsed, read, diagnostics);
  rules.push(ruleOf(candidate, relativePath, ownerDir, parsed, read));
}

/** The locations an owner is read at: the project's, the user's (home directory), or both. */
function locationsOf(adapter: RuleAdapter, project: boolean, user: boolean): readonly RuleLocation[] {
  if (!user) return adapter.locations;
  const own = adapter.userLocations ?? [];
  return project ? [...adapter.locations, ...own] : own;
}

/**
 * True when a file listed as a plain file is no longer one at the read: replaced by a symlink
 * (`ELOOP`, the read does not follow it) or by a FIFO, device or directory (`EINVAL`). It is gone
 * as far as this listing is concerned, like a file deleted since: skipped without a word.
 */
function changedKind(candidate: Candidate, code: string | undefined): boolean {
  return candidate.expect === null && (code === 'ELOOP' || code === 'EINVAL');
}

/** The frozen rule of a file read and parsed. */
function ruleOf(
  candidate: Candidate,
  relativePath: string,
  ownerDir: string,
  parsed: Extract<ReturnType<typeof parseRule>, { ok: true }>,
  read: Extract<ReturnType<typeof readInstruction>, { ok: true }>,
): Rule {
  const { path, realPath, name, adapter, agent } = candidate;
  const { kind, description } = parsed;
  const globs = Object.freeze([...parsed.globs]);
  const agents =
    agent === undefined
      ? parsed.agents
      : Object.freeze({ only: Object.freeze([agent]), except: parsed.agents.except });
  const about = {
    path,
    realPath,
    relativePath,
    ownerDir,
    name,
    source: adapter.source,
    kind,
    globs,
    description,
    agents,
    regex: Object.isFrozen(parsed.regex) ? parsed.regex : Object.freeze([...parsed.regex]),
  };
  return freezeRule(about, parsed.text, read, parsed.compiled);
}

/**
 * What a rule's text deserves a note about: lenient frontmatter, a body cut to the tool's length,
 * invalid UTF-8, hidden characters.
 */
function reportText(
  candidate: Candidate,
  relativePath: string,
  { lenient, truncated }: { readonly lenient: boolean; readonly truncated: boolean },
  read: { readonly invalidUtf8: boolean; readonly hidden: readonly HiddenCharacter[] },
  diagnostics: Diagnostic[],
): void {
  if (truncated)
    diagnostics.push({
      level: 'info',
      code: 'rule-truncated',
      message: `${relativePath}: longer than the ${candidate.adapter.maxChars} characters ${candidate.adapter.source} reads; the rule's text is cut there`,
      path: candidate.path,
    });
  // Unquoted globs are the vendors' own format (Cursor, Windsurf): worth a trace, not a complaint.
  if (lenient)
    diagnostics.push({
      level: 'debug',
      code: 'rule-frontmatter',
      message: `${relativePath}: the frontmatter is not valid YAML; its ${candidate.adapter.keys.join(', ')} lines were read as plain text`,
      path: candidate.path,
    });
  diagnostics.push(...decodingWarnings(relativePath, read, { path: candidate.path }));
}

function freeze(rules: Rule[], skipped: SkippedRule[], diagnostics: Diagnostic[]): DiscoveredRules {
  return Object.freeze({
    rules: Object.freeze(rules),
    skipped: Object.freeze(skipped),
    diagnostics: Object.freeze(diagnostics),
  });
}

/**
 * `path.relative(workDir, file)` with `/` separators, for the files below one owner: the owner's part is
 * computed once when the owner is the work dir or below it (each file's path then only extends it).
 */
function relativeTo(workDir: string, ownerDir: string): (candidate: Candidate) => string {
  if (ownerDir === workDir) return (candidate) => candidate.key;
  if (isInside(workDir, ownerDir)) {
    const prefix = `${toPosix(path.relative(workDir, ownerDir))}/`;
    return (candidate) => prefix + candidate.key;
  }
  return (candidate) => toPosix(path.relative(workDir, candidate.path));
}
