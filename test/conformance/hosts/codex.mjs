// Codex CLI: `codex exec` against the lab's Responses server, configured through
// $CODEX_HOME/config.toml (a model provider at 127.0.0.1; analytics and plugins off, which
// otherwise reach outside addresses).
import fs from 'node:fs';
import path from 'node:path';
import { codexInstructions, fromMarker } from '../extract.mjs';

export default {
  id: 'codex',
  label: 'Codex CLI',
  preset: 'codex',
  packages: ['@openai/codex@0.171.0'],
  version: '0.171.0',
  bin: 'node_modules/.bin/codex',
  names: { doc: 'AGENTS.md', user: '.codex/AGENTS.md' },
  prepare({ home, cwd, port, row, prompt, mcpServer }) {
    const codexHome = path.join(home, '.codex');
    fs.mkdirSync(codexHome, { recursive: true });
    const extra = row.hostConfig?.codex?.toml ?? '';
    const toml = [
      extra,
      'model = "lab-model"',
      'model_provider = "lab"',
      'check_for_update_on_startup = false',
      '[model_providers.lab]',
      'name = "lab"',
      `base_url = "http://127.0.0.1:${port}/v1"`,
      'wire_api = "responses"',
      'env_key = "LAB_API_KEY"',
      'request_max_retries = 0',
      'stream_max_retries = 0',
      '[analytics]',
      'enabled = false',
      '[features]',
      'plugins = false',
      '[otel]',
      'exporter = "none"',
    ].join('\n');
    const mcp = mcpServer
      ? [
          '[mcp_servers.ctxfiles]',
          `command = ${JSON.stringify(mcpServer.command)}`,
          `args = ${JSON.stringify(mcpServer.args)}`,
        ].join('\n')
      : '';
    fs.writeFileSync(path.join(codexHome, 'config.toml'), `${toml}\n${mcp}\n`);
    return {
      // `cdFlag`: the cwd named with `-C` as well, as the user spelled it (a symlink stays one).
      args: ['exec', '--skip-git-repo-check', ...(row.hostConfig?.codex?.cdFlag ? ['-C', cwd] : []), prompt],
      env: { CODEX_HOME: codexHome, LAB_API_KEY: 'lab-key' },
      ctxfilesEnv: { CODEX_HOME: codexHome },
      // Codex takes its cwd from the system (`getcwd`: the real path under a symlinked directory)
      // unless `-C` names one, kept as spelled; ctxfiles started in that directory does the same
      // (`process.cwd()`), and `--cwd` is its `-C`.
      ctxfilesCwd: row.hostConfig?.codex?.cdFlag ? cwd : fs.realpathSync(cwd),
    };
  },
  /** Codex reads files through its shell tool. */
  toolCall(body, file) {
    const tools = (body?.tools ?? []).map((tool) => tool.name);
    if (!tools.includes('exec_command')) return null;
    return { name: 'exec_command', args: { cmd: `cat ${JSON.stringify(file)}` } };
  },
  /** docs/mcp.md: Codex declares an MCP server's tools as one namespace tool, `mcp__<server>`. */
  mcpCall(body, file) {
    const namespace = (body?.tools ?? []).find((tool) => tool.name === 'mcp__ctxfiles');
    return namespace
      ? { namespace: 'mcp__ctxfiles', name: 'instructions_for_path', args: { path: file } }
      : null;
  },
  /** The text parts of the MCP tool's output, without the `Wall time: … Output:` line Codex puts first. */
  extractMcp(body) {
    const outputs = (body?.input ?? []).filter((item) => item.type === 'function_call_output');
    const parts = outputs.flatMap((item) =>
      Array.isArray(item.output) ? item.output : [{ text: String(item.output) }],
    );
    return parts
      .map((part) => part.text ?? '')
      .filter((text) => !/^Wall time: [\d.]+ seconds\nOutput:$/.test(text))
      .join('');
  },
  hasToolResult: (body) => (body?.input ?? []).some((item) => item.type === 'function_call_output'),
  isMain: (record) => record.url.includes('/responses') && Array.isArray(record.body?.tools),
  extractStatic: (body) => codexInstructions(body),
  /** Anything Codex adds to the tool output in its own AGENTS.md frame. */
  extractLive(body) {
    const outputs = (body?.input ?? []).filter((item) => item.type === 'function_call_output');
    const text = outputs
      .map((item) => (typeof item.output === 'string' ? item.output : JSON.stringify(item.output)))
      .join('\n');
    return fromMarker(text, '# AGENTS.md instructions');
  },
  sessionEvent: (file) => ({ tool: 'exec_command', input: { cmd: `cat ${JSON.stringify(file)}` }, ok: true }),
};
