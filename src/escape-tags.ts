/** Reversible escaping of named tags, shared by the formats and by import frames (src/imports). */

/**
 * Neutralizes tags named in `names` (opening or closing, any case, blanks after `<` and around
 * `/`) by writing their `<` as `&lt;`, reversibly: an `&lt;` (or `&amp;…lt;`) already in front of
 * such a name gets one more `amp;`. Everything else is byte for byte. Linear time.
 */
export function escapeTags(text: string, names: readonly string[]): string {
  if (names.length === 0) return text;
  const rest = String.raw`\s*(?:\/\s*)?(?:${names.join('|')})(?![\w-])`;
  return text
    .replace(new RegExp(`&((?:amp;)*)lt;(?=${rest})`, 'gi'), '&amp;$1lt;')
    .replace(new RegExp(`<(?=${rest})`, 'gi'), '&lt;');
}
