/** What {@link contextPrompt} reads of a resolution: `resolver.resolve()`'s result fits as it is. */
export interface ContextPromptInput {
  readonly text: string;
  readonly manifest?: string | undefined;
}

/**
 * A system prompt from a base text and a resolution: the base, the rendered block and the
 * nested-file manifest, the empty ones left out, separated by a blank line as the prompt builder
 * separates them. The same resolution gives the same bytes (the provider's prompt cache stays warm).
 */
export function contextPrompt(result: Readonly<ContextPromptInput>, base = ''): string {
  return [base, result.text, result.manifest ?? ''].filter((part) => part !== '').join('\n\n');
}
