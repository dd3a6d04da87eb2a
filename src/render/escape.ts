/**
 * Escaping shared by every tagged output. Each function is the identity on text that holds
 * nothing to escape, so ordinary files render byte for byte.
 */

// An opening or closing system-reminder tag in any case, with optional whitespace after `<` and
// around `/`: `</system-reminder>`, `< /SYSTEM-REMINDER >`, `<system-reminder attr>`.
const REMINDER_TAG = /<(\s*\/?\s*system-reminder)/gi;

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

/** Escapes `&`, `<`, `>`, `"` and `'` for a double-quoted XML attribute value. */
export function escapeXmlAttribute(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ENTITY[char] as string);
}

const ENTITY: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };
