import path from 'node:path';
import type { DiagnosticCode } from '../diagnostics.js';
import type { Diagnostic } from '../errors.js';
import { hasControlCharacter, isInside, realInside, type SymlinkPolicy } from '../fs/contain.js';
import { errorCode, isAbsent, type DirEntry, type FileInfo, type FileSystem } from '../fs/file-system.js';
import type { HiddenCharacter } from '../fs/hidden-unicode.js';
import { decodingWarnings, defineSha256, digestOf, readInstruction } from '../fs/read-instruction.js';
import { rememberCompiledGlobs, type CompiledGlob } from './compile-rule-globs.js';
import { createCompileBudget, type CompileBudget } from './compile-budget.js';
import { parseRule } from './parse-rule.js';
import { PARSE_CODES } from './rule-body.js';
import { listedOwner } from './listed-owner.js';
import type { RuleAdapter, RuleLocation } from './rule-adapter.js';
import { RULE_ADAPTERS } from './rule-adapters.js';
import type { Rule, SkippedRule, SkipReason } from './rule.js';
import { createDiagnostics } from '../diagnostics.js';
import { joinName } from '../shared/join-name.js';
import { toPosix } from '../shared/to-posix.js';
import { compareCodeUnits } from '../discover/compare-code-units.js';

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

interface Candidate {
  readonly path: string;
  readonly realPath: string;
  /**
   * The identity a symlink's target was checked with, so the read refuses a file swapped in since;
   * `null` for a plain file as listed (its read opens it without following links and checks it is a
   * regular file).
   */
  readonly expect: { readonly dev: number; readonly ino: number } | null;
  /** Path below the owner dir, `/` separators: the sort key unless `sortKey` is set. */
  readonly key: string;
  /**
   * Set for the files of a folder ordered otherwise than by path (`order: 'file-name'`): the folder's
   * path, then the file's rank in it.
   */
  readonly sortKey?: string;
  readonly name: string;
  readonly adapter: RuleAdapter;
  readonly location: RuleLocation;
  /** Set for a file of an agent's folder (`.roo/rules-code/…`): the rule is for that agent only. */
  readonly agent?: string;
}

/** Whether a location is read in an owner of this kind (see {@link DiscoverRulesOptions.instructionNames}). */
function usable(
  location: RuleLocation,
  owner: string,
  instructionNames: ReadonlySet<string> | undefined,
): boolean {
  if (location.type === 'folder' || location.owners === undefined) return true;
  if (location.owners === 'nested' && instructionNames?.has(location.path) === true) return false;
  return location.owners === owner;
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
  const adapters: RuleAdapter[] = [];
  for (const source of options.sources) {
    const adapter = RULE_ADAPTERS.get(source);
    if (adapter === undefined)
      diagnostics.push({
        level: 'warn',
        code: 'rule-source',
        message: `unknown rules source ${JSON.stringify(source)}`,
      });
    else if (!adapters.includes(adapter)) adapters.push(adapter);
  }
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
  const owner =
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
    if (!usable(location, owner, options.instructionNames)) continue;
    const known = listed?.(location) ?? 'look-up';
    if (known === 'absent') continue;
    // Listed in another case only: absent on a case-sensitive volume, which one probe (no
    // exception when absent) tells before the look-up.
    if (known === 'other-case' && fs.probe(path.join(ownerDir, location.path)) === null) continue;
    if (known === 'plain-file' && location.type === 'file')
      candidates.push(listedFile(ownerDir, adapter, location));
    else collect(fs, at, symlinks, adapter, location, maxDepth, candidates, diagnostics);
  }
  return candidates;
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

/** What a rule is apart from its file's content. */
type RuleAbout = Omit<Rule, 'text' | 'bytes' | 'sha256' | 'mtimeMs' | 'hidden'>;

/**
 * The one way a rule object is made, at discovery and when a named rule is read again: `about`,
 * the body `text`, and the size, digest (lazy), time and hidden characters of the file `read`.
 * `compiled` are its globs, remembered for the rule set so they are never compiled twice.
 */
export function freezeRule(
  about: RuleAbout,
  text: string,
  read: Extract<ReturnType<typeof readInstruction>, { ok: true }>,
  compiled: readonly CompiledGlob[],
): Rule {
  const { path, realPath, relativePath, ownerDir, name, source, kind, globs, description, agents, regex } =
    about;
  // One object literal, in key order: building it with a spread cost a cold resolve over 500 rules
  // ~30M instructions more (callgrind).
  const head = {
    path,
    realPath,
    relativePath,
    ownerDir,
    name,
    source,
    kind,
    globs,
    description,
    agents,
    regex,
    text,
    bytes: read.bytes,
  };
  const tail = { mtimeMs: read.mtimeMs, hidden: Object.freeze([...read.hidden]) };
  const rule: Rule = Object.freeze(defineSha256(head, digestOf(read), tail));
  rememberCompiledGlobs(rule, compiled);
  return rule;
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

/**
 * The candidate of a one-file location its owner's listing holds as a plain file: no call before
 * the read, which opens it without following links and checks it is a regular file (as for a file
 * of a rules folder).
 */
function listedFile(
  ownerDir: string,
  adapter: RuleAdapter,
  location: Extract<RuleLocation, { type: 'file' }>,
): Candidate {
  const file = joinName(ownerDir, location.path);
  return {
    adapter,
    location,
    path: file,
    realPath: file,
    expect: null,
    key: location.path,
    name: location.name,
  };
}

/**
 * Adds the rule files of one location below one owner (`at.base`: where its look-up starts, the
 * root or the owner when it is known to be a real directory).
 */
function collect(
  fs: FileSystem,
  at: { readonly ownerDir: string; readonly root: string; readonly base: string },
  symlinks: SymlinkPolicy,
  adapter: RuleAdapter,
  location: RuleLocation,
  maxDepth: number,
  candidates: Candidate[],
  diagnostics: Diagnostic[],
): void {
  const { ownerDir, root } = at;
  const start = path.join(ownerDir, location.path);
  const target = follow(fs, root, start, symlinks, diagnostics, at.base);
  if (target === null) return;
  if (location.type === 'file') {
    if (target.info.kind === 'file')
      candidates.push({
        adapter,
        location,
        path: start,
        realPath: target.realPath,
        expect: identityOf(target.info),
        key: location.path,
        name: location.name,
      });
    return;
  }
  if (target.info.kind !== 'directory') return;
  const walk = { fs, root, symlinks, adapter, location, maxDepth, candidates, diagnostics };
  if (location.agentPrefix === undefined)
    return walkFolder(walk, { dir: start, real: target.realPath, relative: '', depth: 0 });
  // A family of agent folders (`.roo/rules-code`): each is walked as a rules folder of its own.
  const prefix = location.agentPrefix;
  for (const entry of listFolder(walk, start) ?? []) {
    const agent = entry.name.slice(prefix.length);
    if (!entry.name.startsWith(prefix) || agent === '' || hasControlCharacter(entry.name)) continue;
    if (entry.kind !== 'directory' && entry.kind !== 'symlink') continue;
    const dir = joinName(start, entry.name);
    const folder = follow(fs, root, dir, symlinks, diagnostics);
    if (folder === null || folder.info.kind !== 'directory') continue;
    const scoped = { ...location, path: `${location.path}/${entry.name}` };
    walkFolder({ ...walk, location: scoped, agent }, { dir, real: folder.realPath, relative: '', depth: 0 });
  }
}

/** One folder walk: where it looks, under which policy, and where it puts what it finds. */
interface Walk {
  readonly fs: FileSystem;
  readonly root: string;
  readonly symlinks: SymlinkPolicy;
  readonly adapter: RuleAdapter;
  readonly location: Extract<RuleLocation, { type: 'folder' }>;
  /** The agent of an agent folder. */
  readonly agent?: string;
  readonly maxDepth: number;
  readonly candidates: Candidate[];
  readonly diagnostics: Diagnostic[];
}

/**
 * A directory of a walk, listed by the path it was reached by and known by its real path, so a plain
 * file below costs no call before its read: only symlinks are resolved (and checked against the root).
 */
interface Folder {
  readonly dir: string;
  readonly real: string;
  readonly relative: string;
  readonly depth: number;
}

/**
 * Depth-first over a rules folder; a directory already entered (by real path) is not entered again.
 * What the vendor would read and this walk does not (a name with control characters, a folder past
 * the depth cap) is a `warn`, never dropped silently.
 */
function walkFolder(walk: Walk, top: Folder): void {
  const { location } = walk;
  const first = walk.candidates.length;
  const entered = new Set<string>([top.real]);
  const stack: Folder[] = [top];
  while (stack.length > 0) {
    const { dir, real, relative, depth } = stack.pop() as Folder;
    const entries = listFolder(walk, dir);
    for (const entry of entries ?? []) {
      const name = entry.name;
      // Dot entries are editor and VCS leftovers, never rules, unless the vendor reads them.
      if (name.charCodeAt(0) === 46 /* . */ && location.dotEntries !== true) continue;
      if (entry.kind === 'file' && ruleExtension(location, name) === null) continue;
      const child = joinName(dir, name);
      // Control characters could forge output: never read, always said.
      if (hasControlCharacter(name)) {
        warnPassedOver(walk, child, 'unsafe-name', 'holds control characters');
        continue;
      }
      const childRelative = relative === '' ? name : `${relative}/${name}`;
      const resolved = resolveEntry(walk, child, entry.kind, joinName(real, name));
      if (resolved === null) continue;
      const { kind, realPath, expect } = resolved;
      if (kind === 'directory') {
        if (entered.has(realPath)) continue;
        if (depth + 1 > walk.maxDepth) {
          warnPassedOver(walk, child, 'rule-limit', `is more than ${walk.maxDepth} folders deep`);
          continue;
        }
        entered.add(realPath);
        stack.push({ dir: child, real: realPath, relative: childRelative, depth: depth + 1 });
        continue;
      }
      const extension = kind === 'file' ? ruleExtension(location, name) : null;
      if (extension === null) continue;
      const stem = childRelative.slice(0, childRelative.length - extension.length);
      if (stem === '' || stem.endsWith('/')) continue;
      walk.candidates.push({
        adapter: walk.adapter,
        location,
        path: child,
        realPath,
        expect,
        key: `${location.path}/${childRelative}`,
        name: stem,
        ...(walk.agent === undefined ? {} : { agent: walk.agent }),
      });
    }
  }
  if (location.order === 'file-name') orderByFileName(walk.candidates, first, location.path);
}

/** A `warn` for an entry of a rules folder the walk does not read. */
function warnPassedOver(walk: Walk, child: string, code: DiagnosticCode, why: string): void {
  walk.diagnostics.push({
    level: 'warn',
    code,
    message: `${JSON.stringify(child)} ${why}; it is not read for ${walk.adapter.source} rules`,
    path: child,
  });
}

/**
 * The part of `name` left out of a rule's name, when `location` reads the file: the first of its
 * `extensions` that fits, or with `any` the last extension (`''` when there is none, or for a dot
 * file); `null` for a file the location does not read (another extension, or a name it skips).
 */
function ruleExtension(location: Extract<RuleLocation, { type: 'folder' }>, name: string): string | null {
  if (location.extensions !== 'any') {
    for (const extension of location.extensions) if (name.endsWith(extension)) return extension;
    return null;
  }
  const skip = location.skip;
  if (skip !== undefined && (skip.names.includes(name) || skip.suffixes.some((end) => name.endsWith(end))))
    return null;
  const dot = name.lastIndexOf('.');
  return dot <= 0 ? '' : name.slice(dot);
}

let fileNameCollator: Intl.Collator | undefined;

/**
 * Orders the candidates from `first` on (one folder's files) by file name ignoring case, collated
 * (Roo Code sorts with `localeCompare` on lower-cased names: an English collation, where `_` comes
 * before digits), then by path in code units where the names are equal (Roo keeps the listing's
 * order there, which no filesystem guarantees). Their sort keys keep the folder's place among the
 * owner's other locations and this order within it.
 */
function orderByFileName(candidates: Candidate[], first: number, folder: string): void {
  if (candidates.length - first < 1) return;
  fileNameCollator ??= new Intl.Collator('en');
  const collator = fileNameCollator;
  const named = candidates.slice(first).map((candidate) => ({
    candidate,
    name: path.basename(candidate.key).toLowerCase(),
  }));
  named.sort(
    (a, b) => collator.compare(a.name, b.name) || compareCodeUnits(a.candidate.key, b.candidate.key),
  );
  const width = String(named.length).length;
  named.forEach(({ candidate }, index) => {
    candidates[first + index] = { ...candidate, sortKey: `${folder}/${String(index).padStart(width, '0')}` };
  });
}

/** The entries of a folder; `null` when it is gone (quietly) or cannot be listed (a `warn`). */
function listFolder(walk: Walk, dir: string): ReturnType<FileSystem['readdir']> | null {
  try {
    return walk.fs.readdir(dir);
  } catch (error) {
    if (!isAbsent(error))
      walk.diagnostics.push({
        level: 'warn',
        code: 'unreadable',
        message: `${dir} cannot be listed (${errorCode(error)})`,
        path: dir,
      });
    return null;
  }
}

/**
 * What a folder entry is: a symlink is followed under the policy (and its target's identity kept for
 * the read), a file or directory is taken as listed. No call per plain file: the read that follows
 * opens it without following links and checks on the open descriptor that it is a regular file.
 * `null` when the entry is to be passed over.
 */
function resolveEntry(
  walk: Walk,
  child: string,
  listed: string,
  realPath: string,
): { kind: string; realPath: string; expect: Candidate['expect'] } | null {
  if (listed !== 'symlink') return { kind: listed, realPath, expect: null };
  const resolved = follow(walk.fs, walk.root, child, walk.symlinks, walk.diagnostics);
  return resolved === null
    ? null
    : { kind: resolved.info.kind, realPath: resolved.realPath, expect: identityOf(resolved.info) };
}

function identityOf(info: FileInfo): Candidate['expect'] {
  return { dev: info.dev, ino: info.ino };
}

/**
 * Resolves `absolute` under the symlink policy; absent is `null` quietly, a refused link or a fault is
 * a `warn`.
 */
function follow(
  fs: FileSystem,
  root: string,
  absolute: string,
  symlinks: SymlinkPolicy,
  diagnostics: Diagnostic[],
  base = root,
): { realPath: string; info: FileInfo } | null {
  const resolved = realInside(fs, root, absolute, symlinks, base);
  if (resolved.ok) return resolved;
  if (resolved.code === 'missing') return null;
  diagnostics.push({ level: 'warn', code: resolved.code, message: resolved.message, path: absolute });
  return null;
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
