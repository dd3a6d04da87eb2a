import path from 'node:path';
import type { DiagnosticCode } from '../diagnostics.js';
import type { Diagnostic } from '../errors.js';
import { hasControlCharacter, realInside, type SymlinkPolicy } from '../fs/contain.js';
import { errorCode, isAbsent, type FileInfo, type FileSystem } from '../fs/file-system.js';
import { compareCodeUnits } from '../discover/compare-code-units.js';
import { joinName } from '../shared/join-name.js';
import type { RuleAdapter, RuleLocation } from './rule-adapter.js';

// The rule files of one location below one owner, for src/rules/discover-rules.ts: a one-file location,
// a rules folder walked to its depth or a family of agent folders, each file a candidate with the
// identity its read must still see; links follow the policy and stay inside the root.

/** A rule file found, before it is read. */
export interface Candidate {
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

/**
 * The candidate of a one-file location its owner's listing holds as a plain file: no call before
 * the read, which opens it without following links and checks it is a regular file (as for a file
 * of a rules folder).
 */
export function listedFile(
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
export function collect(
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

/**
 * Orders the candidates from `first` on (one folder's files) by file name ignoring case, collated
 * (Roo Code sorts with `localeCompare` on lower-cased names: an English collation, where `_` comes
 * before digits), then by path in code units where the names are equal (Roo keeps the listing's
 * order there, which no filesystem guarantees). Their sort keys keep the folder's place among the
 * owner's other locations and this order within it.
 */
let fileNameCollator: Intl.Collator | undefined;

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
