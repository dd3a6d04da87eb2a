import path from 'node:path';
import { isInside } from '../fs/contain.js';
import { errorCode, isAbsent, type FileSystem } from '../fs/file-system.js';

/** The longest path argument a tool accepts, in UTF-16 code units (Linux's PATH_MAX). */
export const MAX_TOOL_PATH_LENGTH = 4096;

/** A tool's path argument once it is known to lie inside the work dir. */
export interface ToolPath {
  readonly ok: true;
  /** Canonical absolute path: the real path of its deepest existing ancestor, then the rest. */
  readonly path: string;
  /** Relative to the work dir (`.` for the work dir itself), `/`-separated, for messages. */
  readonly relative: string;
  /** True when the path exists and is a directory. */
  readonly isDirectory: boolean;
}

/** Why a tool's path argument is refused. */
export interface RefusedPath {
  readonly ok: false;
  readonly message: string;
}

/**
 * Checks a path a model passed to a tool: relative to the work dir or absolute, existing or not
 * (a file about to be created still has instructions). Refused, before anything is read: an empty
 * or over-long path, a NUL byte, a path that lies outside the work dir once `..` is folded, and a
 * path whose deepest existing ancestor is a symlink (or below one) that leads outside. Never throws.
 */
export function containToolPath(fs: FileSystem, workDir: string, raw: string): ToolPath | RefusedPath {
  if (raw.trim() === '') return { ok: false, message: 'path is empty' };
  if (raw.length > MAX_TOOL_PATH_LENGTH)
    return { ok: false, message: `path is longer than ${MAX_TOOL_PATH_LENGTH} characters` };
  if (raw.includes('\0')) return { ok: false, message: 'path holds a NUL character' };
  const shown = JSON.stringify(raw);
  const outside = `${shown} is outside the work dir ${workDir}; only paths inside it are answered`;
  const absolute = path.resolve(workDir, raw);
  const below = BELOW_BY_SEGMENTS ? belowWorkDir(fs, workDir, absolute) : null;
  if (below !== null) return below;

  // The deepest ancestor that exists decides where the path really is.
  const rest: string[] = [];
  let existing = absolute;
  let real: string | null = null;
  for (;;) {
    try {
      real = fs.realpath(existing);
      break;
    } catch (error) {
      if (!isAbsent(error))
        return { ok: false, message: `${shown} cannot be resolved (${errorCode(error)})` };
    }
    const parent = path.dirname(existing);
    if (parent === existing) break;
    rest.unshift(path.basename(existing));
    existing = parent;
  }
  if (real === null || !isInside(workDir, real)) {
    // A lexical escape and a symlink escape get the same answer; say which when it helps.
    return isInside(workDir, absolute)
      ? { ok: false, message: `${shown} leads through a symlink to ${real ?? '?'}, outside the work dir` }
      : { ok: false, message: outside };
  }
  const canonical = rest.length === 0 ? real : path.join(real, ...rest);
  let isDirectory = false;
  if (rest.length === 0) {
    try {
      isDirectory = fs.stat(canonical).kind === 'directory';
    } catch {
      isDirectory = false;
    }
  }
  const relative = path.relative(workDir, canonical).split(path.sep).join('/') || '.';
  return { ok: true, path: canonical, relative, isDirectory };
}

/**
 * Where the paths of a case-sensitive volume can be taken as spelled: on macOS and Windows a real
 * path also fixes the case of each name, which only `realpath` gives.
 */
const BELOW_BY_SEGMENTS = path.sep === '/' && process.platform !== 'darwin';

/**
 * The answer of {@link containToolPath} for a path that lies inside the work dir as spelled (the
 * work dir is canonical), found without `realpath`: each segment below the work dir is probed (no
 * exception when it is absent), down to the first that does not exist; a path with no symlink on
 * the way is its own real path. `null` (the caller resolves the whole path) when the path is
 * outside as spelled, when a segment is a symlink, or when a probe fails otherwise. `realpath`
 * checks every segment from the filesystem root, and throws for each missing one: half of a warm
 * `instructions_for_path` call (docs/performance.md, "Agent paths").
 */
function belowWorkDir(fs: FileSystem, workDir: string, absolute: string): ToolPath | null {
  if (absolute === workDir || !isInside(workDir, absolute)) return null;
  const start = workDir.endsWith(path.sep) ? workDir.length : workDir.length + 1;
  let isDirectory = true;
  let end = start - 1;
  while (end < absolute.length) {
    const next = absolute.indexOf(path.sep, end + 1);
    end = next === -1 ? absolute.length : next;
    let info;
    try {
      info = fs.probe(absolute.slice(0, end));
    } catch {
      return null;
    }
    if (info === null) {
      isDirectory = false;
      break;
    }
    if (info.kind === 'symlink') return null;
    isDirectory = info.kind === 'directory';
  }
  const relative = absolute.slice(start).split(path.sep).join('/');
  return { ok: true, path: absolute, relative, isDirectory };
}
