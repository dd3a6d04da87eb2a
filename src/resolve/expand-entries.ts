import path from 'node:path';
import type { Diagnostic } from '../errors.js';
import {
  hasControlCharacter,
  realInside,
  resolveInside,
  type Contained,
  type NotContained,
  type SymlinkPolicy,
} from '../fs/contain.js';
import { errorCode, isAbsent, type DirEntry, type FileInfo, type FileSystem } from '../fs/file-system.js';
import type { LayerName } from './precedence.js';

/** Files one directory entry may inline before the rest is dropped with a warning. */
export const MAX_DIRECTORY_FILES = 1_000;
/** Directories one directory entry may visit. */
export const MAX_DIRECTORY_DIRS = 10_000;

/** Where a context file came from. */
export type SourceKind = 'user' | 'chain' | 'rule' | 'layer' | 'glob' | 'extra' | 'nested';

/** The layer of a context file: a contextPaths layer, or the source for the other kinds. */
export type FileLayer = LayerName | 'user' | 'chain' | 'rules' | 'extra' | 'nested';

/** Where a context file comes from: shared by candidates and the files read from them. */
export interface Provenance {
  /** Absolute path as spelled from the work dir (shown in `# From:`). */
  readonly path: string;
  /** Canonical path after every symlink. */
  readonly realPath: string;
  readonly source: SourceKind;
  readonly layer: FileLayer;
  /** The config entry (or chain candidate name) that brought it in. */
  readonly entry: string;
  /**
   * Directory depth: for chain files, directories below the chain's start; for layer files,
   * directories below the work dir; `null` for user and extra files.
   */
  readonly depth: number | null;
  /** For a file brought in by an `@path` import: the path of the file that imported it. */
  readonly importedBy?: string;
}

/** A file a source names, before it is read. */
export interface Candidate extends Provenance {
  /** Device and inode: the file's identity across spellings, links and case. */
  readonly identity: string;
  readonly info: FileInfo;
}

/** What {@link expandEntry} needs. */
export interface ExpandContext {
  readonly fs: FileSystem;
  /** Canonical work dir. */
  readonly workDir: string;
  readonly diagnostics: Diagnostic[];
  /** `instructions.symlinks`; default `inside`. */
  readonly symlinks?: SymlinkPolicy;
}

/**
 * Turns one token-expanded entry into the files it names, checking containment twice: lexically
 * before any filesystem access, then on the real path so that no symlink leads out of the work
 * dir. A trailing `/` inlines every regular file below the directory. Missing files are skipped
 * with a `debug` diagnostic; every other fault is a `warn` diagnostic. Never throws.
 */
export function expandEntry(
  context: ExpandContext,
  layer: LayerName,
  entry: string,
  expanded: string,
): Candidate[] {
  const { workDir } = context;
  const report = entryReporter(context.diagnostics, layer, entry);
  const located = resolveInside(
    context.fs,
    workDir,
    expanded,
    { label: JSON.stringify(entry) },
    context.symlinks,
  );
  if (!located.ok) {
    report(located.code === 'missing' ? 'debug' : 'warn', located.code, located.message, located.path);
    return [];
  }
  const joined = located.path;
  const wantsDirectory = expanded.endsWith('/');
  if (located.info.kind === 'directory') {
    if (!wantsDirectory) {
      report(
        'debug',
        'is-directory',
        `${joined} is a directory; add a trailing "/" to inline the files below it`,
        joined,
      );
      return [];
    }
    return walkDirectory(context, layer, entry, joined, located, report);
  }
  if (wantsDirectory) {
    report('debug', 'not-a-directory', `${joined} is not a directory`, joined);
    return [];
  }
  if (located.info.kind !== 'file') {
    report('warn', 'not-regular', `${joined} is a ${located.info.kind}, not a regular file`, joined);
    return [];
  }
  return [candidateOf(joined, located.realPath, layer, entry, workDir, located.info)];
}

type Report = (level: Diagnostic['level'], code: Diagnostic['code'], message: string, at?: string) => void;

/**
 * How the diagnostics of one entry are reported, in its layer and with the entry as written. A config
 * may name any variable (`${env.TOKEN}`): a diagnostic about such an entry shows the entry as
 * written, never the expanded path, so no environment value reaches stderr, `--json`, `explain` or
 * a session's output (docs/security.md, "decisions").
 */
function entryReporter(diagnostics: Diagnostic[], layer: LayerName, entry: string): Report {
  const fromEnv = entry.includes('${env.');
  return (level, code, message, at) =>
    diagnostics.push(
      fromEnv
        ? {
            level,
            code,
            message: `${JSON.stringify(entry)} (expanded from the environment): ${code}`,
            layer,
            entry,
          }
        : { level, code, message, layer, entry, ...(at === undefined ? {} : { path: at }) },
    );
}

