import { createHash } from 'node:crypto';
import type { Diagnostic } from '../errors.js';
import { decodeText } from '../fs/decode-text.js';
import { describeHidden, findHiddenUnicode } from '../fs/hidden-unicode.js';
import { errorCode, isAbsent, type FileSystem } from '../fs/file-system.js';
import type { Candidate, Provenance } from './expand-entries.js';

/** The largest context file inlined by a layer; larger files are skipped with a warning. */
export const MAX_INLINE_BYTES = 1_048_576;

/** A context file with its content and provenance. */
export interface ContextFile extends Provenance {
  /** Modification time when read, for change tracking. */
  readonly mtimeMs: number;
  /** Size in bytes on disk. */
  readonly bytes: number;
  /** SHA-256 of the raw bytes, hex. */
  readonly sha256: string;
  /** The decoded text. */
  readonly text: string;
}

/**
 * Reads one candidate: a bounded read of the very file that was checked (same device and inode),
 * decoded by the documented policy. Returns `null` with a diagnostic on any fault.
 */
export function readContextFile(fs: FileSystem, candidate: Candidate, diagnostics: Diagnostic[], maxBytes = MAX_INLINE_BYTES): ContextFile | null {
  const where = { layer: candidate.layer, entry: candidate.entry, path: candidate.path };
  let result;
  try {
    result = fs.readFile(candidate.realPath, { maxBytes, expect: { dev: candidate.info.dev, ino: candidate.info.ino } });
  } catch (error) {
    const code = errorCode(error);
    if (isAbsent(error) || code === 'ESTALE') {
      diagnostics.push({ level: 'warn', code: 'vanished', message: `${candidate.path} changed or disappeared while it was being read`, ...where });
    } else {
      diagnostics.push({ level: 'warn', code: 'unreadable', message: `${candidate.path} cannot be read (${code})`, ...where });
    }
    return null;
  }
  if (result.truncated) {
    diagnostics.push({ level: 'warn', code: 'too-large', message: `${candidate.path} is larger than ${maxBytes} bytes and is skipped`, ...where });
    return null;
  }
  const decoded = decodeText(result.bytes);
  if (!decoded.ok) {
    diagnostics.push({ level: 'warn', code: 'binary', message: `${candidate.path} looks binary (it holds a NUL byte) and is skipped`, ...where });
    return null;
  }
  if (decoded.invalid) {
    diagnostics.push({ level: 'warn', code: 'invalid-utf8', message: `${candidate.path} is not valid UTF-8; invalid bytes are shown as U+FFFD`, ...where });
  }
  const hidden = findHiddenUnicode(decoded.text);
  if (hidden.length > 0) {
    diagnostics.push({ level: 'warn', code: 'hidden-unicode', message: `${candidate.path} holds invisible or direction-changing characters: ${describeHidden(hidden)}`, ...where });
  }
  return Object.freeze({
    path: candidate.path,
    realPath: candidate.realPath,
    source: candidate.source,
    layer: candidate.layer,
    entry: candidate.entry,
    depth: candidate.depth,
    mtimeMs: result.info.mtimeMs,
    bytes: result.bytes.byteLength,
    sha256: createHash('sha256').update(result.bytes).digest('hex'),
    text: decoded.text,
  });
}
