import { eachLine } from '../shared/each-line.js';

/** A `key: value` line of a frontmatter block, with its list items. */
export interface FrontmatterKey {
  readonly key: string;
  /** 1-based line of the key in the file. */
  readonly line: number;
  /** 1-based column of the key. */
  readonly column: number;
  /** The value after the colon, trimmed; empty for a block list. */
  readonly value: string;
  /** The `- item` lines below the key. */
  readonly items: readonly { readonly line: number; readonly column: number; readonly value: string }[];
}

/**
 * The top-level keys of a file's frontmatter block (between a first line `---` and the next `---`),
 * read line by line as written, so doctor can point at a key and see how its value is spelled
 * (quoted, listed) where a YAML parser would hide it. No frontmatter: an empty list.
 */
export function frontmatterKeys(text: string): FrontmatterKey[] {
  const keys: {
    key: string;
    line: number;
    column: number;
    value: string;
    items: FrontmatterKey['items'][number][];
  }[] = [];
  let closed = false;
  eachLine(text.replace(/^\uFEFF/, ''), { crlf: true }, (line, index) => {
    if (index === 0) return line.trimEnd() === '---';
    if (line.trimEnd() === '---') {
      closed = true;
      return false;
    }
    const item = /^(\s*)-\s+(.*)$/.exec(line);
    if (item !== null && keys.length > 0) {
      keys[keys.length - 1]?.items.push({
        line: index + 1,
        column: (item[1] as string).length + 1,
        value: (item[2] as string).trim(),
      });
      return true;
    }
    const pair = /^([A-Za-z_][\w-]*)\s*:(.*)$/.exec(line);
    if (pair !== null)
      keys.push({
        key: pair[1] as string,
        line: index + 1,
        column: 1,
        value: (pair[2] as string).trim(),
        items: [],
      });
    return true;
  });
  // A block never closed is no frontmatter.
  return closed ? keys : [];
}

/** True when a YAML scalar is written in quotes. */
export function isQuoted(value: string): boolean {
  return /^(["']).*\1$/.test(value);
}
