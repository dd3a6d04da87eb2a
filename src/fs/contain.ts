import path from 'node:path';

/** Why an entry was refused before any filesystem access. */
export type LexicalRefusal =
  | 'empty'
  | 'nul'
  | 'absolute'
  | 'drive'
  | 'unc'
  | 'backslash'
  | 'colon'
  | 'device-name'
  | 'climbs-out';

const WINDOWS_DEVICE = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])(\..*)?$/i;

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
    if (WINDOWS_DEVICE.test(segment.replace(/[. ]+$/, ''))) return 'device-name';
    depth += 1;
  }
  return null;
}

/**
 * True when `candidate` equals `root` or lies below it, compared segment by segment on
 * normalized absolute paths: `/w-evil` is not inside `/w`.
 */
export function isInside(root: string, candidate: string): boolean {
  const relative = path.relative(root, candidate);
  if (relative === '') return true;
  if (path.isAbsolute(relative)) return false;
  return relative !== '..' && !relative.startsWith('..' + path.sep);
}

/** Human wording of a {@link LexicalRefusal}. */
export function describeRefusal(refusal: LexicalRefusal): string {
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
      return 'the entry climbs out of the work dir';
  }
}
