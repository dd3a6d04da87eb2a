// Codex CLI: `codex exec` against the lab's Responses server, configured through
// $CODEX_HOME/config.toml (a model provider at 127.0.0.1; analytics and plugins off, which
// otherwise reach outside addresses).
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { codexInstructions, contentTexts, fromMarker } from '../extract.mjs';
import { SUBAGENT_TASK } from '../layer-rows.mjs';

/** The items of a tool call and of its output in a Responses API request (a freeform tool's too). */
const CALLS = ['function_call', 'custom_tool_call'];
const CALL_OUTPUTS = ['function_call_output', 'custom_tool_call_output'];

/** The patch of a `write` row: it adds the file (relative to the cwd) with one line. */
const addFilePatch = (file) =>
  `*** Begin Patch\n*** Add File: ${file}\n+export const added = 1;\n*** End Patch\n`;

/** The auto-compaction limit of a `compact` row, and the usage that reaches it. */
const COMPACT_LIMIT = 100_000;

/** The opening words of Codex's request for a summary of the conversation. */
const COMPACT_PROMPT = 'You are performing a CONTEXT CHECKPOINT COMPACTION.';

export default {
  id: 'codex',
  label: 'Codex CLI',
  preset: 'codex',
  packages: ['@openai/codex@0.171.0'],
  version: '0.171.0',
  bin: 'node_modules/.bin/codex',
  names: { doc: 'AGENTS.md', user: '.codex/AGENTS.md' },
  hookAgent: 'codex',
  /**
   * A `count` row (count-rows.mjs): `ctxfiles init codex --user` writes its block into
   * $CODEX_HOME/config.toml, which the lab's run reads (Codex reads a project's .codex/config.toml
   * only once the project is trusted); then the step a user takes when Codex says "Hooks need
   * review": the trust of those hooks (`[hooks.state]`, see {@link codexTrust}).
   */
  initScope: 'user',
  afterInit(setup) {
    const file = path.join(setup.env.CODEX_HOME, 'config.toml');
    const command = /\ncommand = ("[^\n]* hook codex[^\n]*")\n/.exec(fs.readFileSync(file, 'utf8'));
    if (command) fs.appendFileSync(file, `\n${codexTrust(file, JSON.parse(command[1]))}`);
  },
  hookEventName: 'PostToolUse',
  // As `ctxfiles init codex` writes the hook: shell commands are read for paths.
  hookArgs: ['--shell-paths'],
  prepare({ home, cwd, port, row, prompt, mcpServer, hookCommand }) {
    // `codexHome`: CODEX_HOME names another directory of HOME than `.codex`.
    const codexHome = path.join(home, row.hostConfig?.codex?.codexHome ?? '.codex');
    fs.mkdirSync(codexHome, { recursive: true });
    const extra = row.hostConfig?.codex?.toml ?? '';
    const toml = [
      extra,
      `model = ${JSON.stringify(row.hostConfig?.codex?.model ?? 'lab-model')}`,
      // A `compact` row: Codex compacts once a turn's usage reaches this many tokens.
      ...(row.compact ? [`model_auto_compact_token_limit = ${COMPACT_LIMIT}`] : []),
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
      // `features`: more feature flags of a row (`apply_patch_freeform`: the patch tool).
      ...Object.entries(row.hostConfig?.codex?.features ?? {}).map(([key, value]) => `${key} = ${value}`),
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
    const configFile = path.join(codexHome, 'config.toml');
    // A `subagent` row: only SubagentStart, and the row's subagent as a custom agent (a role).
    const groups = row.subagent ? [['SubagentStart', 'subagent_start', undefined]] : undefined;
    const hooks = hookCommand ? codexHooks(configFile, `${hookCommand} --shell-paths`, groups) : '';
    const agents = row.subagent ? codexAgent(codexHome, row.subagent.type) : '';
    fs.writeFileSync(configFile, `${toml}\n${mcp}\n${agents}\n${hooks}`);
    return {
      // `cdFlag`: the cwd named with `-C` as well, as the user spelled it (a symlink stays one).
      // A `write` row lets Codex write in the workspace (`codex exec` is read-only by default).
      args: [
        'exec',
        '--skip-git-repo-check',
        ...(row.hostConfig?.codex?.cdFlag ? ['-C', cwd] : []),
        ...(row.write ? ['--sandbox', 'workspace-write'] : []),
        prompt,
      ],
      // A `resume` row's second run: `codex exec resume --last` continues the newest session.
      resumeArgs: ['exec', '--skip-git-repo-check', 'resume', '--last', prompt],
      env: { CODEX_HOME: codexHome, LAB_API_KEY: 'lab-key' },
      ctxfilesEnv: { CODEX_HOME: codexHome },
      // Codex takes its cwd from the system (`getcwd`: the real path under a symlinked directory)
      // unless `-C` names one, kept as spelled; ctxfiles started in that directory does the same
      // (`process.cwd()`), and `--cwd` is its `-C`.
      ctxfilesCwd: row.hostConfig?.codex?.cdFlag ? cwd : fs.realpathSync(cwd),
    };
  },
  /**
   * Codex reads files through its shell tool; a `write` row adds its file with the freeform
   * `apply_patch` tool, which Codex offers for the models of its catalog (`hostConfig.codex.model`).
   */
  toolCall(body, file, row) {
    const tools = (body?.tools ?? []).map((tool) => tool.name);
    if (row?.write) {
      const patch = (body?.tools ?? []).find((tool) => tool.type === 'custom' && tool.name === 'apply_patch');
      return patch ? { name: 'apply_patch', custom: true, input: addFilePatch(row.write) } : null;
    }
    if (!tools.includes('exec_command')) return null;
    return { name: 'exec_command', args: { cmd: `cat ${JSON.stringify(file)}` } };
  },
  /** `spawn_agent` of the multi-agent namespace, with the row's custom agent as `agent_type`. */
  subagentCall(body, type, task) {
    const namespace = (body?.tools ?? []).find((tool) => tool.name === 'multi_agent_v1');
    const spawn = namespace?.tools?.some((tool) => tool.name === 'spawn_agent');
    return spawn
      ? { namespace: 'multi_agent_v1', name: 'spawn_agent', args: { message: task, agent_type: type } }
      : null;
  },
  /**
   * `spawn_agent` returns at once and `codex exec` ends with its turn, so after the spawn the main
   * agent waits for the subagent (`wait_agent`), which then makes its requests.
   */
  followSubagent(body) {
    const outputs = (body?.input ?? []).filter((item) => item.type === 'function_call_output');
    if (outputs.length !== 1 || outputs[0].call_id !== 'call_lab_1') return null;
    let agent;
    try {
      agent = JSON.parse(String(outputs[0].output)).agent_id;
    } catch {
      return null;
    }
    return typeof agent === 'string'
      ? {
          namespace: 'multi_agent_v1',
          name: 'wait_agent',
          args: { targets: [agent], timeout_ms: 20_000 },
          callId: 'call_lab_2',
        }
      : null;
  },
  /** A subagent's request holds the lab's task in a user message (the parent's only in a call's arguments). */
  isSubagentRequest: (record) =>
    (record.body?.input ?? []).some(
      (item) =>
        item.type === 'message' &&
        item.role === 'user' &&
        contentTexts(item.content).some((text) => text.includes(SUBAGENT_TASK)),
    ),
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
  fullContextUsage: { input_tokens: COMPACT_LIMIT * 2, total_tokens: COMPACT_LIMIT * 2 },
  /**
   * Codex compacts a conversation with a provider of its own (not OpenAI's) by asking the model,
   * without tools, for a summary: the request ends with a user message that opens with
   * {@link COMPACT_PROMPT}.
   */
  isCompaction: (record) => {
    const last = (record.body?.input ?? []).at(-1);
    return (
      last?.type === 'message' &&
      last.role === 'user' &&
      contentTexts(last.content).some((text) => text.startsWith(COMPACT_PROMPT))
    );
  },
  /**
   * After compacting, Codex 0.171 runs the SessionStart hooks again (after PreCompact; its log says
   * `hook: PreCompact`, `context compacted`, `hook: SessionStart`) and puts their answer, as a
   * developer message, after the summary.
   */
  compactStart: 'session-start',
  /** `extractHook` joins the developer messages it finds with a newline. */
  addedJoin: '\n',
  resumes: true,
  extractCompactStart(body) {
    const input = body?.input ?? [];
    const last = input.findLastIndex((item) => item.type === 'message' && item.role === 'user');
    return input
      .slice(last + 1)
      .filter((item) => item.type === 'message' && item.role === 'developer')
      .flatMap((item) => contentTexts(item.content))
      .join('\n');
  },
  wrapCompactStart: (text) => text,
  toolResultCount: (body) => (body?.input ?? []).filter((item) => CALL_OUTPUTS.includes(item.type)).length,
  hasToolResult: (body) => (body?.input ?? []).some((item) => CALL_OUTPUTS.includes(item.type)),
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
  sessionEvent: (file, row) =>
    row?.write
      ? {
          tool: 'apply_patch',
          input: { input: addFilePatch(row.write) },
          ok: true,
          // What Codex 0.171 sends a PostToolUse hook for a freeform apply_patch call.
          hookFields: {
            tool_name: 'apply_patch',
            tool_input: { command: addFilePatch(row.write) },
            tool_response: '',
          },
        }
      : {
          tool: 'exec_command',
          input: { cmd: `cat ${JSON.stringify(file)}` },
          ok: true,
          // What Codex 0.171 sends a PostToolUse hook for the same call (docs/hooks.md, "Codex").
          hookFields: {
            tool_name: 'Bash',
            tool_input: { command: `cat ${JSON.stringify(file)}` },
            tool_response: '',
          },
        },
  /**
   * The hook's additional context as Codex 0.171 delivers it: a developer message of its own,
   * between the tool call and its output, the text as the hook wrote it.
   */
  wrapHook: (text) => text,
  /** At session start the answer arrives the same way, as developer messages. */
  wrapHookStart: (text) => text,
  /** What the SessionStart hook added: developer messages between Codex's context and the prompt. */
  extractHookStart(body) {
    const input = body?.input ?? [];
    const users = input.flatMap((item, index) =>
      item.type === 'message' && item.role === 'user' ? [index] : [],
    );
    return input
      .slice((users[0] ?? -1) + 1, users[users.length - 1])
      .filter((item) => item.type === 'message' && item.role === 'developer')
      .flatMap((item) => (item.content ?? []).map((part) => part.text ?? ''))
      .join('\n');
  },
  extractHook(body) {
    const input = body?.input ?? [];
    const after = input.findIndex((item) => CALLS.includes(item.type));
    if (after < 0) return '';
    return input
      .slice(after + 1)
      .filter((item) => item.type === 'message' && item.role === 'developer')
      .flatMap((item) => (item.content ?? []).map((part) => part.text ?? ''))
      .join('\n');
  },
};

/**
 * The hook groups `ctxfiles init codex` writes (src/cli/init-hosts.ts), with `command`, and the
 * trust a user gives them in Codex's /hooks step: `[hooks.state."<file>:<event>:<group>:<hook>"]`
 * `trusted_hash`, the SHA-256 of the hook's normalized identity as canonical JSON (openai/codex
 * codex-rs/hooks/src/engine/discovery.rs `command_hook_hash`, config/src/fingerprint.rs
 * `version_for_toml`).
 */
function codexHooks(configFile, command, groups = HOOK_GROUPS) {
  const lines = [];
  for (const [event, , matcher] of groups) {
    lines.push(`[[hooks.${event}]]`);
    if (matcher !== undefined) lines.push(`matcher = ${JSON.stringify(matcher)}`);
    lines.push(
      `[[hooks.${event}.hooks]]`,
      'type = "command"',
      `command = ${JSON.stringify(command)}`,
      'timeout = 30',
    );
  }
  return `${lines.join('\n')}\n${codexTrust(configFile, command, groups)}`;
}

/** The hook groups `ctxfiles init codex` writes: event, Codex's label of it, matcher. */
const HOOK_GROUPS = [
  ['SessionStart', 'session_start', 'startup|resume|clear|compact'],
  ['PostToolUse', 'post_tool_use', '^(Bash|apply_patch)$'],
  ['PreCompact', 'pre_compact', undefined],
];

/** The `[hooks.state]` table that trusts one command in each group of `configFile` (see above). */
function codexTrust(configFile, command, groups = HOOK_GROUPS) {
  const state = ['[hooks.state]'];
  for (const [, label, matcher] of groups) {
    const identity = {
      event_name: label,
      ...(matcher === undefined ? {} : { matcher }),
      hooks: [{ type: 'command', command, timeout: 30, async: false }],
    };
    const hash = crypto
      .createHash('sha256')
      .update(JSON.stringify(sortKeys(identity)))
      .digest('hex');
    state.push(
      `[hooks.state.${JSON.stringify(`${configFile}:${label}:0:0`)}]`,
      `trusted_hash = "sha256:${hash}"`,
    );
  }
  return `${state.join('\n')}\n`;
}

/** A custom agent (Codex's `[agents.<name>]`, a role `spawn_agent` takes as `agent_type`) with its config file. */
function codexAgent(codexHome, name) {
  const file = path.join(codexHome, `agent-${name}.toml`);
  fs.writeFileSync(file, 'model = "lab-model"\n');
  return [
    `[agents.${name}]`,
    `description = ${JSON.stringify(`The ${name} agent of the lab.`)}`,
    `config_file = ${JSON.stringify(file)}`,
  ].join('\n');
}

function sortKeys(value) {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, sortKeys(value[key])]),
  );
}
