/**
 * ctxfiles/openai-agents: instructions and tool options for the OpenAI Agents SDK that report each
 * call to a ctxfiles session (docs/embedding.md, "OpenAI Agents"). Nothing of the SDK is loaded here.
 */
import type { Resolver } from '../api/create-resolver.js';
import type { Session } from '../api/open-session.js';
import type { ResolveRequest } from '../api/select-request.js';
import { contextPrompt } from '../prompt/context-prompt.js';
import { appendText, runReported, type AdapterOptions } from './report-call.js';

export type { AdapterOptions } from './report-call.js';
export { contextPrompt };

/** The options of `tool()` this adapter reads: a name and an `execute`. */
export interface ExecutableToolOptions {
  readonly name?: string | undefined;
  readonly execute: (input: never, ...rest: never[]) => unknown;
  readonly outputSchema?: unknown;
}

/**
 * An `instructions` function for an `Agent`: `base`, then the block and the manifest of the
 * request's resolution ({@link contextPrompt}). The resolver memoizes it: the same bytes each turn.
 */
export function contextInstructions(
  resolver: Resolver,
  request: Readonly<ResolveRequest & { readonly base?: string }> = {},
): () => Promise<string> {
  const { base, ...rest } = request;
  return async () => contextPrompt(await resolver.resolve(rest), base);
}

/**
 * The options of `tool()` with an `execute` that reports each call to `session`: `ok: false` when
 * `execute` throws (reported before the SDK turns the error into text for the model), else
 * `ok: true` with the session's text appended to the result (a result that is not a string is
 * appended to as its JSON, which is what the model is sent). Options with an `outputSchema` are
 * returned as they are: their result must keep its shape.
 */
export function withContext<OPTIONS extends ExecutableToolOptions>(
  session: Session,
  options: OPTIONS,
  adapterOptions: Readonly<AdapterOptions> = {},
): OPTIONS {
  if (options.outputSchema !== undefined) return options;
  const name = options.name ?? options.execute.name;
  const execute = options.execute as (...args: unknown[]) => unknown;
  return {
    ...options,
    async execute(input: unknown, ...rest: unknown[]) {
      const { value, text } = await runReported({ session, name, input, options: adapterOptions }, () =>
        execute.call(options, input, ...rest),
      );
      return text === '' ? value : appendText(value, text);
    },
  };
}
