import { createHash } from 'node:crypto';
import { decodeText } from './decode-text.js';
import { errorCode, isAbsent, type FileSystem, type ReadOptions } from './file-system.js';
import type { Diagnostic } from '../errors.js';
import { describeHidden, findHiddenUnicode, type HiddenCharacter } from './hidden-unicode.js';

/** The largest context file inlined by a layer or tracked by a session; larger files are skipped. */
export const MAX_INLINE_BYTES = 1_048_576;

/** The outcome of {@link readInstruction}. */
export type InstructionRead =
  | {
      readonly ok: true;
      readonly text: string;
      /** SHA-256 of the raw bytes (a BOM included), hex. */
      readonly sha256: string;
      readonly bytes: number;
      readonly mtimeMs: number;
      /** Invalid UTF-8 was replaced by U+FFFD. */
      readonly invalidUtf8: boolean;
      readonly hidden: readonly HiddenCharacter[];
    }
  | {
      readonly ok: false;
      /** `vanished`: gone or replaced since it was checked; `too-large`: over `maxBytes`. */
      readonly fault: 'vanished' | 'unreadable' | 'too-large' | 'binary';
      /** The filesystem's error code, for `unreadable`. */
      readonly code?: string;
    };

/**
 * Reads an instruction file the one way every source does: a bounded read (at most `maxBytes`,
 * of the checked file when `expect` is given), decoded by the documented policy, digested over
 * the raw bytes, scanned for hidden Unicode. Never throws; each caller words its own diagnostics.
 */
export function readInstruction(fs: FileSystem, file: string, options: ReadOptions): InstructionRead {
  let result;
  try {
    result = fs.readFile(file, options);
  } catch (error) {
    const code = errorCode(error);
    if (isAbsent(error) || code === 'ESTALE') return { ok: false, fault: 'vanished' };
    return { ok: false, fault: 'unreadable', code };
  }
  if (result.truncated) return { ok: false, fault: 'too-large' };
  const decoded = decodeText(result.bytes);
  if (!decoded.ok) return { ok: false, fault: 'binary' };
  return {
    ok: true,
    text: decoded.text,
    sha256: createHash('sha256').update(result.bytes).digest('hex'),
    bytes: result.bytes.byteLength,
    mtimeMs: result.info.mtimeMs,
    invalidUtf8: decoded.invalid,
    hidden: findHiddenUnicode(decoded.text),
  };
}

/**
 * The warnings about a file that is used anyway: invalid UTF-8 (shown as U+FFFD) and hidden
 * Unicode. `shown` names the file in the messages; `where` (path, layer, entry) is copied onto
 * each diagnostic. Every source words these two the same way (docs/diagnostics.md).
 */
export function decodingWarnings(
  shown: string,
  read: { readonly invalidUtf8: boolean; readonly hidden: readonly HiddenCharacter[] },
  where: Pick<Diagnostic, 'path' | 'layer' | 'entry'>,
): Diagnostic[] {
  const warnings: Diagnostic[] = [];
  if (read.invalidUtf8)
    warnings.push({
      level: 'warn',
      code: 'invalid-utf8',
      message: `${shown} is not valid UTF-8; invalid bytes are shown as U+FFFD`,
      ...where,
    });
  if (read.hidden.length > 0)
    warnings.push({
      level: 'warn',
      code: 'hidden-unicode',
      message: `${shown} holds invisible or direction-changing characters: ${describeHidden(read.hidden)}`,
      ...where,
    });
  return warnings;
}
