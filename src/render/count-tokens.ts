/** Counts tokens of a text. */
export type TokenCounter = (text: string) => number;

let loading: Promise<TokenCounter> | undefined;

/**
 * Loads the tokenizer (gpt-tokenizer, o200k_base, shipped with its encodings: nothing is fetched)
 * once, on first use: it costs about 100 ms, so only commands that count tokens pay for it.
 * Special-token text such as `<|endoftext|>` is counted as plain text.
 */
export function loadTokenCounter(): Promise<TokenCounter> {
  loading ??= import('gpt-tokenizer').then((module) => {
    const options = { disallowedSpecial: new Set<string>() };
    return (text: string) => (text === '' ? 0 : module.countTokens(text, options));
  });
  return loading;
}
