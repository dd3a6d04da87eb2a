/** How instruction-file bytes become text (docs/security.md, "Reads"). */

/** The outcome of decoding a file's bytes. */
export type Decoded =
  | {
      readonly ok: true;
      readonly text: string;
      readonly encoding: 'utf-8' | 'utf-16le' | 'utf-16be';
      readonly invalid: boolean;
      /** The bytes began with a UTF-8 byte order mark, which `text` leaves out. */
      readonly bom?: true;
    }
  | { readonly ok: false; readonly reason: 'binary' };

/** Bytes sniffed for a NUL when deciding that a file is binary. */
export const BINARY_SNIFF_BYTES = 8_192;

const utf8 = new TextDecoder('utf-8', { fatal: false, ignoreBOM: true });
const utf8Strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * Decodes instruction-file bytes. A UTF-8 BOM is dropped; UTF-16 with a BOM is decoded; a NUL in
 * the first 8 KiB (of a file that is not UTF-16) marks the file binary. Invalid UTF-8 sequences
 * become U+FFFD and `invalid` is set, so the caller can warn. Line endings are left as they are.
 */
export function decodeText(bytes: Uint8Array): Decoded {
  if (bytes.length >= 2 && bytes[0] === 0xff && bytes[1] === 0xfe) {
    return {
      ok: true,
      text: new TextDecoder('utf-16le').decode(bytes.subarray(2)),
      encoding: 'utf-16le',
      invalid: false,
    };
  }
  if (bytes.length >= 2 && bytes[0] === 0xfe && bytes[1] === 0xff) {
    return {
      ok: true,
      text: new TextDecoder('utf-16be').decode(bytes.subarray(2)),
      encoding: 'utf-16be',
      invalid: false,
    };
  }
  const sniff = bytes.subarray(0, BINARY_SNIFF_BYTES);
  if (sniff.includes(0)) return { ok: false, reason: 'binary' };
  const bom = bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  const body = bom ? bytes.subarray(3) : bytes;
  const marked = bom ? { bom: true as const } : {};
  try {
    return { ok: true, text: utf8Strict.decode(body), encoding: 'utf-8', invalid: false, ...marked };
  } catch {
    return { ok: true, text: utf8.decode(body), encoding: 'utf-8', invalid: true, ...marked };
  }
}
