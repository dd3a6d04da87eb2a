// Cline CLI (`cline`): one prompt, headless, against the lab's Chat Completions server through its
// `openai-compatible` provider (the settings file `cline auth -p openai-compatible -b URL` writes),
// with the local session backend (no background hub daemon) and no auto-update.
import fs from 'node:fs';
import path from 'node:path';
import { chatToolText, contentTexts, fromMarker } from '../extract.mjs';

const VERSION = '3.0.65';
const OPEN = '# Rules\n';

/**
 * A PostToolUse hook's text as Cline CLI hands it to the model: a user message of its own after the
 * tool results, `<hook_context source="PostToolUse" tool_name=… tool_call_id=…>`, the text trimmed,
 * `<hook_context` in it escaped (@cline/agents 0.0.86 dist/index.js). The texts inside, in order.
 */
const HOOK_OPEN = /^<hook_context source="PostToolUse"[^>\n]*>\n/;
const HOOK_CLOSE = '\n</hook_context>';
function hookParts(body) {
  return (body?.messages ?? [])
    .filter((message) => message.role === 'user')
    .flatMap((message) => contentTexts(message.content))
    .flatMap((text) =>
      text.split('\n\n<hook_context').map((part, k) => (k === 0 ? part : `<hook_context${part}`)),
    )
    .filter((text) => HOOK_OPEN.test(text) && text.endsWith(HOOK_CLOSE))
    .map((text) => text.replace(HOOK_OPEN, '').slice(0, -HOOK_CLOSE.length));
}
/** What Cline CLI does to a hook's text before it wraps it. */
const asCline = (text) => text.trim().replace(/<(\/?)hook_context/gi, '<\\$1hook_context');

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
  hookAgent: 'cline',
  hookEventName: 'PostToolUse',
  prepare({ home, port, prompt, mcpServer, hookCommand }) {
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
    if (hookCommand) {
      // docs/hooks.md "Cline CLI": a PostToolUse script in the user's hooks folder, as
      // `ctxfiles init cline --user` writes it (with the row's config).
      const hooks = path.join(home, '.cline', 'hooks');
      fs.mkdirSync(hooks, { recursive: true });
      fs.writeFileSync(path.join(hooks, 'PostToolUse'), `#!/bin/sh\nexec ${hookCommand}\n`, { mode: 0o755 });
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
  sessionEvent: (file) => ({
    tool: 'read_files',
    input: { files: [{ path: file }] },
    ok: true,
    hookFields: { tool_name: 'read_files', tool_input: { files: [{ path: file }] }, tool_response: {} },
  }),
  toolResultCount: (body) => (body?.messages ?? []).filter((m) => m.role === 'tool').length,
  /** The hook's answer (`contextModification`). */
  hookAnswerText: (answer) => answer.contextModification ?? '',
  wrapHook: (text) => asCline(text),
  extractHook: (body) => hookParts(body).join('\n'),
  extractAdded: (body) => hookParts(body).join('\n'),
  addedJoin: '\n',
};
