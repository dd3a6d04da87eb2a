import type { Diagnostic } from '../errors.js';
import type { FileSystem } from '../fs/file-system.js';
import {
  decodingWarnings,
  defineSha256,
  digestOf,
  MAX_INLINE_BYTES,
  readInstruction,
} from '../fs/read-instruction.js';
import type { Candidate, Provenance } from './expand-entries.js';

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
  /**
   * With `imports.mode: inline`: the files whose text `text` holds between import markers, so
   * change tracking watches them too (docs/imports.md). Absent otherwise.
   */
  readonly inlined?: readonly InlinedImport[];
  /**
   * With an import style that escapes (`copilot`): `text` holds import frames ctxfiles wrote and
   * the file text around them is escaped already, so the format does not escape it again.
   */
  readonly escaped?: true;
  /**
   * The file began with a UTF-8 byte order mark, which `text` leaves out (`instructions.keepBom`
   * puts it back). Absent otherwise.
   */
  readonly bom?: true;
}

/** A file whose text an importer holds inline. */
export interface InlinedImport {
  readonly path: string;
  readonly sha256: string;
  readonly bytes: number;
  readonly mtimeMs: number;
}

/**
 * Reads one candidate: a bounded read of the very file that was checked (same device and inode),
 * decoded by the documented policy. Returns `null` with a diagnostic on any fault.
 */
export function readContextFile(
  fs: FileSystem,
  candidate: Candidate,
  diagnostics: Diagnostic[],
  maxBytes = MAX_INLINE_BYTES,
): ContextFile | null {
  const where = { layer: candidate.layer, entry: candidate.entry, path: candidate.path };
  const warn = (code: Diagnostic['code'], message: string) =>
    diagnostics.push({ level: 'warn', code, message, ...where });
  const read = readInstruction(fs, candidate.realPath, {
    maxBytes,
    expect: { dev: candidate.info.dev, ino: candidate.info.ino },
  });
  if (!read.ok) {
    const messages = {
      vanished: `${candidate.path} changed or disappeared while it was being read`,
      unreadable: `${candidate.path} cannot be read (${read.code ?? 'error'})`,
      'too-large': `${candidate.path} is larger than ${maxBytes} bytes and is skipped: ctxfiles does not show it, though a host with no size cap sends it to its model whole`,
      binary: `${candidate.path} looks binary (it holds a NUL byte) and is skipped`,
    };
    warn(read.fault, messages[read.fault]);
    return null;
  }
  diagnostics.push(
    ...decodingWarnings(candidate.path, read, {
      layer: candidate.layer,
      entry: candidate.entry,
      path: candidate.path,
    }),
  );
  return contextFileOf(candidate, read);
}

/**
 * The frozen context file of `candidate` with the text and metadata of `body` (a file read, or a
 * rule: its text without frontmatter); the digest stays lazy and shared with `body`.
 */
export function contextFileOf(
  candidate: Candidate,
  body: {
    readonly mtimeMs: number;
    readonly bytes: number;
    readonly sha256: string;
    readonly text: string;
    readonly bom?: true;
  },
): ContextFile {
  const file = {
    path: candidate.path,
    realPath: candidate.realPath,
    source: candidate.source,
    layer: candidate.layer,
    entry: candidate.entry,
    depth: candidate.depth,
    mtimeMs: body.mtimeMs,
    bytes: body.bytes,
  };
  const tail = body.bom === true ? { text: body.text, bom: true as const } : { text: body.text };
  return Object.freeze(defineSha256(file, digestOf(body), tail));
}
