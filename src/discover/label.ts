import { parseFrontmatter } from './frontmatter.js';

/** Characters a label keeps before it is cut with an ellipsis. */
export const LABEL_MAX_CHARS = 120;

/**
 * A short label for a context file: its frontmatter `description`, else its first markdown
 * heading, else the empty string. Whitespace runs become one space; control characters are
 * dropped; a label longer than {@link LABEL_MAX_CHARS} characters (code points) is cut and ends
 * with `…`.
 */
export function labelOf(text: string): string {
  const { data, body } = parseFrontmatter(text);
  const description = data['description'];
  if (typeof description === 'string' && clean(description) !== '') return cut(clean(description));
  for (const line of body.split('\n')) {
    const heading = /^ {0,3}#{1,6}[ \t]+(.+?)[ \t#]*$/.exec(line.replace(/\r$/, ''));
    if (heading !== null && clean(heading[1] as string) !== '') return cut(clean(heading[1] as string));
  }
  return '';
}

function clean(text: string): string {
  return text
    .replace(/[\u0000-\u001f\u007f]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

function cut(text: string): string {
  const chars = [...text];
  return chars.length <= LABEL_MAX_CHARS
    ? text
    : `${chars
        .slice(0, LABEL_MAX_CHARS - 1)
        .join('')
        .trimEnd()}…`;
}
