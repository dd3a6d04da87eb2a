import { readLines } from '../fs/bounded-input.js';
import type { McpConnection } from './mcp-connection.js';
import { TOOL_DEFINITIONS } from './tool-definitions.js';

/** The MCP protocol versions the server speaks, newest first. */
export const PROTOCOL_VERSIONS: readonly string[] = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'];

/** A message longer than this is answered with an error, read to its end and dropped (4 MiB). */
export const MAX_MESSAGE_BYTES = 4_194_304;

/** What the server tells the client about itself at initialization. */
export const SERVER_INSTRUCTIONS =
  'This server returns the project instructions (AGENTS.md, CLAUDE.md, rule files) that apply where you work. Before you read, create or change files in a directory for the first time, call instructions_for_path with that path and follow what it returns. It returns each file once per connection.';

/** The JSON-RPC error codes the server answers with (JSON-RPC 2.0; -32002 is MCP's "resource not found"). */
const PARSE_ERROR = -32700;
const INVALID_REQUEST = -32600;
const METHOD_NOT_FOUND = -32601;
const INVALID_PARAMS = -32602;
const INTERNAL_ERROR = -32603;
const RESOURCE_NOT_FOUND = -32002;

/** Where answers go: a stream, or anything with `write` (then there is no backpressure to wait for). */
export interface McpOutput {
  write(text: string): unknown;
  once?(event: 'drain' | 'close' | 'error', listener: () => void): unknown;
  off?(event: 'drain' | 'close' | 'error', listener: () => void): unknown;
}

/** Options of {@link serveStdio}. */
export interface ServeStdioOptions {
  readonly connection: McpConnection;
  readonly input: AsyncIterable<Buffer | string>;
  readonly output: McpOutput;
  readonly version: string;
  /** How often tracked files are checked when change tracking is on, in ms. Default: 1000. */
  readonly pollMs?: number;
  /** Faults of the polling; the server goes on. */
  readonly onError?: (message: string) => void;
}

type Id = string | number;
type Reply = { readonly id: Id | null } & (
  { readonly result: unknown } | { readonly error: { readonly code: number; readonly message: string } }
);

/**
 * Serves MCP over JSON Lines (the stdio transport) until the input ends: the four tools, the
 * instruction files as resources and, with change tracking on, `notifications/resources/list_changed`
 * after a listed file changes. Messages are handled one at a time, in order, and the next line is
 * read only once the answer is written and the output has drained: a client that stops reading
 * stops the server reading, so unread answers never pile up in memory. Every request gets an
 * answer, an invalid one a JSON-RPC error (with `id: null` when its id cannot be read); notifications
 * and responses get none. Resolves once the last answer is written.
 */
export async function serveStdio(options: Readonly<ServeStdioOptions>): Promise<void> {
  const { connection, output } = options;
  let closed = false;
  const onGone = () => {
    closed = true;
  };
  output.once?.('close', onGone);
  output.once?.('error', onGone);
  const send = async (message: unknown) => {
    if (closed) return;
    if (output.write(`${JSON.stringify(message)}\n`) === false) await drained(output);
  };
  const timer = connection.resources.trackChanges ? await startPolling(options, send) : undefined;
  try {
    for await (const line of readLines(options.input, MAX_MESSAGE_BYTES)) {
      if (closed) break;
      const reply =
        'text' in line
          ? await answer(line.text, options)
          : failure(
              null,
              INVALID_REQUEST,
              `the message is ${line.overBytes} bytes, over the ${MAX_MESSAGE_BYTES} read`,
            );
      if (reply !== undefined) await send({ jsonrpc: '2.0', ...reply });
    }
  } finally {
    if (timer !== undefined) clearInterval(timer);
    output.off?.('close', onGone);
    output.off?.('error', onGone);
  }
}

/** Waits for `drain` (or for the output to go away). */
function drained(output: McpOutput): Promise<void> {
  if (output.once === undefined) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      for (const event of ['drain', 'close', 'error'] as const) output.off?.(event, done);
      resolve();
    };
    for (const event of ['drain', 'close', 'error'] as const) output.once?.(event, done);
  });
}

const failure = (id: Id | null, code: number, message: string): Reply => ({ id, error: { code, message } });

/** A JSON-RPC id MCP accepts: a string or an integer (never null, a fraction or an object). */
function isId(value: unknown): value is Id {
  return typeof value === 'string' || (typeof value === 'number' && Number.isSafeInteger(value));
}

