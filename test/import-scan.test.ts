import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { findCodeRegions, scanImports } from '../src/imports/scan-imports.js';

/** The paths `scanImports` finds, in order. */
const paths = (text: string) => scanImports(text).map((reference) => reference.path);

describe('scanImports finds references', () => {
  test.each([
    // bare file name, the most common form (a CLAUDE.md that is just `@AGENTS.md`)
    ['@AGENTS.md', ['AGENTS.md']],
    ['@AGENTS.md\n', ['AGENTS.md']],
    ['See @docs/style.md for style.', ['docs/style.md']],
    ['@./a.md and @../b.md', ['./a.md', '../b.md']],
    ['@~/prefs.md', ['~/prefs.md']],
    ['@/etc/team.md', ['/etc/team.md']],
    ['- @a.md\n- @b.md', ['a.md', 'b.md']],
    ['\t@tab.md', ['tab.md']],
    // a byte-order mark before the first reference, CRLF line endings
    ['\uFEFF@AGENTS.md', ['AGENTS.md']],
    ['@a.md\r\n@b.md\r\n', ['a.md', 'b.md']],
    ['```\r\n@a.md\r\n```\r\n@b.md\r\n', ['b.md']],
    ['`x\r\n\r\n@a.md `', ['a.md']],
    // trailing punctuation is not part of the path
    ['Read @AGENTS.md.', ['AGENTS.md']],
    ['@a.md, @b.md; @c.md: @d.md! @e.md?', ['a.md', 'b.md', 'c.md', 'd.md', 'e.md']],
    ['(see @a.md)', ['a.md']],
    ['see (@a.md) or [@b.md]', []],
    ['see @a.md) or @b.md]', ['a.md', 'b.md']],
    ['"@q.md"', []],
    ['say "hi" @q.md"', ['q.md']],
    // a fragment is dropped
    ['@guide.md#setup', ['guide.md']],
    // an escaped space belongs to the path
    ['@my\\ notes.md next', ['my notes.md']],
    // dots, dashes, underscores and digits may start a path
    ['@.github/copilot.md @-x.md @_y.md @9.md', ['.github/copilot.md', '-x.md', '_y.md', '9.md']],
  ])('%j', (text, expected) => {
    expect(paths(text)).toEqual(expected);
  });
});

describe('scanImports ignores what is not a reference', () => {
  test.each([
    // e-mail addresses: `@` after a letter
    ['mail dev@example.com today'],
    ['<dev@example.com>'],
    // an escaped `@`
    ['\\@AGENTS.md'],
    ['text \\@a.md'],
    // `@` alone, or followed by what cannot start a path
    ['@ a.md'],
    ['@'],
    ['@@a.md'],
    ['@#x'],
    ['@~x'],
    ['@~/'],
    ['@/'],
    ['@//host/share'],
    ['@.'],
    ['@..'],
    ['@...'],
    ['@!'],
    // URL-like paths
    ['@https://example.com/a.md'],
    ['@mailto:x'],
    // inline code spans of any length
    ['`@a.md`'],
    ['``@a.md``'],
    ['`` `@a.md` ``'],
    ['```@a.md```'],
    ['x `y @a.md z` w'],
    // a span may continue on the next line of the same paragraph
    ['`multi\n@a.md`'],
    // fenced code blocks, backticks and tildes, with info strings, indented, unclosed
    ['```\n@a.md\n```'],
    ['```md\n@a.md\n```'],
    ['~~~\n@a.md\n~~~'],
    ['~~~ js `ok`\n@a.md\n~~~'],
    ['   ```\n@a.md\n   ```'],
    ['- item\n\n      ```\n      @a.md\n      ```'],
    ['> ```\n> @a.md\n> ```'],
    ['````\n```\n@a.md\n````'],
    ['```\n@a.md'],
    ['~~~\n```\n@a.md\n~~~~'],
  ])('%j', (text) => {
    expect(paths(text)).toEqual([]);
  });
});

describe('scanImports keeps references next to code', () => {
  test.each([
    // an unmatched backtick run is literal text
    ['` @a.md', ['a.md']],
    ['`` @a.md `', ['a.md']],
    // an escaped backtick opens no span
    ['\\` @a.md `', ['a.md']],
    // spans do not cross a blank line
    ['`open\n\n@a.md `', ['a.md']],
    // after a closed fence, text is text again
    ['```\ncode\n```\n@a.md', ['a.md']],
    // a longer closing fence closes; a shorter one does not
    ['```\nx\n`````\n@a.md', ['a.md']],
    ['````\nx\n```\n@a.md', []],
    // a fence with trailing text does not close
    ['```\nx\n``` not\n@a.md\n```\n@b.md', ['b.md']],
    // a backtick info string holding a backtick is not a fence
    ['```js`x`\n@a.md', ['a.md']],
    // tilde and backtick fences do not close each other
    ['~~~\n```\n~~~\n@a.md', ['a.md']],
    ['`code` @a.md `more`', ['a.md']],
    // a reference ends where a code span starts
    ['@a.md`code`', ['a.md']],
  ])('%j', (text, expected) => {
    expect(paths(text)).toEqual(expected);
  });
});

test('each reference carries its offset, length, spelling and kind', () => {
  const text = 'Read @AGENTS.md. Then @~/me.md, @/abs/x.md#top and @my\\ file.md';
  expect(scanImports(text)).toEqual([
    { offset: 5, length: 10, spelled: 'AGENTS.md', path: 'AGENTS.md', kind: 'relative' },
    { offset: 22, length: 8, spelled: '~/me.md', path: '~/me.md', kind: 'home' },
    { offset: 32, length: 14, spelled: '/abs/x.md', path: '/abs/x.md', kind: 'absolute' },
    { offset: 51, length: 12, spelled: 'my\\ file.md', path: 'my file.md', kind: 'relative' },
  ]);
  for (const reference of scanImports(text)) {
    expect(text.charAt(reference.offset)).toBe('@');
  }
});

test('findCodeRegions returns sorted, disjoint regions covering fences and spans', () => {
  const text = 'a `b` c\n```\nd\n```\ne ``f`` g';
  expect(findCodeRegions(text).map((region) => text.slice(region.start, region.end))).toEqual([
    '`b`',
    '```\nd\n```',
    '``f``',
  ]);
});

test('property: references are never inside a code region and always start with @ after whitespace', () => {
  const alphabet = fc.constantFrom('@', '`', '~', '\\', ' ', '\n', 'a', '.', '/', '#', '>', 'x@y');
  fc.assert(
    fc.property(fc.array(alphabet, { maxLength: 60 }), (parts) => {
      const text = parts.join('');
      const regions = findCodeRegions(text);
      for (let index = 1; index < regions.length; index += 1) {
        expect(regions[index - 1]!.end).toBeLessThanOrEqual(regions[index]!.start);
      }
      for (const reference of scanImports(text)) {
        expect(text.charAt(reference.offset)).toBe('@');
        if (reference.offset > 0) expect(text.charAt(reference.offset - 1)).toMatch(/\s/);
        for (const region of regions) {
          expect(reference.offset >= region.start && reference.offset < region.end).toBe(false);
          // The reference ends before any region that starts after it.
          if (region.start > reference.offset) {
            expect(reference.offset + reference.length).toBeLessThanOrEqual(region.start);
          }
        }
      }
    }),
  );
});
