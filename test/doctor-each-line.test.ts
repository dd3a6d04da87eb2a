import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { eachLine } from '../src/shared/each-line.js';

/** The lines `eachLine` visits, with their offsets. */
function visited(text: string, crlf: boolean): { lines: string[]; starts: number[] } {
  const lines: string[] = [];
  const starts: number[] = [];
  eachLine(text, { crlf }, (line, index, start) => {
    expect(index).toBe(lines.length);
    lines.push(line);
    starts.push(start);
  });
  return { lines, starts };
}

describe('eachLine: the lines of split, one at a time (doctor reads large files without splitting them)', () => {
  const text = fc
    .array(fc.constantFrom('a', 'é', ' ', '\n', '\r', '\r\n', '\u2028', '\ud83d\ude00', '---'), {
      maxLength: 40,
    })
    .map((parts) => parts.join(''));

  test('without crlf: the lines of split("\\n"), each at its offset', () => {
    fc.assert(
      fc.property(text, (input) => {
        const { lines, starts } = visited(input, false);
        expect(lines).toEqual(input.split('\n'));
        lines.forEach((line, index) =>
          expect(input.slice(starts[index], (starts[index] as number) + line.length)).toBe(line),
        );
      }),
    );
  });

  test('with crlf: the lines of split(/\\r?\\n/)', () => {
    fc.assert(
      fc.property(text, (input) => {
        expect(visited(input, true).lines).toEqual(input.split(/\r?\n/));
      }),
    );
  });

  test('stops at the first false', () => {
    const seen: string[] = [];
    eachLine('a\nb\nc', { crlf: false }, (line) => {
      seen.push(line);
      return line !== 'b';
    });
    expect(seen).toEqual(['a', 'b']);
  });
});
