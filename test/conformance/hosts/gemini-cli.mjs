// Gemini CLI: `gemini -p` against the lab's Gemini server (GOOGLE_GEMINI_BASE_URL), with an API
// key auth, a fixed model (no routing call) and usage statistics, telemetry and updates off.
import fs from 'node:fs';
import path from 'node:path';
import {
  between,
  contentTexts,
  fromMarker,
  geminiContextIntro,
  geminiInstructions,
  geminiWholeForm,
  paramKey,
} from '../extract.mjs';

/** The ctxfiles format a row asks for (`hostConfig['gemini-cli'].format`), or null. */
const formatOf = (row) => row?.hostConfig?.['gemini-cli']?.format ?? null;

const declarations = (body) => (body?.tools ?? []).flatMap((tool) => tool.functionDeclarations ?? []);

/** The function responses of a request, each as text: its `output`, else the response as JSON. */
function toolOutputs(body) {
  const responses = (body?.contents ?? []).flatMap((c) =>
    (c.parts ?? []).filter((part) => part.functionResponse),
  );
  return responses.map((part) => {
    const response = part.functionResponse.response ?? {};
    return typeof response.output === 'string' ? response.output : JSON.stringify(response);
  });
}

export default {
  id: 'gemini-cli',
  label: 'Gemini CLI',
  preset: 'gemini-cli',
  packages: ['@google/gemini-cli@0.61.0'],
  version: '0.61.0',
  bin: 'node_modules/.bin/gemini',
  names: { doc: 'GEMINI.md', user: '.gemini/GEMINI.md' },
  hookAgent: 'gemini-cli',
  /**
   * A `count` row (count-rows.mjs), after `ctxfiles init gemini-cli`: `gemini -p` leaves out a tool
   * that asks for confirmation, so the user's answer "always allow" to the server's tool, as the
   * user setting `tools.allowed` (its `mcp_<server>_<tool>` name) holds it.
   */
  afterInit(setup, dirs) {
    const file = path.join(dirs.home, '.gemini/settings.json');
    const settings = JSON.parse(fs.readFileSync(file, 'utf8'));
    settings.tools = { ...settings.tools, allowed: ['mcp_ctxfiles_instructions_for_path'] };
    fs.writeFileSync(file, JSON.stringify(settings, null, 2));
  },
  prepare({ home, port, row, prompt, hookCommand, mcpServer }) {
    const settings = {
      security: { auth: { selectedType: 'gemini-api-key' } },
      privacy: { usageStatisticsEnabled: false },
      telemetry: { enabled: false },
      general: { disableAutoUpdate: true, disableUpdateNag: true },
      ...(row.hostConfig?.['gemini-cli']?.settings ?? {}),
    };
    if (mcpServer) settings.mcpServers = { ctxfiles: { ...mcpServer, trust: true } };
    if (hookCommand) {
      // docs/hooks.md: an AfterTool hook in the user's settings (timeout in milliseconds).
      const hook = { name: 'ctxfiles-after-tool', type: 'command', command: hookCommand, timeout: 30000 };
      settings.hooks = { AfterTool: [{ matcher: '^(read_file)$', hooks: [hook] }] };
      if (row.hookStart) settings.hooks.SessionStart = [{ hooks: [{ ...hook, name: 'ctxfiles-start' }] }];
      // A row of several turns: the groups `ctxfiles init gemini-cli` writes (src/cli/init-hosts.ts).
      if (row.compact || row.resume || row.reads) {
        settings.hooks.SessionStart = [{ matcher: '*', hooks: [{ ...hook, name: 'ctxfiles-start' }] }];
        settings.hooks.PreCompress = [{ matcher: '*', hooks: [{ ...hook, name: 'ctxfiles-precompress' }] }];
        settings.hooks.BeforeModel = [{ matcher: '*', hooks: [{ ...hook, name: 'ctxfiles-beforemodel' }] }];
      }
    }
    fs.mkdirSync(path.join(home, '.gemini'), { recursive: true });
    fs.writeFileSync(path.join(home, '.gemini/settings.json'), JSON.stringify(settings, null, 2));
    return {
      ...(formatOf(row) ? { ctxfilesArgs: ['--format', formatOf(row)] } : {}),
      args: ['-p', prompt, '-m', 'gemini-2.5-flash'],
      // A `resume` row's second run: `--resume latest` continues the newest session of the project.
      resumeArgs: ['-p', prompt, '-m', 'gemini-2.5-flash', '--resume', 'latest'],
      env: {
        GOOGLE_GEMINI_BASE_URL: `http://127.0.0.1:${port}`,
        GEMINI_API_KEY: 'lab-key',
        GEMINI_CLI_TRUST_WORKSPACE: 'true',
        NO_COLOR: '1',
      },
    };
  },
  toolCall(body, file) {
    const read = declarations(body).find((tool) => tool.name === 'read_file');
    if (!read) return null;
    const key = paramKey(read.parametersJsonSchema ?? read.parameters, [
      'file_path',
      'absolute_path',
      'path',
    ]);
    return { name: 'read_file', args: { [key]: file } };
  },
  mcpCall(body, file) {
    const tool = declarations(body).find((decl) => /instructions_for_path$/.test(decl.name));
    return tool ? { name: tool.name, args: { path: file } } : null;
  },
  /**
   * The MCP tool's answer as Gemini CLI put it in the function response, inside the
   * `<untrusted_context>` wrapper it puts around every MCP tool's output.
   */
  extractMcp: (body) =>
    toolOutputs(body)
      .map((text) => between(text, '<untrusted_context>\n', '\n</untrusted_context>') ?? text)
      .join('\n'),
  /**
   * Gemini CLI compresses the history before a turn when the last answer's prompt token count
   * passes half the model's limit (packages/core/src/services/chatCompressionService.ts:
   * DEFAULT_COMPRESSION_TOKEN_THRESHOLD 0.5 of tokenLimit, 1,048,576 for gemini-2.5-flash); it
   * asks the model for a `<state_snapshot>` and then to check it, two requests with the
   * compression prompt as system instruction.
   */
  resumes: true,
  fullContextUsage: { promptTokenCount: 1_000_000, totalTokenCount: 1_000_000 },
  isCompaction: (record) =>
    contentTexts(record.body?.systemInstruction?.parts).some((text) => text.includes('<state_snapshot>')),
  toolResultCount: (body) =>
    (body?.contents ?? []).flatMap((c) => (c.parts ?? []).filter((part) => part.functionResponse)).length,
  hasToolResult: (body) =>
    (body?.contents ?? []).some((c) => (c.parts ?? []).some((part) => part.functionResponse)),
  isMain: (record) => record.url.includes(':streamGenerateContent') && declarations(record.body).length > 0,
  extractStatic: (body, row) =>
    formatOf(row) === 'gemini-full' ? geminiWholeForm(body) : geminiInstructions(body),
  /** The whole form's paragraph is our own wording by default; the lab compares with Gemini's. */
  wording: (body, row) => {
    const intro = formatOf(row) === 'gemini-full' ? geminiContextIntro(body) : null;
    return intro === null ? null : { geminiContextIntro: intro };
  },
  extractLive: (body) => fromMarker(toolOutputs(body).join('\n'), '--- Newly Discovered Project Context ---'),
  sessionEvent: (file) => ({
    tool: 'read_file',
    input: { file_path: file },
    ok: true,
    hookFields: { tool_name: 'read_file', tool_input: { file_path: file }, tool_response: {} },
  }),
  /** docs/hooks.md: Gemini CLI appends the answer in `<hook_context>` with `<` and `>` escaped. */
  wrapHook: (text) =>
    text === '' ? '' : `<hook_context>${text.replaceAll('<', '&lt;').replaceAll('>', '&gt;')}</hook_context>`,
  extractHook: (body) => fromMarker(toolOutputs(body).join('\n'), '<hook_context>'),
  /** Every `<hook_context>` of the request's tool results, in order, joined by a newline (`addedJoin`). */
  extractAdded: (body) =>
    toolOutputs(body)
      .flatMap((text) => text.match(/<hook_context>[\s\S]*?<\/hook_context>/g) ?? [])
      .join('\n'),
  addedJoin: '\n',
  /**
   * At session start Gemini CLI's non-interactive mode puts the answer before the prompt, in
   * `<hook_context>` (packages/cli/src/gemini.tsx), `<` and `>` escaped as after a tool.
   */
  wrapHookStart: (text) =>
    text === '' ? '' : `<hook_context>${text.replaceAll('<', '&lt;').replaceAll('>', '&gt;')}</hook_context>`,
  extractHookStart: (body) => {
    const first = (body?.contents ?? []).find((content) => content.role === 'user');
    const text = (first?.parts ?? []).map((part) => part.text ?? '').join('\n');
    const start = text.indexOf('<hook_context>');
    const end = text.indexOf('</hook_context>\n\n', start);
    return start < 0 || end < 0 ? '' : text.slice(start, end + '</hook_context>'.length);
  },
};
