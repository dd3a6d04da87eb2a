import type { ResolveRequest } from '../api/select-request.js';
import { knownAgents } from '../api/select-request.js';
import {
  createMcpConnection,
  type McpConnection,
  type McpConnectionOptions,
  type ToolResult,
} from './mcp-connection.js';
import { rulesOfResolver } from './rule-source.js';

/** The tool arguments that choose a context: which agent is asking, in which flow step. */
export const SCOPE_ARGUMENTS = ['agent', 'flow', 'step'] as const;

/** Longest agent, flow or step id a tool call accepts. */
export const MAX_SCOPE_ID_LENGTH = 200;

/**
 * An MCP connection whose tools also take `agent`, `flow` and `step` (docs/subagents.md): where a
 * host has no subagent or mode event, a subagent names the ctxfiles agent it is, or the step it is
 * in. Each context (agent, flow, step) has its own connection state, so its once-only state is its
 * own, as a subagent's context is; a call without them is the connection's own context (`--agent`).
 * An unknown agent, flow or step is an error result naming the known ones; nothing is read.
 */
export function createScopedConnection(options: Readonly<McpConnectionOptions>): McpConnection {
  const base = createMcpConnection(options);
  const scoped = new Map<string, McpConnection>();
  const connectionFor = (request: ResolveRequest): McpConnection => {
    const key = JSON.stringify([request.agent, request.flow, request.step]);
    let connection = scoped.get(key);
    if (connection === undefined) {
      const rules = options.rules === undefined ? undefined : rulesOfResolver(options.resolver, request);
      // A subagent's context is its own: it starts with nothing delivered, so it does not share the
      // main context's once-only state (a hook's, with --host).
      const { shared: _main, ...own } = options;
      connection = createMcpConnection({ ...own, request, ...(rules === undefined ? {} : { rules }) });
      scoped.set(key, connection);
    }
    return connection;
  };
  return {
    resources: base.resources,
    async callTool(name, args) {
      if (typeof args !== 'object' || args === null || Array.isArray(args)) return base.callTool(name, args);
      const record = args as Record<string, unknown>;
      if (!SCOPE_ARGUMENTS.some((key) => record[key] !== undefined)) return base.callTool(name, args);
      const rest = Object.fromEntries(
        Object.entries(record).filter(([key]) => !(SCOPE_ARGUMENTS as readonly string[]).includes(key)),
      );
      const request = await scopeOf(options, record);
      if (typeof request === 'string') return failure(request);
      return connectionFor(request).callTool(name, rest);
    },
  };
}

/** The request a call's `agent`, `flow` and `step` name, checked; else why not. */
async function scopeOf(
  options: Readonly<McpConnectionOptions>,
  args: Readonly<Record<string, unknown>>,
): Promise<ResolveRequest | string> {
  for (const key of SCOPE_ARGUMENTS) {
    const value = args[key];
    if (
      value !== undefined &&
      (typeof value !== 'string' || value === '' || value.length > MAX_SCOPE_ID_LENGTH)
    )
      return `"${key}" must be a non-empty string of at most ${MAX_SCOPE_ID_LENGTH} characters`;
  }
  const { agent, flow, step } = args as { agent?: string; flow?: string; step?: string };
  if ((flow === undefined) !== (step === undefined))
    return '"flow" and "step" go together: give both, or neither';
  const flows = await options.resolver.flows();
  const known = knownAgents(options.resolver.config, flows);
  if (agent !== undefined && known.size > 0 && !known.has(agent))
    return `Unknown agent ${JSON.stringify(agent)}. The agents are: ${[...known].join(', ')}.`;
  if (flow !== undefined) {
    const found = flows.get(flow);
    if (found === undefined)
      return `Unknown flow ${JSON.stringify(flow)}. The flows are: ${[...flows.keys()].join(', ') || 'none'}.`;
    if (!found.steps.some((candidate) => candidate.id === step))
      return `Unknown step ${JSON.stringify(step)} in flow ${JSON.stringify(flow)}. The steps are: ${found.steps.map((candidate) => candidate.id).join(', ')}.`;
  }
  const base = options.request ?? {};
  return {
    ...base,
    ...(agent === undefined ? {} : { agent }),
    ...(flow === undefined ? {} : { flow, step }),
  };
}

function failure(message: string): ToolResult {
  return { content: [{ type: 'text', text: message }], isError: true };
}
