// Continue CLI: `cn -p` against the lab's Chat Completions server through a local config file
// (`--config`, an `openai` model with `apiBase` at 127.0.0.1), with its telemetry off.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chatToolText, fromMarker, paramKey, systemSpan } from '../extract.mjs';

// Continue CLI asks its own server for the newest version when it loads, whatever the settings:
// this preload makes such a fetch fail at once, as offline (hosts/offline-fetch.cjs).
const OFFLINE = fileURLToPath(new URL('./offline-fetch.cjs', import.meta.url));

const VERSION = '1.5.47';
const OPEN = '<context name="userRules">';
const CLOSE = '\n</context>';

/** Continue CLI: the `<context name="userRules">` section of the system message, tags included. */
export const continueInstructions = (body) => systemSpan(body, OPEN, CLOSE);

export default {
  id: 'continue',
  label: 'Continue CLI',
  preset: 'continue',
  packages: [`@continuedev/cli@${VERSION}`],
  version: VERSION,
  bin: 'node_modules/.bin/cn',
  names: { doc: 'AGENTS.md', user: '.continue/rules/user.md' },
  prepare({ home, port, prompt, mcpServer }) {
    const dir = path.join(home, '.continue');
    fs.mkdirSync(dir, { recursive: true });
    const config = [
      'name: lab',
      'version: 1.0.0',
      'schema: v1',
      'models:',
      '  - name: lab-model',
      '    provider: openai',
      '    model: lab-model',
      `    apiBase: http://127.0.0.1:${port}/v1`,
      '    apiKey: lab-key',
      '    roles: [chat, edit, apply]',
      // docs/mcp.md "Continue CLI": the ctxfiles MCP server, in config.yaml's mcpServers list.
      ...(mcpServer
        ? [
            'mcpServers:',
            '  - name: ctxfiles',
            `    command: ${JSON.stringify(mcpServer.command)}`,
            `    args: ${JSON.stringify(mcpServer.args)}`,
          ]
        : []),
    ].join('\n');
    const file = path.join(dir, 'lab-config.yaml');
    fs.writeFileSync(file, `${config}\n`);
    return {
      args: ['-p', prompt, '--config', file, '--auto'],
      env: {
        CONTINUE_CLI_ENABLE_TELEMETRY: '0',
        CONTINUE_METRICS_ENABLED: '0',
        CONTINUE_CLI_AUTO_UPDATED: '1',
        CONTINUE_API_BASE: 'http://127.0.0.1:9/',
        NO_COLOR: '1',
        NODE_OPTIONS: `--require ${OFFLINE}`,
      },
    };
  },
  toolCall(body, file) {
    const read = (body?.tools ?? []).find((tool) => tool.function?.name === 'Read');
    if (!read) return null;
    return {
      name: 'Read',
      args: { [paramKey(read.function.parameters, ['filepath', 'file_path', 'path'])]: file },
    };
  },
  /** Continue CLI lists an MCP server's tools by their bare names. */
  mcpCall(body, file) {
    const name = 'instructions_for_path';
    const listed = (body?.tools ?? []).some((tool) => tool.function?.name === name);
    return listed ? { name, args: { path: file } } : null;
  },
  /**
   * The text of the MCP tool's result. Continue CLI hands the model the JSON of the result's
   * content list (`JSON.stringify(result?.content)`, src/tools/index.tsx), so the text parts are
   * decoded from it.
   */
  extractMcp(body) {
    const text = chatToolText(body);
    try {
      const parts = JSON.parse(text);
      return Array.isArray(parts) ? parts.map((part) => part.text ?? '').join('') : text;
    } catch {
      return text;
    }
  },
  hasToolResult: (body) => (body?.messages ?? []).some((m) => m.role === 'tool'),
  isMain: (record) => record.url.includes('/chat/completions') && (record.body?.tools ?? []).length > 0,
  extractStatic: (body) => continueInstructions(body),
  /** Continue CLI adds nothing to a tool result; anything in a `<context` tag there would be new. */
  extractLive: (body) => fromMarker(chatToolText(body), '<context'),
  sessionEvent: (file) => ({ tool: 'Read', input: { filepath: file }, ok: true }),
};
