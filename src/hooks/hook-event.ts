import type { HostContext } from '../api/host-layers.js';
import { describeJsonError } from '../errors.js';
import type { HookProtocol } from '../registry/host.js';

/** One hook event, reduced to what ctxfiles uses. */
export type HookEvent =
  | {
      readonly kind: 'session-start';
      readonly sessionId: string;
      readonly cwd: string | undefined;
      readonly context: HostContext;
      /** `startup`, `resume`, `clear`, `compact`, … as the agent reports it. */
      readonly source: string;
    }
  | {
      readonly kind: 'after-tool';
      readonly sessionId: string;
      readonly cwd: string | undefined;
      readonly context: HostContext;
      readonly toolName: string;
      readonly toolInput: Readonly<Record<string, unknown>>;
      /** False when the agent reports that the tool failed. */
      readonly ok: boolean;
    }
  | {
      /** The agent is about to compact (or compress) the conversation: what it showed is going. */
      readonly kind: 'compact';
      readonly sessionId: string;
      readonly cwd: string | undefined;
      readonly context: HostContext;
    }
  | {
      /** The host compressed the conversation: `summary` is the summary now in the model's view. */
      readonly kind: 'compressed';
      readonly sessionId: string;
      readonly cwd: string | undefined;
      readonly context: HostContext;
      readonly summary: string;
    }
  | {
      /** The host starts a subagent (`context.agentId`, `context.agentType`), before its first request. */
      readonly kind: 'subagent-start';
      readonly sessionId: string;
      readonly cwd: string | undefined;
      readonly context: HostContext;
    }
  | {
      /** A user prompt: where a mode (`context.mode`) delivers its flow step. */
      readonly kind: 'prompt';
      readonly sessionId: string;
      readonly cwd: string | undefined;
      readonly context: HostContext;
    }
  | { readonly kind: 'other'; readonly eventName: string };

/**
 * Reads one hook event from the JSON an agent writes to the hook's stdin.
 * @returns the event, or a one-line reason why the input is not a usable event.
 */
export function parseHookEvent(protocol: HookProtocol, text: string): HookEvent | { readonly error: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { error: `the hook input is ${describeJsonError(error, text)}` };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return { error: 'the hook input is not a JSON object' };
  const record = protocol.input?.(value as Record<string, unknown>) ?? (value as Record<string, unknown>);
  const eventName = record['hook_event_name'];
  if (typeof eventName !== 'string') return { error: 'the hook input has no "hook_event_name"' };
  const names = protocol.events;
  const compression = protocol.compression?.event === eventName ? protocol.compression : undefined;
  const layered = [names.subagentStart, names.prompt].includes(eventName);
  const known = layered || [names.start, names.afterTool, names.compact].includes(eventName);
  if (!known && compression === undefined) return { kind: 'other', eventName };
  const sessionId = record['session_id'];
  if (typeof sessionId !== 'string' || sessionId === '')
    return { error: 'the hook input has no "session_id"' };
  const cwd = typeof record['cwd'] === 'string' && record['cwd'] !== '' ? record['cwd'] : undefined;
  const context = hostContextOf(record);
  if (layered) {
    const kind = eventName === names.subagentStart ? 'subagent-start' : 'prompt';
    return { kind, sessionId, cwd, context };
  }
  if (compression !== undefined) {
    const summary = compressionSummary(record['llm_request'], compression.reply);
    return summary === undefined
      ? { kind: 'other', eventName }
      : { kind: 'compressed', sessionId, cwd, context, summary };
  }
  if (eventName === names.compact) {
    const trigger = record['trigger'];
    const compacts =
      protocol.compactTriggers === undefined ||
      (typeof trigger === 'string' && protocol.compactTriggers.includes(trigger));
    return compacts ? { kind: 'compact', sessionId, cwd, context } : { kind: 'other', eventName };
  }
  if (eventName === names.start) {
    const source = typeof record['source'] === 'string' ? record['source'] : 'startup';
    return { kind: 'session-start', sessionId, cwd, context, source };
  }
  const toolName = record['tool_name'];
  if (typeof toolName !== 'string') return { error: 'the hook input has no "tool_name"' };
  const input = record['tool_input'];
  const toolInput =
    typeof input === 'object' && input !== null && !Array.isArray(input)
      ? (input as Record<string, unknown>)
      : {};
  return { kind: 'after-tool', sessionId, cwd, context, toolName, toolInput, ok: !failed(record) };
}

/**
 * Gemini CLI reports a failed tool with an `error` in `tool_response`; Claude Code sends failures
 * to a separate event (PostToolUseFailure), so PostToolUse always means success.
 */
function failed(record: Readonly<Record<string, unknown>>): boolean {
  const response = record['tool_response'];
  return (
    typeof response === 'object' &&
    response !== null &&
    (response as Record<string, unknown>)['error'] !== undefined &&
    (response as Record<string, unknown>)['error'] !== null
  );
}

/**
 * The subagent and mode an event reports: `agent_id`, `agent_type` and `permission_mode`, the
 * fields Claude Code, Codex and Qwen Code put on their events (docs/subagents.md); a field that is
 * not a non-empty string is absent.
 */
export function hostContextOf(record: Readonly<Record<string, unknown>>): HostContext {
  const text = (key: string) => {
    const value = record[key];
    return typeof value === 'string' && value !== '' ? value : undefined;
  };
  const context = { agentId: text('agent_id'), agentType: text('agent_type'), mode: text('permission_mode') };
  return Object.fromEntries(Object.entries(context).filter(([, value]) => value !== undefined));
}

/**
 * The summary of the latest compression in a model request: the user message right before the
 * last model message that is exactly `reply`; `undefined` when the request holds none.
 */
function compressionSummary(request: unknown, reply: string): string | undefined {
  if (typeof request !== 'object' || request === null) return undefined;
  const messages = (request as Record<string, unknown>)['messages'];
  if (!Array.isArray(messages)) return undefined;
  const at = (index: number, role: string): string | undefined => {
    const message = messages[index] as Record<string, unknown> | null | undefined;
    if (typeof message !== 'object' || message === null || message['role'] !== role) return undefined;
    return typeof message['content'] === 'string' ? message['content'] : undefined;
  };
  for (let index = messages.length - 1; index > 0; index--)
    if (at(index, 'model') === reply) return at(index - 1, 'user');
  return undefined;
}

/**
 * What the hook prints: the agent's JSON with `additionalContext` (or the shape its protocol's
 * `output` writes), or the agent's "nothing to add" (its protocol's `emptyOutput`, else nothing).
 */
export function formatHookOutput(
  protocol: HookProtocol,
  event: 'session-start' | 'after-tool' | 'subagent-start' | 'prompt',
  text: string,
): string {
  if (text === '') return protocol.emptyOutput ?? '';
  const names = protocol.events;
  const hookEventName =
    event === 'session-start'
      ? names.start
      : event === 'subagent-start'
        ? (names.subagentStart ?? names.start)
        : event === 'prompt'
          ? (names.prompt ?? names.start)
          : names.afterTool;
  if (protocol.output !== undefined) return protocol.output(text, hookEventName);
  return `${JSON.stringify({ hookSpecificOutput: { hookEventName, additionalContext: text } })}\n`;
}
