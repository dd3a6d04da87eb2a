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
  const cleaned = typeof description === 'string' ? clean(description) : '';
  if (cleaned !== '') return cut(cleaned);
  for (const line of body.split('\n')) {
    const heading = headingText(line);
    const text = heading === null ? '' : clean(heading);
    if (text !== '') return cut(text);
  }
  return '';
}

const HEADING_START = /^ {0,3}#{1,6}[ \t]+/;

/**
 * The text of an ATX heading line without its closing `#`s and blanks, or `null`. The end is
 * trimmed by a loop, not by a pattern such as `(.+?)[ \t#]*$`, which backtracks quadratically on
 * a long run of blanks (test/adversarial.test.ts).
 */
function headingText(line: string): string | null {
  const start = HEADING_START.exec(line);
  if (start === null) return null;
  const from = start[0].length;
  let end = line.endsWith('\r') ? line.length - 1 : line.length;
  while (end > from + 1 && ' \t#'.includes(line[end - 1] as string)) end -= 1;
  return end > from ? line.slice(from, end) : null;
}

// Text that needs no cleaning but a trim: no control character, no blank other than single spaces.
const CLEAN = /^[^\s\u0000-\u001f\u007f]*(?: [^\s\u0000-\u001f\u007f]+)*[ ]?$/;

function clean(text: string): string {
  if (CLEAN.test(text)) return text.trim();
  return text
    .replace(/[\u0000-\u001f\u007f]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

function cut(text: string): string {
  // A text no longer than the limit in code units is no longer in code points.
  if (text.length <= LABEL_MAX_CHARS) return text;
  const chars = [...text];
  return chars.length <= LABEL_MAX_CHARS
    ? text
    : `${chars
        .slice(0, LABEL_MAX_CHARS - 1)
        .join('')
        .trimEnd()}…`;
}