function walkDirectory(
  context: ExpandContext,
  layer: LayerName,
  entry: string,
  start: string,
  startInfo: Contained,
  report: Report,
): Candidate[] {
  const found: Candidate[] = [];
  // Directories are identified by device and inode, so no symlink loop is walked twice.
  const visited = new Set<string>([identityOf(startInfo.info)]);
  // Each pending directory keeps its real path: children that are not symlinks need no realpath.
  const pending: Array<{ dir: string; real: string }> = [{ dir: start, real: startInfo.realPath }];
  let dirs = 0;
  while (pending.length > 0) {
    const { dir, real } = pending.pop() as { dir: string; real: string };
    dirs += 1;
    if (dirs > MAX_DIRECTORY_DIRS) {
      report(
        'warn',
        'directory-truncated',
        `${start} has more than ${MAX_DIRECTORY_DIRS} directories; the rest is skipped`,
        start,
      );
      break;
    }
    const entries = listDirectory(context, dir, real, report);
    if (entries === null) continue;
    for (const child of entries) {
      const located = locateChild(context, dir, real, child, report);
      if (located === null) continue;
      const full = located.path;
      if (located.info.kind === 'directory') {
        const identity = identityOf(located.info);
        if (!visited.has(identity)) {
          visited.add(identity);
          pending.push({ dir: full, real: located.realPath });
        }
        continue;
      }
      if (located.info.kind !== 'file') continue;
      if (found.length >= MAX_DIRECTORY_FILES) {
        report(
          'warn',
          'directory-truncated',
          `${start} holds more than ${MAX_DIRECTORY_FILES} files; the rest is skipped`,
          start,
        );
        return found;
      }
      found.push(candidateOf(full, located.realPath, layer, entry, context.workDir, located.info));
    }
  }
  return found;
}

/** The names in one directory of a walk; `null` when it is gone or cannot be listed (reported). */
function listDirectory(
  context: ExpandContext,
  dir: string,
  real: string,
  report: Report,
): readonly DirEntry[] | null {
  try {
    return context.fs.readdir(real);
  } catch (error) {
    if (!isAbsent(error)) report('warn', 'unreadable', `${dir} cannot be listed (${errorCode(error)})`, dir);
    return null;
  }
}

/**
 * One directory entry of a directory walk, located and contained: a symlink is resolved and must
 * stay inside the work dir, a file or directory is stat'ed where its parent's real path says.
 * `null` (reported) for an unsafe name or a fault; `null` silently for FIFOs, sockets, devices.
 */
function locateChild(
  context: ExpandContext,
  dir: string,
  real: string,
  child: DirEntry,
  report: Report,
): Contained | null {
  if (hasControlCharacter(child.name)) {
    report(
      'warn',
      'unsafe-name',
      `${JSON.stringify(path.join(dir, child.name))} holds control characters and is skipped`,
      dir,
    );
    return null;
  }
  const full = path.join(dir, child.name);
  let located: Contained | NotContained;
  if (child.kind === 'symlink') located = realInside(context.fs, context.workDir, full, context.symlinks);
  else if (child.kind === 'file' || child.kind === 'directory')
    located = statChild(context.fs, full, path.join(real, child.name));
  else return null;
  if (!located.ok) {
    report(located.code === 'missing' ? 'debug' : 'warn', located.code, located.message, full);
    return null;
  }
  return located;
}

/** A child that is not a symlink lies where its (already contained) parent's real path says. */
function statChild(fs: FileSystem, full: string, realPath: string): Contained | NotContained {
  try {
    return { ok: true, path: full, realPath, info: fs.lstat(realPath) };
  } catch (error) {
    if (isAbsent(error)) return { ok: false, code: 'missing', message: `${full} does not exist`, path: full };
    return {
      ok: false,
      code: 'unreadable',
      message: `${full} cannot be read (${errorCode(error)})`,
      path: full,
    };
  }
}

function candidateOf(
  file: string,
  realPath: string,
  layer: LayerName,
  entry: string,
  workDir: string,
  info: FileInfo,
): Candidate {
  const depth = path
    .relative(workDir, path.dirname(file))
    .split(path.sep)
    .filter((part) => part !== '').length;
  return { path: file, realPath, source: 'layer', layer, entry, depth, identity: identityOf(info), info };
}

/** Device and inode as one string. */
export function identityOf(info: FileInfo): string {
  return `${info.dev}:${info.ino}`;
}
