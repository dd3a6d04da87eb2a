// Claude Code: `claude -p` against the lab's Messages server (ANTHROPIC_BASE_URL), with
// non-essential traffic, telemetry, error reports and the updater off.
import fs from 'node:fs';
import path from 'node:path';
import { CLAUDE_MEMORY_OPEN, claudeInstructions, contentTexts } from '../extract.mjs';

const START_LABEL = 'SessionStart hook additional context: ';

const MCP_TOOL = 'mcp__ctxfiles__instructions_for_path';

/** The session id of a `resume` row's first run, which the second resumes. */
const SESSION = '6c0ffee0-1ab0-4000-8000-000000000001';

/** The instruction that opens Claude Code's request for a summary of the conversation. */
const COMPACT_PROMPT = 'CRITICAL: Respond with TEXT ONLY. Do NOT call any tools.';

/** Where Claude Code's system message goes on after the SessionStart text (first turn, after a compaction). */
const START_ENDS = ['\n\n# Environment\n', "\n\nToday's date is "];

/** A SessionStart hook's text from its label up to Claude Code's next section; '' when none. */
function startText(body) {
  const texts = (body?.messages ?? [])
    .filter((message) => message.role === 'system')
    .flatMap((message) => contentTexts(message.content));
  for (const text of texts) {
    const at = text.indexOf(START_LABEL);
    if (at < 0) continue;
    const ends = START_ENDS.map((end) => text.indexOf(end, at)).filter((end) => end >= 0);
    return text.slice(at, ends.length === 0 ? text.length : Math.min(...ends));
  }
  return '';
}

/** The tool result blocks of a request, in order. */
const toolResults = (body) =>
  (body?.messages ?? [])
    .flatMap((m) => (Array.isArray(m.content) ? m.content : []))
    .filter((part) => part.type === 'tool_result');

const hasResult = (message) =>
  Array.isArray(message.content) && message.content.some((part) => part.type === 'tool_result');

/** The text blocks of the user and system messages given, a tool's own output left out. */
function addedIn(messages) {
  const added = [];
  for (const message of messages) {
    if (message.role !== 'user' && message.role !== 'system') continue;
    const parts = Array.isArray(message.content)
      ? message.content
      : [{ type: 'text', text: message.content }];
    for (const part of parts) {
      if (part.type === 'tool_result') {
        const inner = contentTexts(part.content).join('\n');
        const at = inner.indexOf('<system-reminder>');
        if (at >= 0) added.push(inner.slice(at));
      } else if (typeof part.text === 'string' && !part.text.startsWith(CLAUDE_MEMORY_OPEN)) {
        added.push(part.text);
      }
    }
  }
  return added.join('');
}

