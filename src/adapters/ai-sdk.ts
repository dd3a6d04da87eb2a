/**
 * ctxfiles/ai-sdk: a Vercel AI SDK `ToolSet` whose tools report each call to a ctxfiles session
 * (docs/embedding.md, "AI SDK"). Only types come from `ai`; nothing of it is loaded here.
 */
import type { Tool, ToolSet } from 'ai';
import type { Session } from '../api/open-session.js';
import {
  APPENDED,
  appendText,
  reportFailure,
  reportSuccess,
  runReported,
  type AdapterOptions,
  type ToolCall,
} from './report-call.js';

export type { AdapterOptions } from './report-call.js';
export { contextPrompt } from '../prompt/context-prompt.js';

/** Texts kept for `toModelOutput`, per tool: the most recent calls. */
const PENDING_KEPT = 256;

type ModelOutput = Awaited<ReturnType<NonNullable<Tool['toModelOutput']>>>;

/** The options `execute` gets, named as AI SDK 6 and 7 both type them (7 made the type generic). */
type ExecutionOptions = Parameters<NonNullable<Tool['execute']>>[1];

/**
 * Wraps every tool of `tools` that has an `execute`: each call is reported to `session` (`ok`
 * from whether `execute` threw or its stream failed), and the text the session returns reaches the
 * model after the tool's output. A string output gets it appended (the last value of a streamed
 * output, as one more value); any other output, or a tool with its own `toModelOutput`, keeps its
 * value and gets the text as a part of the model output. Tools without `execute` are kept as they are.
 */
export function withContext<TOOLS extends ToolSet>(
  session: Session,
  tools: TOOLS,
  options: Readonly<AdapterOptions> = {},
): TOOLS {
  const wrapped: Record<string, Tool> = {};
  for (const [name, tool] of Object.entries(tools) as Array<[string, Tool]>)
    wrapped[name] = typeof tool.execute === 'function' ? reportingTool(session, name, tool, options) : tool;
  return wrapped as TOOLS;
}

function reportingTool(session: Session, name: string, tool: Tool, options: Readonly<AdapterOptions>): Tool {
  const execute = tool.execute as NonNullable<Tool['execute']>;
  const own = tool.toModelOutput;
  // Texts for outputs the SDK converts later (`toModelOutput`), by tool call id.
  const pending = new Map<string, string>();
  const keep = (id: string, text: string) => {
    if (pending.size >= PENDING_KEPT) pending.delete(pending.keys().next().value as string);
    pending.set(id, text);
  };
  // A string output (the SDK's default conversion) carries the text itself; anything else keeps
  // its value, and the text waits for `toModelOutput`.
  const carries = (output: unknown, text: string) =>
    text !== '' && typeof output === 'string' && own === undefined;
  const settle = (id: string, output: unknown, text: string): unknown => {
    if (carries(output, text)) return appendText(output, text);
    if (text !== '') keep(id, text);
    return output;
  };
  return {
    ...tool,
    execute(input: unknown, execution: ExecutionOptions) {
      const call: ToolCall = { session, name, input, options };
      let output: unknown;
      try {
        output = execute.call(tool, input as never, execution as never);
      } catch (error) {
        return reportFailure(call).then(() => Promise.reject(error));
      }
      if (isAsyncIterable(output))
        return streamReported(call, output, (last, text) =>
          carries(last, text)
            ? { more: appendText(last, text) }
            : (settle(execution.toolCallId, last, text), null),
        );
      return runReported(call, () => output).then(({ value, text }) =>
        settle(execution.toolCallId, value, text),
      );
    },
    async toModelOutput(convert: {
      toolCallId: string;
      input: unknown;
      output: unknown;
    }): Promise<ModelOutput> {
      const base: ModelOutput =
        own !== undefined
          ? await own(convert as never)
          : typeof convert.output === 'string'
            ? { type: 'text', value: convert.output }
            : { type: 'json', value: JSON.parse(JSON.stringify(convert.output ?? null)) };
      const text = pending.get(convert.toolCallId);
      return text === undefined ? base : withText(base, text);
    },
  } as Tool;
}

/** A model output with the session's text added; error and denial outputs are left alone. */
function withText(output: ModelOutput, text: string): ModelOutput {
  switch (output.type) {
    case 'text':
      return { ...output, value: `${output.value}${APPENDED}${text}` };
    case 'json':
      return {
        type: 'content',
        value: [
          { type: 'text', text: JSON.stringify(output.value) },
          { type: 'text', text },
        ],
      };
    case 'content':
      return { ...output, value: [...output.value, { type: 'text', text }] };
    default:
      return output;
  }
}

/**
 * A streamed output (`execute` as an async generator): every value passes through; once it ends
 * the call is reported, and `finish` may add one more value (the last one with the text appended).
 * A stream that throws is reported as failed.
 */
async function* streamReported(
  call: ToolCall,
  output: AsyncIterable<unknown>,
  finish: (last: unknown, text: string) => { readonly more: unknown } | null,
): AsyncGenerator<unknown> {
  let last: unknown;
  try {
    for await (const value of output) {
      last = value;
      yield value;
    }
  } catch (error) {
    await reportFailure(call);
    throw error;
  }
  const more = finish(last, await reportSuccess(call));
  if (more !== null) yield more.more;
}

function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return typeof value === 'object' && value !== null && Symbol.asyncIterator in value;
}
