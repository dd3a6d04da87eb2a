/** The line starts of the last text {@link positionOf} looked in: checks ask about one file at a time. */
let lineStarts: { text: string; starts: number[] } | null = null;

/** The 1-based line and column of a UTF-16 offset (a binary search over the text's line starts). */
export function positionOf(text: string, offset: number): { line: number; column: number } {
  if (lineStarts?.text !== text) {
    const starts = [0];
    for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) starts.push(at + 1);
    lineStarts = { text, starts };
  }
  const { starts } = lineStarts;
  let low = 0;
  let high = starts.length - 1;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if ((starts[middle] as number) <= offset) low = middle;
    else high = middle - 1;
  }
  return { line: low + 1, column: offset - (starts[low] as number) + 1 };
}
