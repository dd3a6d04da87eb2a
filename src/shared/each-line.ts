/**
 * Calls `visit` with each line of `text`, its 0-based index and the offset where it starts, until
 * `visit` returns `false`. The lines are those `text.split('\n')` gives, or with `crlf` those of
 * `text.split(/\r?\n/)`. One line at a time: a check that reads a file of a million characters
 * never holds an array of all its lines, and one that stops early never cuts up the rest
 * (docs/doctor.md, "Bounds").
 */
export function eachLine(
  text: string,
  options: Readonly<{ crlf: boolean }>,
  visit: (line: string, index: number, start: number) => boolean | void,
): void {
  let start = 0;
  for (let index = 0; ; index += 1) {
    const newline = text.indexOf('\n', start);
    let end = newline === -1 ? text.length : newline;
    // A `\r` ends the line only before a `\n`, as in split(/\r?\n/).
    if (options.crlf && newline !== -1 && end > start && text.charCodeAt(end - 1) === 13) end -= 1;
    if (visit(text.slice(start, end), index, start) === false || newline === -1) return;
    start = newline + 1;
  }
}
