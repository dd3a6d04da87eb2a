import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { McpConnection } from './mcp-connection.js';
import { TOOL_DEFINITIONS } from './tool-definitions.js';

type ServerModule = typeof import('@modelcontextprotocol/sdk/server/index.js');
type StdioModule = typeof import('@modelcontextprotocol/sdk/server/stdio.js');
type TypesModule = typeof import('@modelcontextprotocol/sdk/types.js');

/** The parts of the MCP SDK the server uses, loaded on demand. */
export interface McpSdk {
  readonly Server: ServerModule['Server'];
  readonly StdioServerTransport: StdioModule['StdioServerTransport'];
  readonly types: TypesModule;
}

/**
 * Imports the MCP SDK (an optional peer dependency). Only `ctxfiles mcp` calls it, so no other
 * command pays for the SDK or needs it installed.
 * @throws the import error (`ERR_MODULE_NOT_FOUND`) when the SDK is not installed.
 */
export async function loadMcpSdk(): Promise<McpSdk> {
  const [server, stdio, types] = await Promise.all([
    import('@modelcontextprotocol/sdk/server/index.js'),
    import('@modelcontextprotocol/sdk/server/stdio.js'),
    import('@modelcontextprotocol/sdk/types.js'),
  ]);
  return { Server: server.Server, StdioServerTransport: stdio.StdioServerTransport, types };
}

/** Options of {@link serveMcp}. */
export interface ServeMcpOptions {
  readonly sdk: McpSdk;
  readonly connection: McpConnection;
  readonly transport: Transport;
  readonly version: string;
  /** How often tracked files are checked when change tracking is on, in ms. Default: 1000. */
  readonly pollMs?: number;
  /** Protocol faults (a malformed message, a closed pipe); the server goes on. */
  readonly onError?: (error: Error) => void;
}

/** A running server. */
export interface ServedMcp {
  /** Settles when the transport closes. */
  readonly closed: Promise<void>;
  /** Stops polling, waits for the requests being answered, and closes the transport. */
  close(): Promise<void>;
}

/** What the server tells the client about itself at initialization. */
export const SERVER_INSTRUCTIONS =
  'This server returns the project instructions (AGENTS.md, CLAUDE.md, rule files) that apply where you work. Before you read, create or change files in a directory for the first time, call instructions_for_path with that path and follow what it returns. It returns each file once per connection.';

/**
 * Serves one connection: the four tools, the instruction files as resources and, when change
 * tracking is on, `notifications/resources/list_changed` after a listed file changes (checked
 * every `pollMs`). Every request is answered; a handler fault becomes an error result.
 */
export async function serveMcp(options: Readonly<ServeMcpOptions>): Promise<ServedMcp> {
  const { sdk, connection } = options;
  const requests = createInFlight();
  const server = new sdk.Server(
    { name: 'ctxfiles', version: options.version },
    {
      capabilities: { tools: {}, resources: { listChanged: connection.resources.trackChanges } },
      instructions: SERVER_INSTRUCTIONS,
    },
  );
  registerHandlers(server, sdk.types, connection, requests.tracked);

  let resolveClosed: () => void = () => {};
  const closed = new Promise<void>((resolve) => {
    resolveClosed = resolve;
  });
  server.onclose = () => resolveClosed();
  server.onerror = (error) => options.onError?.(error);

  const timer = connection.resources.trackChanges ? await startPolling(server, options) : undefined;
  await server.connect(options.transport);
  return {
    closed,
    async close() {
      if (timer !== undefined) clearInterval(timer);
      await requests.drained();
      // The SDK sends an answer a few microtasks after its handler settles.
      await new Promise((resolve) => setImmediate(resolve));
      await server.close();
    },
  };
}

type Server = InstanceType<McpSdk['Server']>;
type Tracked = <A extends unknown[], R>(
  handler: (...args: A) => Promise<R> | R,
) => (...args: A) => Promise<R>;

/**
 * Requests being answered: shutting down waits for them, so no answer is lost when the client
 * closes stdin right after its last request.
 */
function createInFlight(): { tracked: Tracked; drained(): Promise<void> } {
  let inFlight = 0;
  let idle: (() => void) | null = null;
  const tracked: Tracked =
    (handler) =>
    async (...args) => {
      inFlight += 1;
      try {
        return await handler(...args);
      } finally {
        inFlight -= 1;
        if (inFlight === 0) idle?.();
      }
    };
  return {
    tracked,
    async drained() {
      if (inFlight > 0)
        await new Promise<void>((resolve) => {
          idle = resolve;
        });
    },
  };
}

/** The four tools and the instruction files as resources, answered by the connection. */
function registerHandlers(
  server: Server,
  types: TypesModule,
  connection: McpConnection,
  tracked: Tracked,
): void {
  server.setRequestHandler(types.ListToolsRequestSchema, () => ({
    tools: TOOL_DEFINITIONS.map((tool) => structuredClone(tool)) as never,
  }));
  server.setRequestHandler(
    types.CallToolRequestSchema,
    tracked(async (request) => {
      const result = await connection.callTool(request.params.name, request.params.arguments);
      return { content: [...result.content], ...(result.isError ? { isError: true } : {}) };
    }),
  );
  server.setRequestHandler(
    types.ListResourcesRequestSchema,
    tracked(async () => ({
      resources: (await connection.resources.list()).map((entry) => ({ ...entry })),
    })),
  );
  server.setRequestHandler(types.ListResourceTemplatesRequestSchema, () => ({ resourceTemplates: [] }));
  server.setRequestHandler(
    types.ReadResourceRequestSchema,
    tracked(async (request) => {
      const read = await connection.resources.read(request.params.uri);
      // -32002 is the code the MCP specification gives "resource not found".
      if (read === null)
        throw new types.McpError(-32002, `Resource not found: ${request.params.uri.slice(0, 200)}`);
      if (!read.ok) throw new types.McpError(types.ErrorCode.InternalError, read.message);
      return { contents: [{ uri: read.uri, mimeType: read.mimeType, text: read.text }] };
    }),
  );
}

/**
 * Takes the baseline of the tracked files, then checks them every `pollMs` and sends
 * `notifications/resources/list_changed` after a change; one check at a time.
 */
async function startPolling(
  server: Server,
  options: Readonly<ServeMcpOptions>,
): Promise<ReturnType<typeof setInterval>> {
  const { connection } = options;
  await connection.resources.checkForChanges();
  let busy = false;
  const timer = setInterval(() => {
    if (busy) return;
    busy = true;
    connection.resources
      .checkForChanges()
      .then((changed) => (changed.length > 0 ? server.sendResourceListChanged() : undefined))
      .catch((error: unknown) => options.onError?.(error instanceof Error ? error : new Error(String(error))))
      .finally(() => {
        busy = false;
      });
  }, options.pollMs ?? 1000);
  // Polling never keeps the process alive: the server ends when its input ends.
  timer.unref();
  return timer;
}
