import type { DirEntry, FileKind } from '../fs/file-system.js';

/**
 * How the walk index (src/discover/walk-index.ts) stores one directory listing: one string, a kind
 * letter before each name and `/` between them (no name holds one). A string costs `JSON.parse` far
 * less than an array of entries, and is decoded only when a walk reuses the listing.
 */

const KIND_CODES: Readonly<Record<FileKind, string>> = {
  file: 'f',
  directory: 'd',
  symlink: 'l',
  fifo: 'p',
  socket: 's',
  device: 'b',
  other: 'o',
};
const KINDS: ReadonlyMap<string, FileKind> = new Map(
  Object.entries(KIND_CODES).map(([kind, code]) => [code, kind as FileKind]),
);

/** Entries as one string: a kind letter before each name, `/` between them. */
export function encodeListing(listing: readonly DirEntry[]): string {
  return listing.map((item) => KIND_CODES[item.kind] + item.name).join('/');
}

/**
 * The entries of an encoded listing as one frozen list, or `null` when it is malformed (an unknown
 * kind letter, an empty name, `.`, `..` or a NUL). Checked when first reused, not when loaded:
 * loading stays one parse.
 */
export function decodeListing(text: string): readonly DirEntry[] | null {
  if (text === '') return Object.freeze([]);
  const items = text.split('/');
  const entries: DirEntry[] = new Array(items.length);
  for (let index = 0; index < items.length; index += 1) {
    const item = items[index] as string;
    const kind = KINDS.get(item.charAt(0));
    const name = item.slice(1);
    if (kind === undefined || name === '' || name === '.' || name === '..' || name.includes('\0'))
      return null;
    entries[index] = { name, kind };
  }
  return Object.freeze(entries);
}
