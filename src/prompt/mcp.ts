import { escapeXmlText } from '../render/escape.js';

/** An MCP server as the runner sees it. Only `id`, `name`, `status`, `toolCount`, `access` and `instructions` are read. */
export interface McpServerInfo {
  readonly id: string;
  readonly name?: string | undefined;
  readonly status: 'ready' | 'connecting' | 'failed' | 'disabled' | string;
  readonly toolCount: number;
  /** How the model reaches its tools. Default `codemode`. */
  readonly access?: 'codemode' | 'direct' | undefined;
  /** The instructions the server returned at initialization, if any. */
  readonly instructions?: string | undefined;
  readonly [key: string]: unknown;
}

/** Characters of an MCP summary before it is cut with an ellipsis. */
export const MCP_SUMMARY_CHARS = 160;

/**
 * `<mcp_servers>`: one line per ready server with at least one tool: id, name, access, and a
 * summary from the first non-empty line of its instructions (at most 160 characters, counted as
 * Unicode code points, then `…`). Connecting, failed, disabled and tool-less servers are left
 * out, and nothing is taken from commands, URLs, environment or authentication settings. Empty
 * when no server qualifies.
 */
export function renderMcpSection(servers: readonly McpServerInfo[]): string {
  const lines = servers
    .filter((server) => server.status === 'ready' && server.toolCount > 0)
    .map((server) => {
      const summary = summarize(server.instructions);
      const name =
        server.name !== undefined && server.name !== '' && server.name !== server.id
          ? ` (${server.name})`
          : '';
      return `- ${server.id}${name}, access: ${server.access ?? 'codemode'}${summary === '' ? '' : `: ${summary}`}`;
    });
  return lines.length === 0 ? '' : `<mcp_servers>\n${escapeXmlText(lines.join('\n'))}\n</mcp_servers>`;
}

/** The first non-empty line, trimmed and cut to {@link MCP_SUMMARY_CHARS} code points plus `…`. */
export function summarize(instructions: string | undefined): string {
  if (instructions === undefined) return '';
  const line =
    instructions
      .split(/\r?\n/)
      .map((entry) => entry.trim())
      .find((entry) => entry !== '') ?? '';
  const chars = Array.from(line.replace(/[\u0000-\u001f\u007f]/g, ' '));
  return chars.length <= MCP_SUMMARY_CHARS
    ? chars.join('')
    : `${chars.slice(0, MCP_SUMMARY_CHARS).join('')}…`;
}
