import path from 'node:path';
import type { Diagnostic } from '../errors.js';
import { checkRelativeEntry, describeRefusal, isInside } from '../fs/contain.js';
import { errorCode, isAbsent, type FileInfo, type FileSystem } from '../fs/file-system.js';
import type { LayerName } from './precedence.js';

/** Files one directory entry may inline before the rest is dropped with a warning. */
export const MAX_DIRECTORY_FILES = 1_000;
/** Directories one directory entry may visit. */
export const MAX_DIRECTORY_DIRS = 10_000;

/** Where a context file came from. */
export type SourceKind = 'user' | 'chain' | 'layer' | 'extra';

/** The layer of a context file: a contextPaths layer, or the source for the other kinds. */
export type FileLayer = LayerName | 'user' | 'chain' | 'extra';

/** A file a source names, before it is read. */
export interface Candidate {
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
}

/**
 * Turns one token-expanded entry into the files it names, checking containment twice: lexically
 * before any filesystem access, then on the real path so that no symlink leads out of the work
 * dir. A trailing `/` inlines every regular file below the directory. Missing files are skipped
 * with a `debug` diagnostic; every other fault is a `warn` diagnostic. Never throws.
 */
export function expandEntry(context: ExpandContext, layer: LayerName, entry: string, expanded: string): Candidate[] {
  const { diagnostics, workDir } = context;
  const report = (level: Diagnostic['level'], code: string, message: string, at?: string) =>
    diagnostics.push({ level, code, message, layer, entry, ...(at === undefined ? {} : { path: at }) });

  const refusal = checkRelativeEntry(expanded);
  if (refusal !== null) {
    const outside = refusal === 'climbs-out' || refusal === 'absolute' || refusal === 'drive' || refusal === 'unc';
    report('warn', outside ? 'outside-workdir' : 'invalid-entry', `${JSON.stringify(entry)} is skipped: ${describeRefusal(refusal)}`);
    return [];
  }
  const wantsDirectory = expanded.endsWith('/');
  const joined = path.join(workDir, expanded);
  if (!isInside(workDir, joined) || joined === workDir) {
    report('warn', 'outside-workdir', `${JSON.stringify(entry)} is skipped: it does not name a path below the work dir`);
    return [];
  }

  const located = locate(context, joined, report);
  if (located === null) return [];
  if (located.info.kind === 'directory') {
    if (!wantsDirectory) {
      report('debug', 'is-directory', `${joined} is a directory; add a trailing "/" to inline the files below it`, joined);
      return [];
    }
    return walkDirectory(context, layer, entry, joined, located.realPath, report);
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

type Report = (level: Diagnostic['level'], code: string, message: string, at?: string) => void;

/** Resolves symlinks, checks the real path is inside the work dir, and stats the target. */
function locate(context: ExpandContext, absolute: string, report: Report): { realPath: string; info: FileInfo } | null {
  let realPath: string;
  try {
    realPath = context.fs.realpath(absolute);
  } catch (error) {
    if (isAbsent(error)) report('debug', 'missing', `${absolute} does not exist`, absolute);
    else report('warn', 'unreadable', `${absolute} cannot be resolved (${errorCode(error)})`, absolute);
    return null;
  }
  if (!isInside(context.workDir, realPath)) {
    report('warn', 'symlink-outside-workdir', `${absolute} is skipped: it leads to ${realPath}, outside the work dir`, absolute);
    return null;
  }
  try {
    return { realPath, info: context.fs.stat(realPath) };
  } catch (error) {
    if (isAbsent(error)) report('debug', 'missing', `${absolute} does not exist`, absolute);
    else report('warn', 'unreadable', `${absolute} cannot be read (${errorCode(error)})`, absolute);
    return null;
  }
}

function walkDirectory(context: ExpandContext, layer: LayerName, entry: string, start: string, startReal: string, report: Report): Candidate[] {
  const found: Candidate[] = [];
  const visited = new Set<string>([startReal]);
  const pending: string[] = [start];
  let dirs = 0;
  while (pending.length > 0) {
    const dir = pending.pop() as string;
    dirs += 1;
    if (dirs > MAX_DIRECTORY_DIRS) {
      report('warn', 'directory-truncated', `${start} has more than ${MAX_DIRECTORY_DIRS} directories; the rest is skipped`, start);
      break;
    }
    let entries;
    try {
      entries = context.fs.readdir(dir);
    } catch (error) {
      if (!isAbsent(error)) report('warn', 'unreadable', `${dir} cannot be listed (${errorCode(error)})`, dir);
      continue;
    }
    for (const child of entries) {
      const full = path.join(dir, child.name);
      if (child.kind === 'directory') {
        pending.push(full);
        continue;
      }
      if (child.kind !== 'file' && child.kind !== 'symlink') continue;
      const located = locate(context, full, report);
      if (located === null) continue;
      if (located.info.kind === 'directory') {
        if (!visited.has(located.realPath)) {
          visited.add(located.realPath);
          pending.push(full);
        }
        continue;
      }
      if (located.info.kind !== 'file') continue;
      if (found.length >= MAX_DIRECTORY_FILES) {
        report('warn', 'directory-truncated', `${start} holds more than ${MAX_DIRECTORY_FILES} files; the rest is skipped`, start);
        return found;
      }
      found.push(candidateOf(full, located.realPath, layer, entry, context.workDir, located.info));
    }
  }
  return found;
}

function candidateOf(file: string, realPath: string, layer: LayerName, entry: string, workDir: string, info: FileInfo): Candidate {
  const depth = path.relative(workDir, path.dirname(file)).split(path.sep).filter((part) => part !== '').length;
  return { path: file, realPath, source: 'layer', layer, entry, depth, identity: identityOf(info), info };
}

/** Device and inode as one string. */
export function identityOf(info: FileInfo): string {
  return `${info.dev}:${info.ino}`;
}
