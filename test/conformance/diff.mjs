// A minimal line diff for the lab's mismatch reports: the common head and tail are cut, the rest
// shown as `-` (ctxfiles) and `+` (the host) lines with a few lines of context, special
// characters made visible (\r, \t, a BOM, U+FFFD, a missing final newline).

/** Makes invisible characters visible in a diff line. */
export function visible(line) {
  return line
    .replaceAll('\r', '\\r')
    .replaceAll('\t', '\\t')
    .replaceAll('\ufeff', '<BOM>')
    .replaceAll('\ufffd', '<U+FFFD>');
}

const cut = (line, width) => (line.length > width ? `${line.slice(0, width)}… (${line.length} chars)` : line);

/**
 * The diff of `expected` (ctxfiles) and `actual` (the host): '' when they are equal, else at most
 * `maxLines` lines starting `@@ line N`.
 */
export function minimalDiff(expected, actual, { context = 2, maxLines = 40, width = 160 } = {}) {
  if (expected === actual) return '';
  const a = expected.split('\n');
  const b = actual.split('\n');
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head += 1;
  let tail = 0;
  while (
    tail < a.length - head &&
    tail < b.length - head &&
    a[a.length - 1 - tail] === b[b.length - 1 - tail]
  ) {
    tail += 1;
  }
  const from = Math.max(0, head - context);
  const lines = [`@@ line ${head + 1} (- ctxfiles, + host)`];
  for (let i = from; i < head; i += 1) lines.push(`  ${cut(visible(a[i]), width)}`);
  for (let i = head; i < a.length - tail; i += 1) lines.push(`- ${cut(visible(a[i]), width)}`);
  for (let i = head; i < b.length - tail; i += 1) lines.push(`+ ${cut(visible(b[i]), width)}`);
  for (let i = a.length - tail; i < Math.min(a.length, a.length - tail + context); i += 1) {
    lines.push(`  ${cut(visible(a[i]), width)}`);
  }
  if (a.length - tail - head === 1 && b.length - tail - head === 1) lines.push(charHint(a[head], b[head]));
  if (expected.endsWith('\n') !== actual.endsWith('\n')) {
    lines.push(
      `(final newline: ctxfiles ${expected.endsWith('\n') ? 'yes' : 'no'}, host ${actual.endsWith('\n') ? 'yes' : 'no'})`,
    );
  }
  if (expected === '' || actual === '') lines.push(`(empty: ${expected === '' ? 'ctxfiles' : 'host'})`);
  return lines.length > maxLines
    ? [...lines.slice(0, maxLines), `… ${lines.length - maxLines} more lines`].join('\n')
    : lines.join('\n');
}

/** Where two single differing lines part, with a little of each from there. */
function charHint(left, right) {
  let at = 0;
  while (at < left.length && at < right.length && left[at] === right[at]) at += 1;
  const from = Math.max(0, at - 10);
  const show = (text) => JSON.stringify(visible(text.slice(from, at + 30)));
  return `(the line differs from character ${at + 1}: ctxfiles ${show(left)}, host ${show(right)})`;
}
