import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  checkCandidate,
  describeCandidateRefusal,
  isBlankText,
  selectCandidates,
} from '../src/discover/chain-candidates.js';

describe('checkCandidate', () => {
  test.each([
    // candidate, refusal (null = accepted)
    ['AGENTS.md', null],
    ['CLAUDE.local.md', null],
    ['.claude/CLAUDE.md', null], // a relative sub-path
    ['.github/copilot-instructions.md', null],
    ['a/b/c.md', null],
    ['..md', null], // a name that starts with dots is a name
    ['', 'empty'],
    ['../AGENTS.md', 'dot-segment'],
    ['a/../AGENTS.md', 'dot-segment'],
    ['./AGENTS.md', 'dot-segment'],
    ['.', 'dot-segment'],
    ['..', 'dot-segment'],
    ['a//b.md', 'empty-segment'],
    ['.claude/', 'trailing-slash'],
    ['/etc/AGENTS.md', 'absolute'],
    ['//server/share.md', 'absolute'],
    ['C:AGENTS.md', 'absolute'],
    ['a\\b.md', 'backslash'],
    ['ab:c.md', 'colon'],
    ['nul.md', 'device-name'],
    ['a\u0000b', 'control-character'],
    ['a\nb.md', 'control-character'],
  ])('%j → %s', (candidate, refusal) => {
    expect(checkCandidate(candidate)).toBe(refusal);
  });

  test.each([
    ['dot-segment', 'a candidate cannot hold "." or ".." segments'],
    ['absolute', 'absolute paths are not allowed'],
    ['trailing-slash', 'a candidate names a file, not a directory (no trailing "/")'],
  ] as const)('%s is worded', (refusal, wording) => {
    expect(describeCandidateRefusal(refusal)).toBe(wording);
  });

  test('property: an accepted candidate joined to a directory stays below it', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom('a', '.', '..', '', '.x', 'b.md', '\\', ':'), { maxLength: 5 }),
        (parts) => {
          const candidate = parts.join('/');
          if (checkCandidate(candidate) !== null) return;
          const joined = new URL(candidate, 'file:///d/').pathname;
          expect(joined.startsWith('/d/') && joined.length > 3).toBe(true);
        },
      ),
    );
  });
});

test.each([
  ['first', ['A', 'B', 'C'], ['A'], ['B', 'C']],
  ['all', ['A', 'B', 'C'], ['A', 'B', 'C'], []],
  ['first', [], [], []],
  ['all', [], [], []],
] as const)('selectCandidates %s of %j', (select, existing, chosen, shadowed) => {
  expect(selectCandidates(existing, select)).toEqual({ chosen, shadowed });
});

test.each([
  ['', true],
  [' \n\t\r\n', true],
  ['\uFEFF\n', true],
  ['\u00A0\u2003', true],
  ['x', false],
  ['  .\n', false],
  ['\u200B', false], // a zero-width space is not whitespace (the hidden-Unicode scan reports it)
])('isBlankText(%j) → %s', (text, blank) => {
  expect(isBlankText(text)).toBe(blank);
});
