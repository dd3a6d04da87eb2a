import fc from 'fast-check';
import { countTokens } from 'gpt-tokenizer';
import { describe, expect, test } from 'vitest';
import { countInPieces, loadTokenCounter, RUN_CAP } from '../src/render/count-tokens.js';

const options = { disallowedSpecial: new Set<string>() };
const exact = (text: string) => countTokens(text, options);

/** Pieces of text with long runs of one class: blanks, letters, CJK, symbols, astral letters, digits. */
const piece = fc.oneof(
  fc.constantFrom('hello', ' world', '\n', '. ', '<', 'é', '中', '𝒜', '123', "it's", '\t'),
  fc
    .tuple(fc.constantFrom(' ', '\t', ' \t', '\n', 'a', 'Ab', '中', '&', '𝒜', '1', 'é', '\r\n'), fc.nat(120))
    .map(([unit, times]) => unit.repeat(times)),
);
const text = fc.array(piece, { maxLength: 12 }).map((parts) => parts.join(''));

describe('token counting', () => {
  test.each([
    ['prose', 'The quick brown fox jumps over the lazy dog.\n\n## Rules\n- Use `npm test`.\n'.repeat(40)],
    ['code', 'function f(a, b) {\n  return a + b; // sum\n}\n'.repeat(60)],
    ['numbers', '1234567890'.repeat(100)],
    ['special text', '<|endoftext|> and <|fim_prefix|>'],
    ['short blank run', ' '.repeat(RUN_CAP)],
  ])('%s: the same count as the tokenizer', async (_name, sample) => {
    const count = await loadTokenCounter();
    expect(count(sample)).toBe(exact(sample));
  });

  test('a long run is counted in slices: an upper bound, at most four tokens per slice above', () => {
    fc.assert(
      fc.property(text, (sample) => {
        const cap = 16;
        const counted = countInPieces(sample, exact, cap);
        const truth = exact(sample);
        expect(counted).toBeGreaterThanOrEqual(truth);
        expect(counted).toBeLessThanOrEqual(truth + 4 * Math.ceil(sample.length / cap) + 1);
      }),
      { numRuns: 300 },
    );
  });

  test('slices never split a surrogate pair; counts grow with the run', () => {
    const seen: string[] = [];
    countInPieces('𝒜'.repeat(40), (piece) => (seen.push(piece), piece.length), 7);
    expect(seen.join('')).toBe('𝒜'.repeat(40));
    expect(seen.every((piece) => !/^[\udc00-\udfff]|[\ud800-\udbff]$/.test(piece))).toBe(true);
    const counts = [1000, 2000, 4000].map((length) => countInPieces(`<${' '.repeat(length)}`, exact));
    expect(counts[0]).toBeLessThan(counts[1] as number);
    expect(counts[1]).toBeLessThan(counts[2] as number);
  });
});

describe('the encoder built into the package (dist/vendor, scripts/bundle-tokenizer.mjs)', () => {
  test('counts as gpt-tokenizer counts, and the package import names it', async () => {
    const { createRequire } = await import('node:module');
    const require = createRequire(import.meta.url);
    const manifest = require('../package.json') as { imports: Record<string, string>; dependencies: object };
    expect(manifest.imports['#tokenizer']).toBe('./dist/vendor/o200k-base.cjs');
    expect(Object.keys(manifest.dependencies)).not.toContain('gpt-tokenizer');
    const built = require('../dist/vendor/o200k-base.cjs') as { countTokens: typeof countTokens };
    const options = { disallowedSpecial: new Set<string>() };
    for (const text of [
      '',
      'Use tabs.',
      '# Rules\n- Keep changes small.\n',
      'héllo 世界 🙂 <|endoftext|>',
      'x'.repeat(300),
      // Much of the vocabulary at once, and text that reaches the ranks stored as bytes.
      require('node:fs').readFileSync(new URL('../docs/config.md', import.meta.url), 'utf8') as string,
      'Ĭ ĭ Ů ů ǅ \u0085 \ufffd \u200b Ⅻ ﬁ 𝔘 ゙ ㈱',
      // Pieces the ranks lack (each looked up and missed in the encoder's table), from a fixed seed.
      seededText(4_000),
    ])
      expect(built.countTokens(text, options)).toBe(countTokens(text, options));
  });
});

/** `length` code points drawn from ASCII, Latin, Cyrillic, CJK and emoji ranges, the same for each run. */
function seededText(length: number): string {
  const ranges: Array<[number, number]> = [
    [0x20, 0x7e],
    [0xa0, 0x24f],
    [0x400, 0x4ff],
    [0x4e00, 0x4fff],
    [0x1f600, 0x1f64f],
  ];
  let seed = 0x2545f491;
  const next = () => (seed = Math.imul(seed ^ (seed >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0;
  let text = '';
  for (let index = 0; index < length; index += 1) {
    const [from, to] = ranges[next() % ranges.length] as [number, number];
    text += next() % 5 === 0 ? ' ' : String.fromCodePoint(from + (next() % (to - from + 1)));
  }
  return text;
}
