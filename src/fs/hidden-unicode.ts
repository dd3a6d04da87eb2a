/** One invisible or direction-changing character found in a text. */
export interface HiddenCharacter {
  /** `U+202E` form. */
  readonly codePoint: string;
  /** 1-based line. */
  readonly line: number;
}

// Bidi embeddings, overrides and isolates, directional marks, the Arabic letter mark,
// zero-width characters (a BOM in the middle of a text included), and the Tags block.
const HIDDEN = /[\u061C\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF]|\uDB40[\uDC00-\uDC7F]/g;

/**
 * Finds characters that change how text reads without being seen: bidirectional controls,
 * zero-width characters and the Tags block (U+E0000–U+E007F). The text is not changed.
 * At most `limit` occurrences are returned.
 */
export function findHiddenUnicode(text: string, limit = 20): HiddenCharacter[] {
  const found: HiddenCharacter[] = [];
  if (!HIDDEN.test(text)) return found;
  HIDDEN.lastIndex = 0;
  let line = 1;
  let scanned = 0;
  for (const match of text.matchAll(HIDDEN)) {
    for (let index = scanned; index < match.index; index += 1) if (text.charCodeAt(index) === 10) line += 1;
    scanned = match.index;
    found.push({
      codePoint: `U+${(match[0].codePointAt(0) as number).toString(16).toUpperCase().padStart(4, '0')}`,
      line,
    });
    if (found.length >= limit) break;
  }
  return found;
}

/** A one-line description: `U+202E (line 3), U+200B (lines 4, 9)`. */
export function describeHidden(found: readonly HiddenCharacter[]): string {
  const byCode = new Map<string, number[]>();
  for (const { codePoint, line } of found) {
    const lines = byCode.get(codePoint) ?? [];
    if (!lines.includes(line)) lines.push(line);
    byCode.set(codePoint, lines);
  }
  return [...byCode]
    .map(([code, lines]) => `${code} (line${lines.length === 1 ? '' : 's'} ${lines.join(', ')})`)
    .join(', ');
}