export default {
  id: 'claude-code',
  label: 'Claude Code',
  preset: 'claude-code',
  // The binary is in the platform package; pinned too, since a plain install resolved an older one.
  packages: ['@anthropic-ai/claude-code@2.1.332', '@anthropic-ai/claude-code-linux-x64@2.1.332'],
  version: '2.1.332',
  bin: 'node_modules/@anthropic-ai/claude-code-linux-x64/claude',
  names: { doc: 'CLAUDE.md', user: '.claude/CLAUDE.md' },
  hookAgent: 'claude-code',
  /**
   * A `count` row (count-rows.mjs), after `ctxfiles init claude-code`: what a user answers when
   * Claude Code asks about the project's `.mcp.json` server and its tool (use it, always allow),
   * in `.claude/settings.local.json`, where Claude Code keeps those answers.
   */
  afterInit(setup, dirs) {
    const local = { enabledMcpjsonServers: ['ctxfiles'], permissions: { allow: [MCP_TOOL] } };
    fs.writeFileSync(path.join(dirs.repo, '.claude/settings.local.json'), JSON.stringify(local, null, 2));
  },
  prepare({ home, port, row, prompt, hookCommand, mcpServer }) {
    const mcpArgs = [];
    if (mcpServer) {
      // docs/mcp.md: a stdio server; --mcp-config with --strict-mcp-config reads only this one.
      const file = path.join(home, 'lab-mcp.json');
      fs.writeFileSync(file, JSON.stringify({ mcpServers: { ctxfiles: { type: 'stdio', ...mcpServer } } }));
      mcpArgs.push('--mcp-config', file, '--strict-mcp-config', '--allowedTools', MCP_TOOL);
    }
    if (hookCommand && (row.subagent || row.mode)) {
      // docs/subagents.md: the events that carry a subagent's and a mode's layers.
      const hook = [{ type: 'command', command: hookCommand, timeout: 30 }];
      const hooks = { SubagentStart: [{ hooks: hook }], UserPromptSubmit: [{ hooks: hook }] };
      fs.mkdirSync(path.join(home, '.claude'), { recursive: true });
      fs.writeFileSync(path.join(home, '.claude/settings.json'), JSON.stringify({ hooks }, null, 2));
    } else if (hookCommand) {
      // docs/hooks.md: a PostToolUse hook in the user's settings; with `hookStart`, the groups
      // `ctxfiles init claude-code` writes (src/cli/init-hosts.ts).
      const hook = [{ type: 'command', command: hookCommand, timeout: 30 }];
      const hooks =
        row.hookStart || row.compact || row.resume
          ? {
              SessionStart: [{ matcher: 'startup|resume|clear|compact', hooks: hook }],
              PostToolUse: [{ matcher: 'Read|Write|Edit|MultiEdit|NotebookEdit|Glob|Grep|LS', hooks: hook }],
              PreCompact: [{ hooks: hook }],
            }
          : { PostToolUse: [{ matcher: 'Read', hooks: hook }] };
      fs.mkdirSync(path.join(home, '.claude'), { recursive: true });
      fs.writeFileSync(path.join(home, '.claude/settings.json'), JSON.stringify({ hooks }, null, 2));
    }
    return {
      // A `resume` row names its session, and the second run resumes it (`--resume`).
      args: [
        '-p',
        prompt,
        '--model',
        'lab-model',
        ...mcpArgs,
        ...(row.resume ? ['--session-id', SESSION] : []),
        ...(row.mode ? ['--permission-mode', row.mode.name] : []),
      ],
      resumeArgs: ['-p', prompt, '--model', 'lab-model', '--resume', SESSION],
      env: {
        ANTHROPIC_BASE_URL: `http://127.0.0.1:${port}`,
        ANTHROPIC_API_KEY: 'lab-key',
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
        DISABLE_AUTOUPDATER: '1',
        DISABLE_TELEMETRY: '1',
        DISABLE_ERROR_REPORTING: '1',
        DISABLE_BUG_COMMAND: '1',
        CLAUDE_CODE_MAX_RETRIES: '0',
        // MCP tools are declared directly, not deferred behind ToolSearch, unless a row searches.
        ENABLE_TOOL_SEARCH: row.mcp?.search ? 'true' : 'false',
      },
    };
  },
  /** The Agent tool (Task in older versions) starting a subagent of that type with the lab's task. */
  subagentCall(body, type, task) {
    const tools = (body?.tools ?? []).map((tool) => tool.name);
    const name = ['Agent', 'Task'].find((candidate) => tools.includes(candidate));
    return name ? { name, args: { description: 'Lab task', prompt: task, subagent_type: type } } : null;
  },
  /** `--permission-mode <mode>` (the mode is the prompt's `permission_mode`). */
  modeArgs: (mode) => ['--permission-mode', mode],
  /** The text of the first user message: a subagent's is its task. */
  firstUserText(body) {
    const first = (body?.messages ?? []).find((message) => message.role === 'user');
    if (!first) return '';
    return typeof first.content === 'string' ? first.content : contentTexts(first.content).join('\n');
  },
  toolCall(body, file) {
    const tools = (body?.tools ?? []).map((tool) => tool.name);
    return tools.includes('Read') ? { name: 'Read', args: { file_path: file } } : null;
  },
  /**
   * The MCP tool call; with `mcp.search` (tool search on, the tool deferred), first a ToolSearch
   * with those words, then the tool only if the search's result names it.
   */
  mcpCall(body, file, mcp) {
    const tools = (body?.tools ?? []).map((tool) => tool.name);
    const call = { name: MCP_TOOL, args: { path: file } };
    if (!mcp?.search) return tools.includes(MCP_TOOL) ? call : null;
    const results = toolResults(body);
    if (results.length === 0) {
      return tools.includes('ToolSearch')
        ? { name: 'ToolSearch', args: { query: mcp.search }, id: 'toolu_lab_1' }
        : null;
    }
    const found = results.length === 1 && results[0].content?.some?.((part) => part.tool_name === MCP_TOOL);
    return found ? { ...call, id: 'toolu_lab_2' } : null;
  },
  /** The text of the MCP tool's result (another tool's, such as ToolSearch's, left out). */
  extractMcp(body) {
    const ids = new Set(
      (body?.messages ?? [])
        .flatMap((m) => (Array.isArray(m.content) ? m.content : []))
        .filter((part) => part.type === 'tool_use' && part.name === MCP_TOOL)
        .map((part) => part.id),
    );
    const results = toolResults(body).filter((part) => ids.has(part.tool_use_id));
    return results.map((part) => contentTexts(part.content).join('')).join('');
  },
  hasToolResult: (body) => (body?.messages ?? []).some(hasResult),
  isMain: (record) =>
    record.url.includes('/messages') &&
    !record.url.includes('count_tokens') &&
    Array.isArray(record.body?.tools) &&
    record.body.tools.length > 0,
  extractStatic: (body) => claudeInstructions(body),
  /**
   * The text blocks Claude Code sent with the tool result (the tool's own output left out),
   * concatenated as they are: each block but the last ends with its own newline.
   */
  extractLive(body) {
    const messages = body?.messages ?? [];
    const index = messages.findIndex(hasResult);
    return index < 0 ? '' : addedIn(messages.slice(index));
  },
  /** How many tool results the request carries (a script of more than one read). */
  toolResultCount: (body) => toolResults(body).length,
  sessionEvent: (file) => ({
    tool: 'Read',
    input: { file_path: file },
    ok: true,
    hookFields: { tool_name: 'Read', tool_input: { file_path: file }, tool_response: {} },
  }),
  /** Claude Code's label before a PostToolUse hook's additional context (as the host sends it). */
  wrapHook: (text) => (text === '' ? '' : `PostToolUse:Read hook additional context: ${text}`),
  /** Claude Code's label before a SessionStart hook's additional context (as the host sends it). */
  wrapHookStart: (text) => (text === '' ? '' : `${START_LABEL}${text}`),
  /**
   * What the SessionStart hook added: 2.1.332 puts it, after its label, at the head of the system
   * message that follows the prompt, before its own `# Environment` section.
   */
  extractHookStart: startText,
  /**
   * Auto-compaction: Claude Code compacts before a turn when the last answer's usage fills the
   * context window it assumes for a model it does not know (1M tokens; the warning
   * `unrecognized_model` says so), then asks the model for a summary with {@link COMPACT_PROMPT}.
   */
  fullContextUsage: { input_tokens: 995_000 },
  isCompaction: (record) =>
    record.url.includes('/messages') &&
    (record.body?.messages ?? [])
      .filter((message) => message.role === 'user')
      .at(-1)
      ?.content?.some?.((part) => part.type === 'text' && part.text.startsWith(COMPACT_PROMPT)) === true,
  /** After a compaction Claude Code starts the session again (SessionStart, source `compact`). */
  compactStart: 'session-start',
  /** The SessionStart text after a compaction: in the system message, after the model line. */
  extractCompactStart: startText,
  wrapCompactStart: (text) => (text === '' ? '' : `${START_LABEL}${text}`),
  /** `claude -p --resume <session id>` continues a session, hooks and all. */
  resumes: true,
};
