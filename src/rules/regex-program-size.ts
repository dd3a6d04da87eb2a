/**
 * An upper bound of the size of the program RE2 compiles a pattern to (its instructions), read from
 * the pattern's text in one pass, without compiling it: a literal character, a class, `.` or an
 * assertion is one; a group adds two (a capture's), `*` two, `+` and `?` one; `x{n,m}` is `m`
 * copies of `x` plus `m - n`, `x{n,}` is `n` copies plus one, so nested counts multiply; `a|b` adds
 * one per alternative. These are the sizes RE2's parser checks (`calcSize` in google/re2js,
 * src/Parser.js), so a pattern whose bound is small compiles to a small program, and one whose
 * bound is large is refused before any time or memory is spent on it (docs/rules.md, "Bounds").
 * A pattern RE2 would reject still gets a number: the compile refuses it afterwards.
 */
export function regexProgramSize(pattern: string): number {
  // One frame per open group: the alternatives closed so far, the sequence being read, and the
  // size of its last item (what a quantifier applies to).
  const frames: Array<{ alternatives: number; sequence: number; last: number }> = [
    { alternatives: 0, sequence: 0, last: 0 },
  ];
  let frame = frames[0] as { alternatives: number; sequence: number; last: number };
  const item = (size: number) => {
    frame.sequence += size;
    frame.last = size;
  };
  for (let index = 0; index < pattern.length; index += 1) {
    const char = pattern[index] as string;
    if (char === '\\') {
      index = escapeEnd(pattern, index);
      item(1);
    } else if (char === '[') {
      index = classEnd(pattern, index);
      item(1);
    } else if (char === '(') {
      if (pattern[index + 1] === '?' && /^\(\?[a-zA-Z-]*\)/.test(pattern.slice(index, index + 12))) {
        index = pattern.indexOf(')', index); // Flags alone, `(?i)`: no group.
        continue;
      }
      frame = { alternatives: 0, sequence: 0, last: 0 };
      frames.push(frame);
    } else if (char === ')' && frames.length > 1) {
      const closed = frames.pop() as { alternatives: number; sequence: number };
      frame = frames[frames.length - 1] as { alternatives: number; sequence: number; last: number };
      item(closed.alternatives + closed.sequence + 2);
    } else if (char === '|') {
      frame.alternatives += frame.sequence + 1;
      frame.sequence = 0;
      frame.last = 0;
    } else if (char === '*' || char === '+' || char === '?') {
      const added = char === '*' ? 2 : 1;
      frame.sequence += added;
      frame.last += added;
      if (pattern[index + 1] === '?') index += 1; // lazy
    } else if (char === '{' && COUNT.test(pattern.slice(index, index + 24))) {
      const count = COUNT.exec(pattern.slice(index, index + 24)) as RegExpExecArray;
      const repeated = repeatedSize(count, frame.last);
      frame.sequence += repeated - frame.last;
      frame.last = repeated;
      index += count[0].length - 1;
      if (pattern[index + 1] === '?') index += 1;
    } else item(1);
  }
  let size = 0;
  for (const open of frames) size += open.alternatives + open.sequence + 2;
  // The unanchored prefix loop and the match instruction.
  return size + 3;
}

/** `{n}`, `{n,}`, `{n,m}` at the start of a string (RE2 reads nothing else in braces as a count). */
const COUNT = /^\{(\d{1,9})(?:(,)(\d{0,9}))?\}/;

/**
 * The size of an item of size `last` under a count ({@link COUNT}'s match): `x{n}` is `n` copies of
 * `x`, `x{n,}` `n` copies plus one, `x{n,m}` `m` copies plus `m - n`.
 */
function repeatedSize([, low, comma, high]: RegExpExecArray, last: number): number {
  const min = Number(low);
  if (comma === undefined) return min * last;
  return high === '' ? min * last + 1 : Number(high) * last + Number(high) - min;
}

/** The index of the last character of the escape starting at `start` (`\p{Greek}`, `\x{1F600}`, `\d`). */
function escapeEnd(pattern: string, start: number): number {
  const kind = pattern[start + 1];
  if ((kind === 'p' || kind === 'P' || kind === 'x') && pattern[start + 2] === '{') {
    const close = pattern.indexOf('}', start + 3);
    return close === -1 ? pattern.length - 1 : close;
  }
  if (kind === 'p' || kind === 'P') return start + 2;
  if (kind === 'x') return start + 3;
  return start + 1;
}

/** The index of the `]` that closes the class opening at `start` (or the last index if none does). */
function classEnd(pattern: string, start: number): number {
  let index = start + 1;
  if (pattern[index] === '^') index += 1;
  if (pattern[index] === ']') index += 1; // A `]` first is a member.
  while (index < pattern.length) {
    const char = pattern[index];
    if (char === '\\') index = escapeEnd(pattern, index) + 1;
    else if (char === '[' && pattern[index + 1] === ':') {
      const close = pattern.indexOf(':]', index + 2);
      index = close === -1 ? index + 1 : close + 2;
    } else if (char === ']') return index;
    else index += 1;
  }
  return pattern.length - 1;
}
