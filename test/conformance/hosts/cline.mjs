// Cline CLI (`cline`): one prompt, headless, against the lab's Chat Completions server through its
// `openai-compatible` provider (the settings file `cline auth -p openai-compatible -b URL` writes),
// with the local session backend (no background hub daemon) and no auto-update.
import fs from 'node:fs';
import path from 'node:path';
import { chatToolText, contentTexts, fromMarker } from '../extract.mjs';

const VERSION = '3.0.65';
const OPEN = '# Rules\n';

/** Cline CLI: the `# Rules` section that ends its system prompt; '' when none. */
export function clineInstructions(body) {
  const system = (body?.messages ?? []).filter((message) => message.role === 'system');
  const text = system.flatMap((message) => contentTexts(message.content)).join('\n');
  const start = text.indexOf(`\n\n${OPEN}`);
  return start < 0 ? '' : text.slice(start + 2);
}

export default {
  id: 'cline',
  label: 'Cline CLI',
  preset: 'cline',
  packages: [`cline@${VERSION}`],
  version: VERSION,
  bin: 'node_modules/.bin/cline',
  names: { doc: 'AGENTS.md', user: '.agents/AGENTS.md' },
  prepare({ home, port, prompt, mcpServer }) {
    const dir = path.join(home, '.cline', 'data', 'settings');
    fs.mkdirSync(dir, { recursive: true });
    const settings = {
      version: 1,
      lastUsedProvider: 'openai-compatible',
      modes: {},
      providers: {
        'openai-compatible': {
          settings: {
            provider: 'openai-compatible',
            apiKey: 'lab-key',
            model: 'lab-model',
            baseUrl: `http://127.0.0.1:${port}/v1`,
          },
          updatedAt: '2026-01-01T00:00:00.000Z',
          tokenSource: 'manual',
        },
      },
    };
    fs.writeFileSync(path.join(dir, 'providers.json'), `${JSON.stringify(settings, null, 2)}\n`);
    if (mcpServer) {
      // docs/mcp.md "Cline CLI": the ctxfiles MCP server in its MCP settings file.
      const servers = { ctxfiles: { ...mcpServer, disabled: false } };
      const file = path.join(dir, 'cline_mcp_settings.json');
      fs.writeFileSync(file, `${JSON.stringify({ mcpServers: servers }, null, 2)}\n`);
    }
    // Cline's global settings: telemetry and auto-update off (its settings schema in the binary).
    const global = path.join(dir, 'global-settings.json');
    fs.writeFileSync(global, `${JSON.stringify({ telemetryOptOut: true, autoUpdateEnabled: false })}\n`);
    return {
      args: [prompt],
      env: {
        CLINE_SESSION_BACKEND_MODE: 'local',
        CLINE_NO_AUTO_UPDATE: '1',
        CLINE_GLOBAL_SETTINGS_PATH: global,
        // Its feature flags come from its own PostHog host whatever the telemetry setting; with
        // E2E_TEST=true the CLI uses its no-op flag provider instead (the flags client in the binary).
        E2E_TEST: 'true',
        NO_COLOR: '1',
      },
    };
  },
  toolCall(body, file) {
    const listed = (body?.tools ?? []).some((tool) => tool.function?.name === 'read_files');
    return listed ? { name: 'read_files', args: { files: [{ path: file }] } } : null;
  },
  /** Cline CLI names an MCP tool `<server>__<tool>`. */
  mcpCall(body, file) {
    const name = 'ctxfiles__instructions_for_path';
    const tool = (body?.tools ?? []).find((t) => t.function?.name === name);
    return tool ? { name: tool.function.name, args: { path: file } } : null;
  },
  /**
   * The text of the MCP tool's result. Cline CLI hands the model the JSON of the whole result
   * (`{"content":[…]}`), so the text parts are decoded from it.
   */
  extractMcp(body) {
    const text = chatToolText(body);
    try {
      const parts = JSON.parse(text)?.content;
      return Array.isArray(parts) ? parts.map((part) => part.text ?? '').join('') : text;
    } catch {
      return text;
    }
  },
  hasToolResult: (body) => (body?.messages ?? []).some((m) => m.role === 'tool'),
  isMain: (record) => record.url.includes('/chat/completions') && (record.body?.tools ?? []).length > 0,
  extractStatic: (body) => clineInstructions(body),
  /** Cline CLI adds nothing to a tool result; a `# Rules` heading there would be new. */
  extractLive: (body) => fromMarker(chatToolText(body), OPEN),
  sessionEvent: (file) => ({ tool: 'read_files', input: { files: [{ path: file }] }, ok: true }),
};
