import type { Session } from '../api/open-session.js';
import type { ToolEvent } from '../session/triggers.js';

/** What every framework adapter takes besides the session. */
export interface AdapterOptions {
  /**
   * The name the session knows a framework tool by, when it differs and no mapping of the session
   * covers it: `{ openFile: 'read' }`.
   */
  readonly names?: Readonly<Record<string, string>>;
  /** Input keys renamed before the session reads them: `{ source: 'path' }`. */
  readonly keys?: Readonly<Record<string, string>>;
}

/** What a finished call brought: the tool's own value, and the text the session appends. */
export interface Reported<T> {
  readonly value: T;
  readonly text: string;
}

/** The separator between a tool's own output and the text the session appends to it. */
export const APPENDED = '\n\n';

/** One call of a framework's tool, as an adapter reports it. */
export interface ToolCall {
  readonly session: Session;
  /** The tool's name in the framework. */
  readonly name: string;
  readonly input: unknown;
  readonly options: Readonly<AdapterOptions>;
}

/**
 * The event a session reads for a framework's tool call, without `ok`: the mapped name, and the
 * input with its keys renamed (an input given as JSON text is read as the object it holds).
 */
export function toolEvent(call: ToolCall): Omit<ToolEvent, 'ok'> {
  const { names, keys } = call.options;
  const tool = names !== undefined && Object.hasOwn(names, call.name) ? names[call.name]! : call.name;
  return { tool, input: renamed(call.input, keys) };
}

/** Reports a call that succeeded; resolves to the text to append to its result. */
export function reportSuccess(call: ToolCall): Promise<string> {
  return call.session.afterTool({ ...toolEvent(call), ok: true });
}

/** Reports a call that threw. */
export async function reportFailure(call: ToolCall): Promise<void> {
  await call.session.afterTool({ ...toolEvent(call), ok: false });
}

function renamed(input: unknown, keys: AdapterOptions['keys']): ToolEvent['input'] {
  let value = input;
  if (keys !== undefined && typeof value === 'string' && value.trimStart().startsWith('{')) {
    try {
      value = JSON.parse(value);
    } catch {
      // Left as text: the session says it cannot read it.
    }
  }
  if (typeof value === 'string') return value;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  if (keys === undefined) return value as Readonly<Record<string, unknown>>;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    const target = Object.hasOwn(keys, key) ? keys[key]! : key;
    if (!Object.hasOwn(out, target)) out[target] = item;
  }
  return out;
}

/**
 * Runs one tool call and reports it to the session: as failed when `run` throws (the error is
 * thrown on, after the report), else as successful, resolving to the value and the text to append.
 */
export async function runReported<T>(
  call: ToolCall,
  run: () => T | PromiseLike<T>,
): Promise<Reported<Awaited<T>>> {
  let value: Awaited<T>;
  try {
    value = await run();
  } catch (error) {
    await reportFailure(call);
    throw error;
  }
  return { value, text: await reportSuccess(call) };
}

/** A tool output with the session's text after it: a string stays a string, anything else becomes its JSON. */
export function appendText(output: unknown, text: string): string {
  const own = typeof output === 'string' ? output : output === undefined ? '' : JSON.stringify(output);
  return own === '' ? text : `${own}${APPENDED}${text}`;
}
