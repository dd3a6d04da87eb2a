/**
 * Escaping shared by every tagged output. Each function is the identity on text that holds
 * nothing to escape, so ordinary files render byte for byte.
 */

// An opening or closing system-reminder tag in any case, with optional whitespace after `<` and
// around `/`: `</system-reminder>`, `< /SYSTEM-REMINDER >`, `<system-reminder attr>`.
// Every pattern here runs on file text, so each must take linear time: `\s*(?:\/\s*)?` matches
// the same strings as `\s*\/?\s*`, but a run of whitespace can be split between its two stars in
// one way only, so a `<` followed by a million spaces costs a million steps, not 10^12
// (bench/adversarial.mjs, test/adversarial.test.ts).
const TAG_REST = String.raw`\s*(?:\/\s*)?system-reminder`;
const REMINDER_TAG = new RegExp(`<(${TAG_REST})`, 'gi');

/**
 * Neutralizes every `system-reminder` tag in text that will sit inside a `<system-reminder>`
 * frame, by writing its `<` as `&lt;`. Nothing else changes.
 */
export function escapeReminder(text: string): string {
  return text.replace(REMINDER_TAG, '&lt;$1');
}

/** Escapes `&`, `<` and `>` for XML text content; quotes stay literal. */
export function escapeXmlText(text: string): string {
  return text.replace(/[&<>]/g, (char) => (char === '&' ? '&amp;' : char === '<' ? '&lt;' : '&gt;'));
}

/**
 * Escapes `&`, `<`, `>`, `"` and `'` for a double-quoted XML attribute value, and writes C0
 * controls and DEL as character references (`&#xA;`), so a value stays on one line.
 */
