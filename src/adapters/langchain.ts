/**
 * ctxfiles/langchain: LangChain tools (for LangGraph agents such as `createReactAgent`) that report
 * each call to a ctxfiles session (docs/embedding.md, "LangChain"). Nothing of LangChain is loaded here.
 */
import type { StructuredToolInterface } from '@langchain/core/tools';
import type { Session } from '../api/open-session.js';
import { APPENDED, appendText, runReported, type AdapterOptions } from './report-call.js';

export type { AdapterOptions } from './report-call.js';
export { contextPrompt } from '../prompt/context-prompt.js';

/** What a tool message looks like to this adapter. */
interface ToolMessageLike {
  content: unknown;
  readonly status?: string;
  readonly tool_call_id: string;
}

/**
 * The tools with an `invoke` that reports each call to `session`. Each wrapper inherits from its
 * tool, so its name, schema and description stay. `invoke` takes the tool's input or a tool call
 * (`{ name, args, id, type: 'tool_call' }`, as LangGraph's tool node passes it); a throw is
 * reported as failed and thrown on, and so is a returned tool message with `status: 'error'`.
 * The session's text is appended to the result: to the content of a tool message (the whole
 * message `invoke` returns for a tool call), or to a string (anything else becomes its JSON).
 */
export function withContext<TOOL extends StructuredToolInterface>(
  session: Session,
  tools: readonly TOOL[],
  options: Readonly<AdapterOptions> = {},
): TOOL[] {
  return tools.map((tool) => {
    const invoke = tool.invoke;
    const wrapper = Object.create(tool) as TOOL;
    const reporting = async (input: unknown, config?: unknown) => {
      const args = isToolCall(input) ? input.args : input;
      const { value, text } = await runReported(
        { session, name: tool.name, input: args, options },
        async () => {
          const result: unknown = await invoke.call(tool, input as never, config as never);
          if (isToolMessage(result) && result.status === 'error') throw new ToolMessageError(result);
          return result;
        },
      ).catch((error: unknown) => {
        if (error instanceof ToolMessageError) return { value: error.result as unknown, text: '' };
        throw error;
      });
      if (text === '') return value;
      return isToolMessage(value) ? appendToMessage(value, text) : appendText(value, text);
    };
    Object.defineProperty(wrapper, 'invoke', { value: reporting, writable: true, configurable: true });
    return wrapper;
  });
}

/** A tool message that says the call failed: reported as failed, returned as it is. */
class ToolMessageError extends Error {
  constructor(readonly result: ToolMessageLike) {
    super('the tool returned an error message');
  }
}

function appendToMessage(message: ToolMessageLike, text: string): ToolMessageLike {
  const { content } = message;
  if (typeof content === 'string') message.content = content === '' ? text : `${content}${APPENDED}${text}`;
  else if (Array.isArray(content)) message.content = [...content, { type: 'text', text }];
  else message.content = appendText(content, text);
  return message;
}

function isToolCall(value: unknown): value is { readonly args: unknown } {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { type?: unknown }).type === 'tool_call' &&
    'args' in value
  );
}

function isToolMessage(value: unknown): value is ToolMessageLike {
  return typeof value === 'object' && value !== null && 'tool_call_id' in value && 'content' in value;
}
