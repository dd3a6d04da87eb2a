import path from 'node:path';
import { errorCode, isAbsent, type FileInfo, type FileSystem } from './file-system.js';

/** Why an entry was refused before any filesystem access. */
export type LexicalRefusal =
  'empty' | 'nul' | 'absolute' | 'drive' | 'unc' | 'backslash' | 'colon' | 'device-name' | 'climbs-out';

// Windows opens a device for these stems whatever follows the first dot, and ignores blanks and
// dots before it: `aux.md`, `aux .md`, `CONIN$`, `com1  .. .txt`. (Microsoft, "Naming Files,
// Paths, and Namespaces", learn.microsoft.com/windows/win32/fileio/naming-a-file.)
const WINDOWS_DEVICE =
  /^(?:con|prn|aux|nul|conin\$|conout\$|com[0-9\u00b9\u00b2\u00b3]|lpt[0-9\u00b9\u00b2\u00b3])$/i;

/** True when `segment` names a reserved Windows device (see {@link WINDOWS_DEVICE}). Linear time. */
export function isWindowsDeviceName(segment: string): boolean {
  const dot = segment.indexOf('.');
  let end = dot === -1 ? segment.length : dot;
  while (end > 0 && segment[end - 1] === ' ') end -= 1;
  return WINDOWS_DEVICE.test(segment.slice(0, end));
}

/**
 * The lexical half of containment, the same on every OS: refuses an entry that is empty, holds
 * NUL, is absolute (POSIX, drive-letter or UNC form), uses backslashes or `:`, names a reserved
 * device, or climbs out of its root once `.` and `..` are folded. Percent-encoding is never
 * decoded: `%2e%2e` is a literal name. Returns `null` when the entry is acceptable.
 */
export function checkRelativeEntry(entry: string): LexicalRefusal | null {
  if (entry === '') return 'empty';
  if (entry.includes('\0')) return 'nul';
  if (entry.startsWith('\\\\') || entry.startsWith('//')) return 'unc';
  if (/^[A-Za-z]:/.test(entry)) return 'drive';
  if (entry.startsWith('/')) return 'absolute';
  if (entry.includes('\\')) return 'backslash';
  if (entry.includes(':')) return 'colon';
  let depth = 0;
  for (const segment of entry.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      depth -= 1;
      if (depth < 0) return 'climbs-out';
      continue;
    }
    if (isWindowsDeviceName(segment)) return 'device-name';
    depth += 1;
  }
  return null;
}

/**
 * True when `candidate` equals `root` or lies below it, compared segment by segment: `/w-evil` is
 * not inside `/w`. Both must be normalized absolute paths (as `path.resolve`, `path.join` and
 * `realpath` return them); every caller passes such paths. A plain prefix test on the root plus a
 * separator: this runs on every tool call.
 */
export function isInside(root: string, candidate: string): boolean {
  if (candidate === root) return true;
  return candidate.startsWith(root.endsWith(path.sep) ? root : root + path.sep);
}

const CONTROL_CHARACTER = /[\u0000-\u001f\u007f]/;

/** True when a file name holds a C0 control character or DEL: such a name could forge a line of output. */
export function hasControlCharacter(name: string): boolean {
  return CONTROL_CHARACTER.test(name);
}

/** Human wording of a {@link LexicalRefusal}. */
export function describeRefusal(refusal: LexicalRefusal, rootName = 'the work dir'): string {
  switch (refusal) {
    case 'empty':
      return 'the entry is empty';
    case 'nul':
      return 'the entry contains a NUL byte';
    case 'absolute':
      return 'absolute paths are not allowed';
    case 'drive':
      return 'drive-letter paths are not allowed';
    case 'unc':
      return 'UNC paths are not allowed';
    case 'backslash':
      return 'backslashes are not allowed';
    case 'colon':
      return "':' is not allowed";
    case 'device-name':
      return 'reserved device names are not allowed';
    case 'climbs-out':
      return `the entry climbs out of ${rootName}`;
  }
}

/** A path that passed both halves of containment, with its target's metadata. */
export interface Contained {
  readonly ok: true;
  /** Absolute path as spelled (root joined with the entry). */
  readonly path: string;
  /** Canonical path after every symlink: inside the root. */
  readonly realPath: string;
  /** Metadata of the target (symlinks followed). */
  readonly info: FileInfo;
}

/** Why a path was refused or could not be used. */
export interface NotContained {
  readonly ok: false;
  readonly code:
    | 'outside-workdir'
    | 'invalid-entry'
    | 'symlink-outside-workdir'
    | 'symlink-rejected'
    | 'missing'
    | 'unreadable';
  readonly message: string;
  /** The joined path, when the lexical check passed. */
  readonly path?: string;
}