export function escapeXmlAttribute(text: string): string {
  return text.replace(/[&<>"'\u0000-\u001f\u007f]/g, (char) => ENTITY[char] ?? characterReference(char));
}

function characterReference(char: string): string {
  return `&#x${(char.codePointAt(0) as number).toString(16).toUpperCase()};`;
}

const ENTITY: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
};

/** Undoes {@link escapeXmlText} and {@link escapeXmlAttribute}. */
export function unescapeXml(text: string): string {
  return text.replace(/&(amp|lt|gt|quot|apos|#x[0-9A-F]{1,2});/g, (_match, name: string) =>
    name.startsWith('#x')
      ? String.fromCharCode(Number.parseInt(name.slice(2), 16))
      : ({ amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" }[name] as string),
  );
}

/** Line headers that structure `reminder` frames; file text may not start a line with one. */
export const REMINDER_HEADERS = [
  'Instructions from:',
  'Additional instructions from:',
  'Updated instructions from:',
  'Previously from:',
  'Instructions removed:',
] as const;

/**
 * The characters that some reader of our output takes as the end of a line, as the body of a
 * regular-expression class: LF, CR, VT, FF, the separators FS, GS and RS, NEL, U+2028 and U+2029
 * (Python's `str.splitlines` breaks at each; a regular expression's `^` and `$` only at LF, CR,
 * U+2028 and U+2029). A line header must not be forged after any of them.
 */
export const LINE_BREAKS = String.raw`\n\r\v\f\x1c-\x1e\x85\u2028\u2029`;
/** The start of a line (after any {@link LINE_BREAKS} character), without the `m` flag. */
const LINE_START = `(?<=^|[${LINE_BREAKS}])`;

const HEADER_LINE = new RegExp(
  `${LINE_START}(\\\\*)(${REMINDER_HEADERS.map((header) => header.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})`,
  'g',
);
const ESCAPED_REMINDER_TAG = new RegExp(`&((?:amp;)*)lt;(?=${TAG_REST})`, 'gi');

/**
 * Escapes text for a `reminder` frame so that it cannot change the frame's structure, reversibly:
 * `system-reminder` tags get `&lt;` (and an existing `&lt;` before such a tag gets `&amp;lt;`), and
 * a line that starts with a header (after any backslashes) gets one more leading backslash.
 */
export function escapeReminderText(text: string): string {
  return escapeReminder(text.replace(ESCAPED_REMINDER_TAG, '&amp;$1lt;')).replace(HEADER_LINE, '\\$1$2');
}

/** Undoes {@link escapeReminderText}. */
export function unescapeReminderText(text: string): string {
  return text
    .replace(HEADER_LINE, (_match, slashes: string, header: string) => `${slashes.slice(1)}${header}`)
    .replace(new RegExp(`&lt;(?=${TAG_REST})`, 'gi'), '<')
    .replace(new RegExp(`&amp;((?:amp;)*lt;)(?=${TAG_REST})`, 'gi'), '&$1');
}

/**
 * Keeps a path on one line in a `reminder` header and unable to end the frame, reversibly:
 * backslashes are doubled, and C0 and C1 control characters, DEL, U+2028, U+2029 and the `<` of a
 * `system-reminder` tag are written as `\uXXXX`.
 */
export function escapeHeaderPath(file: string): string {
  return file.replace(HEADER_PATH_ESCAPED, (char) =>
    char === '\\' ? '\\\\' : `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

const HEADER_PATH_ESCAPED = new RegExp(
  String.raw`[\\\u0000-\u001f\u007f-\u009f\u2028\u2029]|<(?=${TAG_REST})`,
  'gi',
);

/**
 * A path on the `# From:` line of a session injection (the `opencode` format inside a
 * `<system-reminder>` frame): control characters as `\uXXXX` and the `<` of a `system-reminder`
 * tag as `\u003c`. Backslashes stay single, so Windows paths read as in the `opencode` format.
 */
export function escapeFramePath(file: string): string {
  return escapeControl(file).replace(FRAME_PATH_TAG, '\\u003c');
}

const FRAME_PATH_TAG = new RegExp(`<(?=${TAG_REST})`, 'gi');

/** Undoes {@link escapeHeaderPath}. */
export function unescapeHeaderPath(file: string): string {
  return file.replace(/\\(\\|u[0-9a-f]{4})/g, (_match, code: string) =>
    code === '\\' ? '\\' : String.fromCharCode(Number.parseInt(code.slice(1), 16)),
  );
}

/**
 * A reversible escape for the tags of one frame name (`INSTRUCTIONS`, `system-reminder`): the `<`
 * of an opening or closing tag in any case (with optional whitespace after `<` and around `/`) is
 * written `&lt;`, and an `&lt;`, `&amp;lt;`, … already standing before such a tag gets one more
 * `amp;`, so that {@link TagEscape.unescape} restores the text exactly.
 */
export interface TagEscape {
  escape(text: string): string;
  unescape(text: string): string;
}

/** Builds the {@link TagEscape} of a tag name (a plain word, no regular-expression characters). */
export function tagEscape(name: string): TagEscape {
  // One way to match the blanks around `/` (never `\s*\/?\s*`, which backtracks quadratically).
  const ahead = `(?=\\s*(?:\\/\\s*)?${name})`;
  const tag = new RegExp(`<${ahead}`, 'gi');
  const escaped = new RegExp(`&((?:amp;)*)lt;${ahead}`, 'gi');
  const plain = new RegExp(`&lt;${ahead}`, 'gi');
  const deeper = new RegExp(`&amp;((?:amp;)*lt;)${ahead}`, 'gi');
  return {
    escape: (text) => text.replace(escaped, '&amp;$1lt;').replace(tag, '&lt;'),
    unescape: (text) => text.replace(plain, '<').replace(deeper, '&$1'),
  };
}

/**
 * A reversible escape for lines that would read as a frame's own header: such a line (after any
 * backslashes it already starts with) gets one more leading backslash. `header` is the source of a
 * regular expression matched from the start of the line, after the backslashes; a line starts after
 * any of the {@link LINE_BREAKS}, not only after LF.
 */
export function lineEscape(header: string): TagEscape {
  const line = new RegExp(`${LINE_START}(\\\\*)(?=${header})`, 'g');
  return {
    escape: (text) => text.replace(line, '\\$1'),
    unescape: (text) => text.replace(line, (slashes: string) => slashes.slice(1)),
  };
}

export { escapeTags } from '../escape-tags.js';

const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;

/**
 * Writes every C0 and C1 control character and DEL as `\uXXXX`, so that a path or a message
 * shown on a terminal or in a one-line field cannot move the cursor, set a title, start an OSC 8
 * link or add a line. For human views and one-line paths; not reversible (backslashes are kept).
 */
export function escapeControl(text: string): string {
  return text.replace(CONTROL, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
