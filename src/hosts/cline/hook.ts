import type { HookProtocol } from '../../registry/host.js';

/**
 * Cline CLI's hook events by the `hookName` of their input, under the names of the files that
 * receive them (`@cline/core` 0.0.86, shipped with `cline` 3.0.65, `dist/index.js`:
 * `HOOK_CONFIG_FILE_EVENT_MAP`). `PreCompact` maps to no event there: such a file never runs.
 */
const EVENT_NAMES: Readonly<Record<string, string>> = {
  agent_start: 'TaskStart',
  agent_resume: 'TaskResume',
  agent_abort: 'TaskCancel',
  agent_end: 'TaskComplete',
  agent_error: 'TaskError',
  tool_call: 'PreToolUse',
  tool_result: 'PostToolUse',
  prompt_submit: 'UserPromptSubmit',
  session_shutdown: 'SessionShutdown',
};

/**
 * Cline CLI's hook input recast into the fields `ctxfiles hook` reads. The input (the payload its
 * hook runner writes to stdin, `@cline/core` 0.0.86 `dist/index.js`): `hookName` (`tool_result`
 * for a `PostToolUse` file), `taskId` (the conversation), `workspaceRoots` (the session's
 * workspace, one), `agent_id` and `parent_agent_id` (set inside a subagent), and for a tool
 * result `tool_result` (`name`, `input` as the tool received it, `error`) beside `postToolUse`
 * (`toolName`, `parameters` with every value that is not a string as JSON text, `success`).
 */
export function clineHookInput(record: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const hookName = typeof record['hookName'] === 'string' ? record['hookName'] : undefined;
  if (hookName === undefined) return { ...record };
  const roots = record['workspaceRoots'];
  const cwd = Array.isArray(roots) && typeof roots[0] === 'string' ? roots[0] : undefined;
  const result = objectOf(record['tool_result']);
  const post = objectOf(record['postToolUse']);
  const raw = result?.['input'];
  // A tool may take a bare string or list (its schemas accept them): kept under `value`.
  const input =
    raw === undefined || raw === null
      ? parsedParameters(objectOf(post?.['parameters']))
      : (objectOf(raw) ?? { value: raw });
  const failed = post?.['success'] === false || (result?.['error'] !== undefined && result['error'] !== null);
  const parent = record['parent_agent_id'];
  const subagent = typeof parent === 'string' && parent !== '' ? record['agent_id'] : undefined;
  return {
    hook_event_name: EVENT_NAMES[hookName] ?? hookName,
    session_id: record['taskId'],
    ...(cwd === undefined ? {} : { cwd }),
    ...(hookName === 'agent_resume' ? { source: 'resume' } : {}),
    ...(typeof subagent === 'string' ? { agent_id: subagent } : {}),
    tool_name: result?.['name'] ?? post?.['toolName'],
    tool_input: input ?? {},
    tool_response: failed ? { error: result?.['error'] ?? 'failed' } : {},
  };
}

/** The answer Cline CLI reads: the text as `contextModification` (its `HookOutputSchema`). */
export function clineHookOutput(text: string): string {
  return `${JSON.stringify({ contextModification: text })}\n`;
}

/**
 * Cline CLI 3.0.65's command hooks (docs/hooks.md, "Cline CLI"): executables in a hooks folder,
 * named after the event. A `PostToolUse` answer's `contextModification` reaches the model once, as
 * a user message of its own after the tool results (`<hook_context source="PostToolUse" …>`,
 * `@cline/agents` 0.0.86 `dist/index.js`, `flushPendingHookContexts`). `TaskStart` and
 * `UserPromptSubmit` run detached with their output ignored, and `PreCompact` never runs, so the
 * start's text comes with the first tool call and nothing marks a compaction.
 */
export const clineHook: HookProtocol = {
  events: { start: 'TaskStart', afterTool: 'PostToolUse' },
  startWithFirstTool: true,
  input: clineHookInput,
  output: clineHookOutput,
  // The tools of `@cline/core` 0.0.86 (`DefaultToolNames`) and their input schemas. search_codebase
  // (regex queries over the workspace) and fetch_web_content name no path.
  tools: {
    read_files: {
      as: 'read',
      pathKeys: ['files', 'file_paths', 'paths', 'file_path', 'filePath', 'path', 'value'],
      itemKey: 'path',
    },
    editor: { as: 'edit', pathKeys: ['path'] },
    apply_patch: { as: 'patch', pathKeys: ['input', 'value'] },
    run_commands: { as: 'shell', pathKeys: ['commands', 'command', 'cmd', 'value'] },
  },
  init: { toolMatcher: 'alternation' },
};

function objectOf(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

/** `postToolUse.parameters` with the JSON text of lists and objects read back. */
function parsedParameters(
  parameters: Record<string, unknown> | undefined,
): Record<string, unknown> | undefined {
  if (parameters === undefined) return undefined;
  const read = (value: unknown) => {
    if (typeof value !== 'string' || !/^[[{]/.test(value)) return value;
    try {
      return JSON.parse(value) as unknown;
    } catch {
      return value;
    }
  };
  return Object.fromEntries(Object.entries(parameters).map(([key, value]) => [key, read(value)]));
}