/**
 * `instructions.symlinks` (docs/chains.md, "Symlinks"): `inside` follows a link whose real target
 * stays inside the root, `reject` refuses any link on the way, `follow` follows every link.
 */
export type SymlinkPolicy = 'inside' | 'reject' | 'follow';

/**
 * The real-path half of containment: resolves every symlink of `absolute` (multi-hop chains and
 * symlinked parent directories included) and applies the symlink policy (default `inside`: a
 * target outside `root` is refused). Only then is the target stat-ed. `root` must be canonical:
 * below it, {@link realPathBelow} resolves the path. `base` (default `root`), a canonical directory
 * the caller knows to be real, is where that resolution starts when `absolute` lies below it: the
 * segments above it are not looked up again. Never throws.
 */
export function realInside(
  fs: FileSystem,
  root: string,
  absolute: string,
  symlinks: SymlinkPolicy = 'inside',
  base: string = root,
): Contained | NotContained {
  let realPath: string;
  try {
    realPath = realPathBelow(fs, base, absolute);
  } catch (error) {
    if (isAbsent(error))
      return { ok: false, code: 'missing', message: `${absolute} does not exist`, path: absolute };
    return {
      ok: false,
      code: 'unreadable',
      message: `${absolute} cannot be resolved (${errorCode(error)})`,
      path: absolute,
    };
  }
  if (symlinks === 'reject' && realPath !== absolute) {
    return {
      ok: false,
      code: 'symlink-rejected',
      message: `${absolute} is skipped: it is reached through a symlink (to ${realPath}) and instructions.symlinks is "reject"`,
      path: absolute,
    };
  }
  if (symlinks !== 'follow' && !isInside(root, realPath)) {
    return {
      ok: false,
      code: 'symlink-outside-workdir',
      message: `${absolute} is skipped: it leads to ${realPath}, outside ${root}`,
      path: absolute,
    };
  }
  try {
    return { ok: true, path: absolute, realPath, info: fs.stat(realPath) };
  } catch (error) {
    if (isAbsent(error))
      return { ok: false, code: 'missing', message: `${absolute} does not exist`, path: absolute };
    return {
      ok: false,
      code: 'unreadable',
      message: `${absolute} cannot be read (${errorCode(error)})`,
      path: absolute,
    };
  }
}

/**
 * Containment for every source that names a path relative to a root (contextPaths entries,
 * skill files): the lexical check of {@link checkRelativeEntry} before any filesystem access,
 * then {@link realInside}. `label` names the entry in messages. Never throws.
 */
export function resolveInside(
  fs: FileSystem,
  root: string,
  relative: string,
  names: { readonly label?: string; readonly rootName?: string } = {},
  symlinks: SymlinkPolicy = 'inside',
): Contained | NotContained {
  const label = names.label ?? JSON.stringify(relative);
  const refusal = checkRelativeEntry(relative);
  if (refusal !== null) {
    const outside =
      refusal === 'climbs-out' || refusal === 'absolute' || refusal === 'drive' || refusal === 'unc';
    return {
      ok: false,
      code: outside ? 'outside-workdir' : 'invalid-entry',
      message: `${label} is skipped: ${describeRefusal(refusal, names.rootName)}`,
    };
  }
  const joined = path.join(root, relative);
  if (joined === root || !isInside(root, joined)) {
    return {
      ok: false,
      code: 'outside-workdir',
      message: `${label} is skipped: it does not name a path below ${root}`,
    };
  }
  return realInside(fs, root, joined, symlinks);
}

/**
 * The real path of `absolute` given that `root` is canonical: below the root, each segment is
 * `lstat`-ed, and only a symlink among them costs a `realpath` of the whole path. A `realpath` checks
 * every component from the filesystem root, so its cost grows with the depth of the path: one per
 * entry made a work dir 2,000 directories deep take seconds (docs/security.md, "Bounds"). Outside
 * the root, a plain `realpath`. Throws what `lstat` or `realpath` throws.
 */
export function realPathBelow(fs: FileSystem, root: string, absolute: string): string {
  if (absolute === root || !isInside(root, absolute)) return fs.realpath(absolute);
  let current = root;
  for (const segment of absolute.slice(root.length).split(path.sep)) {
    if (segment === '') continue;
    current = current.endsWith(path.sep) ? current + segment : current + path.sep + segment;
    if (fs.lstat(current).kind === 'symlink') return fs.realpath(absolute);
  }
  return current;
}
