import { createRequire } from 'node:module';
import { decodeText } from './decode-text.js';
import { errorCode, isAbsent, type FileSystem, type ReadOptions } from './file-system.js';
import type { Diagnostic } from '../errors.js';
import { describeHidden, findHiddenUnicode, type HiddenCharacter } from './hidden-unicode.js';

// node:crypto loads on the first digest anyone reads, not with the first file: loading it costs a
// cold `ctxfiles resolve` more than reading its files (docs/performance.md, "Start-up").
const require = createRequire(import.meta.url);
let createHash: typeof import('node:crypto').createHash | undefined;

/**
 * The hex SHA-256 of `bytes`, computed on the first call and kept; the bytes are let go then. The
 * filesystem port hands out a fresh buffer per read (src/fs/file-system.ts), so they cannot change
 * in between.
 */
export function lazySha256(bytes: Uint8Array): () => string {
  let pending: Uint8Array | undefined = bytes;
  let digest: string | undefined;
  return () => {
    if (digest === undefined) {
      createHash ??= (require('node:crypto') as typeof import('node:crypto')).createHash;
      digest = createHash('sha256')
        .update(pending ?? new Uint8Array())
        .digest('hex');
      pending = undefined;
    }
    return digest;
  };
}

// One getter for every object with a lazy `sha256`; each object keeps its digest function under a
// symbol, not enumerable. An object literal with its own `get sha256()` makes a fresh closure, hence a
// fresh hidden class, per object: every file read then had a shape of its own, which cost a cold
// `ctxfiles resolve` over 500 rule files ~15M instructions in creating, freezing and reading them
// (docs/performance.md, "Rules").
const DIGEST = Symbol('ctxfiles.sha256');
type Digested = { readonly [DIGEST]?: () => string };
const SHA256_PROPERTY: PropertyDescriptor = {
  enumerable: true,
  configurable: false,
  get(this: Digested): string {
    const digest = this[DIGEST];
    if (digest === undefined) throw new TypeError('sha256 read from an object that does not hold one');
    return digest();
  },
};

/**
 * Gives `head` an own enumerable `sha256` that `digest` computes on its first read (pass a
 * {@link lazySha256} or a {@link digestOf}, which keep the result), then the properties of `tail`,
 * and returns it: the keys keep the order of the object written out in full (`{ ...head, sha256,
 * ...tail }`), for `Object.keys`, spreads and `JSON.stringify`. Every such object shares one getter,
 * so objects built alike keep one shape. Freeze the result, not `head`.
 */
export function defineSha256<H extends object, T extends object = Record<never, never>>(
  head: H,
  digest: () => string,
  tail?: T,
): H & { readonly sha256: string } & T {
  Object.defineProperty(head, DIGEST, { value: digest });
  Object.defineProperty(head, 'sha256', SHA256_PROPERTY);
  if (tail !== undefined) Object.assign(head, tail);
  return head as H & { readonly sha256: string } & T;
}

/** The digest function behind `source.sha256`, to share with an object built from it. */
export function digestOf(source: { readonly sha256: string }): () => string {
  return (source as Digested)[DIGEST] ?? (() => source.sha256);
}

/** The largest context file inlined by a layer or tracked by a session; larger files are skipped. */
export const MAX_INLINE_BYTES = 1_048_576;

/** The outcome of {@link readInstruction}. */
export type InstructionRead =
  | {
      readonly ok: true;
      readonly text: string;
      /** SHA-256 of the raw bytes (a BOM included), hex; computed when first read. */
      readonly sha256: string;
      readonly bytes: number;
      readonly mtimeMs: number;
      /** Invalid UTF-8 was replaced by U+FFFD. */
      readonly invalidUtf8: boolean;
      readonly hidden: readonly HiddenCharacter[];
      /** The file began with a UTF-8 byte order mark, which `text` leaves out. */
      readonly bom?: true;
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
 * the raw bytes (lazily: a getter), scanned for hidden Unicode. Never throws; each caller words its own diagnostics.
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
  return defineSha256({ ok: true as const, text: decoded.text }, lazySha256(result.bytes), {
    bytes: result.bytes.byteLength,
    mtimeMs: result.info.mtimeMs,
    invalidUtf8: decoded.invalid,
    hidden: findHiddenUnicode(decoded.text),
    ...(decoded.ok && decoded.bom === true ? { bom: true as const } : {}),
  });
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
