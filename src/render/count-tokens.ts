/** Counts tokens of a text. */
export type TokenCounter = (text: string) => number;

let loading: Promise<TokenCounter> | undefined;

/**
 * The longest run of one character class (blanks, letters, other symbols) handed to the tokenizer
 * in one piece. The tokenizer merges pairs within each word-like piece of text in time quadratic
 * in its length: 50,000 spaces took about 10 s, a line of 20,000 CJK letters 4 s.
 */
export const RUN_CAP = 256;

/** What ctxfiles uses of the encoder. */
interface Encoder {
  countTokens(text: string, options: { disallowedSpecial: Set<string> }): number;
  setMergeCacheSize?(size: number): void;
}

/** Words the encoder keeps merged between counts (its default, 100,000, grows the heap by tens of MB). */
const MERGE_CACHE_ENTRIES = 4096;

/**
 * The package's own import of the o200k_base encoder (package.json "imports"): gpt-tokenizer's
 * encoder for that one encoding, bundled into dist/vendor with its ranks compressed beside it
 * (scripts/bundle-tokenizer.mjs); tests map it to the gpt-tokenizer dev dependency. A variable, so
 * the compiler does not look for types of a file that exists only after the build.
 */
const TOKENIZER: string = '#tokenizer';

/**
 * Loads the tokenizer (o200k_base, exact counts, shipped in the package: nothing is fetched) once, on
 * first use: it costs about 100 ms, so only commands that count tokens pay for it. Special-token text
 * such as `<|endoftext|>` is counted as plain text. Counting is linear in the text: see
 * {@link countInPieces} for the approximation on very long runs.
 */
export function loadTokenCounter(): Promise<TokenCounter> {
  loading ??= (import(TOKENIZER) as Promise<Encoder & { default?: Encoder }>).then((loaded) => {
    const module = typeof loaded.countTokens === 'function' ? loaded : (loaded.default as Encoder);
    const options = { disallowedSpecial: new Set<string>() };
    // The encoder remembers up to 100,000 merged words by default: tens of MB on a large corpus
    // (doctor counts every file of every host), for a hit rate that a few thousand entries keep.
    module.setMergeCacheSize?.(MERGE_CACHE_ENTRIES);
    const count = (text: string) => module.countTokens(text, options);
    return (text: string) => (text === '' ? 0 : countInPieces(text, count));
  });
  return loading;
}

// Maximal runs of one class; the classes are disjoint, so each character is looked at once.
// Digits are their own class and never cut: the tokenizer takes them three at a time anyway.
// Made on first count: V8 builds the Unicode property classes when the expression is created, which
// cost every process that loads this module ~0.35 ms, counting or not.
let patterns: { readonly runs: RegExp; readonly digit: RegExp } | undefined;
const runPatterns = () =>
  (patterns ??= { runs: /\s+|[\p{L}\p{M}]+|\p{N}+|[^\s\p{L}\p{M}\p{N}]+/gu, digit: /^\p{N}/u });

/**
 * `count(text)` exactly when no run of blanks, letters, digits or other symbols is longer than
 * `cap` code units (all ordinary text). Otherwise each such run is cut into slices of at most
 * `cap` (never inside a surrogate pair), and the text between runs and every slice (plus one token
 * of margin per slice) are counted apart and summed. The result is a close upper bound: a cut
 * moves the count by about one token either way, so a run of 20,000 spaces counts 236 where the
 * tokenizer says 157; and the time stays linear (test/count-tokens.test.ts, bench/adversarial.mjs).
 */
export function countInPieces(text: string, count: (text: string) => number, cap = RUN_CAP): number {
  if (text.length <= cap) return count(text);
  let total = 0;
  let from = 0;
  const { runs, digit } = runPatterns();
  for (const match of text.matchAll(runs)) {
    const run = match[0];
    if (run.length <= cap || digit.test(run)) continue;
    const start = match.index;
    if (start > from) total += count(text.slice(from, start));
    for (let at = 0; at < run.length;) {
      let end = Math.min(at + cap, run.length);
      const last = run.charCodeAt(end - 1);
      if (end < run.length && last >= 0xd800 && last <= 0xdbff) end -= 1;
      // One token of margin per slice: a cut can also split what the whole would merge differently.
      total += count(run.slice(at, end)) + 1;
      at = end;
    }
    from = start + run.length;
  }
  if (from === 0) return count(text);
  if (from < text.length) total += count(text.slice(from));
  return total;
}