/** The answer to one line, or `undefined` for a notification or a response. */
async function answer(line: string, options: Readonly<ServeStdioOptions>): Promise<Reply | undefined> {
  if (line.trim() === '') return undefined;
  let message: unknown;
  try {
    message = JSON.parse(line);
  } catch {
    return failure(null, PARSE_ERROR, 'Parse error: the message is not valid JSON');
  }
  if (Array.isArray(message))
    return failure(null, INVALID_REQUEST, 'Invalid Request: batches are not supported');
  if (typeof message !== 'object' || message === null)
    return failure(null, INVALID_REQUEST, 'Invalid Request: expected a JSON object');
  const record = message as Record<string, unknown>;
  const hasId = Object.hasOwn(record, 'id');
  const id = hasId && isId(record['id']) ? record['id'] : null;
  const invalid = (why: string) => failure(id, INVALID_REQUEST, `Invalid Request: ${why}`);
  if (record['jsonrpc'] !== '2.0') return invalid('"jsonrpc" must be "2.0"');
  if (hasId && id === null) return invalid('"id" must be a string or an integer');
  if (typeof record['method'] !== 'string') {
    // A response to a request (the server sends none) is not answered.
    if (hasId && (Object.hasOwn(record, 'result') || Object.hasOwn(record, 'error'))) return undefined;
    return invalid('"method" must be a string');
  }
  const params = record['params'];
  if (params !== undefined && (typeof params !== 'object' || params === null || Array.isArray(params)))
    return hasId ? failure(id, INVALID_PARAMS, 'Invalid params: "params" must be an object') : undefined;
  if (!hasId) return undefined; // Notifications: initialized, cancelled, … need no answer.
  try {
    return await dispatch(id as Id, record['method'], (params ?? {}) as Record<string, unknown>, options);
  } catch (error) {
    return failure(
      id,
      INTERNAL_ERROR,
      `Internal error: ${String((error as Error).message)
        .split('\n')[0]
        ?.slice(0, 500)}`,
    );
  }
}

/** Runs one request's method. */
async function dispatch(
  id: Id,
  method: string,
  params: Readonly<Record<string, unknown>>,
  options: Readonly<ServeStdioOptions>,
): Promise<Reply> {
  const { connection } = options;
  const ok = (result: unknown): Reply => ({ id, result });
  switch (method) {
    case 'initialize': {
      const asked = params['protocolVersion'];
      const protocolVersion =
        typeof asked === 'string' && PROTOCOL_VERSIONS.includes(asked) ? asked : PROTOCOL_VERSIONS[0];
      return ok({
        protocolVersion,
        capabilities: { tools: {}, resources: { listChanged: connection.resources.trackChanges } },
        serverInfo: { name: 'ctxfiles', version: options.version },
        instructions: SERVER_INSTRUCTIONS,
      });
    }
    case 'ping':
      return ok({});
    case 'tools/list':
      return ok({ tools: TOOL_DEFINITIONS });
    case 'tools/call': {
      const name = params['name'];
      if (typeof name !== 'string')
        return failure(id, INVALID_PARAMS, 'Invalid params: "name" must be a string');
      const result = await connection.callTool(name, params['arguments'] ?? {});
      return ok({ content: result.content, ...(result.isError ? { isError: true } : {}) });
    }
    case 'resources/list':
      return ok({ resources: await connection.resources.list() });
    case 'resources/templates/list':
      return ok({ resourceTemplates: [] });
    case 'resources/read': {
      const uri = params['uri'];
      if (typeof uri !== 'string')
        return failure(id, INVALID_PARAMS, 'Invalid params: "uri" must be a string');
      const read = await connection.resources.read(uri);
      if (read === null) return failure(id, RESOURCE_NOT_FOUND, `Resource not found: ${uri.slice(0, 200)}`);
      if (!read.ok) return failure(id, INTERNAL_ERROR, read.message);
      return ok({ contents: [{ uri: read.uri, mimeType: read.mimeType, text: read.text }] });
    }
    default:
      return failure(id, METHOD_NOT_FOUND, `Method not found: ${method.slice(0, 200)}`);
  }
}

/**
 * Takes the baseline of the tracked files, then checks them every `pollMs` and sends
 * `notifications/resources/list_changed` after a change; one check at a time.
 */
async function startPolling(
  options: Readonly<ServeStdioOptions>,
  send: (message: unknown) => Promise<void>,
): Promise<ReturnType<typeof setInterval>> {
  const { connection } = options;
  await connection.resources.checkForChanges();
  let busy = false;
  const timer = setInterval(() => {
    if (busy) return;
    busy = true;
    connection.resources
      .checkForChanges()
      .then((changed) =>
        changed.length > 0
          ? send({ jsonrpc: '2.0', method: 'notifications/resources/list_changed' })
          : undefined,
      )
      .catch((error: unknown) => options.onError?.(error instanceof Error ? error.message : String(error)))
      .finally(() => {
        busy = false;
      });
  }, options.pollMs ?? 1000);
  // Polling never keeps the process alive: the server ends when its input ends.
  timer.unref();
  return timer;
}
