// OpenCode (the TypeScript agent that `opencode-ai` installs): `opencode run` against the lab's
// Chat Completions server through a provider using @ai-sdk/openai-compatible (bundled in the
// binary), with the models list fetch, the updater and sharing off. OpenCode also installs
// `@opencode-ai/plugin` into its config dir at start; a lock file that already lists it stops
// that download.
import fs from 'node:fs';
import path from 'node:path';
import { fromMarker, opencodeInstructions, paramKey } from '../extract.mjs';

const VERSION = '1.18.33';
const contentText = (content) =>
  (Array.isArray(content) ? content : []).map((part) => part?.text ?? '').join('');
const toolNames = (body) => (body?.tools ?? []).map((tool) => tool.function?.name);

/**
 * The setup OpenCode and its forks share: the plugin package's lock file in the config dir
 * (`~/.config/<id>`), a config file `<id>.json` with the lab's provider (plus `config`), the
 * ctxfiles MCP server when the case registers it, and the XDG dirs inside the case's home.
 */
export function prepareOpencodeFamily(
  { home, port, row, prompt, mcpServer },
  { id, plugin, version, env, config },
) {
  const dir = path.join(home, '.config', id);
  fs.mkdirSync(path.join(dir, 'node_modules'), { recursive: true });
  const deps = { dependencies: { [plugin]: version } };
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify(deps));
  fs.writeFileSync(
    path.join(dir, 'package-lock.json'),
    JSON.stringify({ lockfileVersion: 3, packages: { '': deps } }),
  );
  const settings = {
    provider: {
      lab: {
        npm: '@ai-sdk/openai-compatible',
        name: 'lab',
        options: { baseURL: `http://127.0.0.1:${port}/v1`, apiKey: 'lab-key' },
        models: { 'lab-model': { name: 'lab-model' } },
      },
    },
    ...config,
    model: 'lab/lab-model',
    small_model: 'lab/lab-model',
    autoupdate: false,
    share: 'disabled',
    // docs/mcp.md: a local (stdio) server; `ctxfiles init <id>` writes the same shape.
    ...(mcpServer
      ? {
          mcp: {
            ctxfiles: { type: 'local', command: [mcpServer.command, ...mcpServer.args], enabled: true },
          },
        }
      : {}),
    ...(row.hostConfig?.[id]?.config ?? {}),
  };
  fs.writeFileSync(path.join(dir, `${id}.json`), JSON.stringify(settings, null, 2));
  return {
    args: ['run', prompt],
    env: {
      XDG_CONFIG_HOME: path.join(home, '.config'),
      XDG_DATA_HOME: path.join(home, '.local/share'),
      XDG_CACHE_HOME: path.join(home, '.cache'),
      XDG_STATE_HOME: path.join(home, '.local/state'),
      ...env,
    },
  };
}

export default {
  id: 'opencode',
  label: 'OpenCode',
  preset: 'opencode',
  packages: [`opencode-ai@${VERSION}`, `opencode-linux-x64@${VERSION}`],
  version: VERSION,
  bin: 'node_modules/opencode-linux-x64/bin/opencode',
  names: { doc: 'AGENTS.md', user: '.config/opencode/AGENTS.md' },
  prepare: (context) =>
    prepareOpencodeFamily(context, {
      id: 'opencode',
      plugin: '@opencode-ai/plugin',
      version: VERSION,
      env: {
        OPENCODE_DISABLE_MODELS_FETCH: '1',
        OPENCODE_DISABLE_AUTOUPDATE: '1',
        OPENCODE_DISABLE_SHARE: '1',
        OPENCODE_DISABLE_LSP_DOWNLOAD: '1',
      },
    }),
  toolCall(body, file) {
    const read = (body?.tools ?? []).find((tool) => tool.function?.name === 'read');
    if (!read) return null;
    return {
      name: 'read',
      args: { [paramKey(read.function.parameters, ['filePath', 'file_path', 'path'])]: file },
    };
  },
  /** OpenCode names an MCP tool `<server>_<tool>`. */
  mcpCall(body, file) {
    const name = 'ctxfiles_instructions_for_path';
    return toolNames(body).includes(name) ? { name, args: { path: file } } : null;
  },
  /** The text of the MCP tool's result, as OpenCode hands it to the model. */
  extractMcp(body) {
    return (body?.messages ?? [])
      .filter((m) => m.role === 'tool')
      .map((m) => (typeof m.content === 'string' ? m.content : contentText(m.content)))
      .join('\n');
  },
  hasToolResult: (body) => (body?.messages ?? []).some((m) => m.role === 'tool'),
  /** How many tool results the request carries (a script of more than one tool call). */
  toolResultCount: (body) => (body?.messages ?? []).filter((m) => m.role === 'tool').length,
  isMain: (record) => record.url.includes('/chat/completions') && toolNames(record.body).length > 0,
  extractStatic: (body) => opencodeInstructions(body),
  extractLive(body) {
    const tool = (body?.messages ?? []).filter((m) => m.role === 'tool');
    const text = tool
      .map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content)))
      .join('\n');
    return fromMarker(text, '<system-reminder>');
  },
  sessionEvent: (file) => ({ tool: 'read', input: { filePath: file }, ok: true }),
};
