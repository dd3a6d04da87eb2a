// Qwen Code (a Gemini CLI fork): `qwen -p` against the lab's Chat Completions server through its
// OpenAI auth (OPENAI_BASE_URL, OPENAI_API_KEY, OPENAI_MODEL), with usage statistics, telemetry
// and the updater off in ~/.qwen/settings.json. The engines field asks for Node 22; the lab runs
// it on the Node it has (20), which it starts on.
import fs from 'node:fs';
import path from 'node:path';
import { chatToolText, contentTexts, fromMarker, paramKey } from '../extract.mjs';

const VERSION = '0.24.4';
const SEPARATOR = '\n\n---\n\n';

/** Qwen Code's wrapper around a SessionStart hook's text in the system message (packages/core/src/core/geminiChat.ts). */
const START_OPEN = '<qwen:session-start-context hidden="true">\nSessionStart additional context:\n';
const START_CLOSE = '\n</qwen:session-start-context>';

/** Qwen Code escapes `<` and `>` in a hook's additional context (packages/core/src/hooks/types.ts). */
const escaped = (text) => text.replaceAll('<', '&lt;').replaceAll('>', '&gt;');

/** What a hook appended to each tool result: from the hook's frame (the `qwen` session frame) to the result's end. */
const hookParts = (body) =>
  (body?.messages ?? [])
    .filter((message) => message.role === 'tool')
    .map((message) =>
      fromMarker(contentTexts(message.content).join('\n'), '--- Newly Discovered Project Context ---'),
    )
    .filter((text) => text !== '');

/** A SessionStart hook's text in the system message, with Qwen Code's wrapper; '' when none. */
function startText(body) {
  const system = (body?.messages ?? []).filter((message) => message.role === 'system');
  const text = system.flatMap((message) => contentTexts(message.content)).join('\n');
  const start = text.lastIndexOf(START_OPEN);
  const end = text.indexOf(START_CLOSE, start);
  return start < 0 || end < 0 ? '' : text.slice(start, end + START_CLOSE.length);
}

const BLOCK = /^--- (Context|Rule) from: (.*) ---\n[\s\S]*?\n--- End of \1 from: \2 ---/;

/**
 * The context part of the system message: Qwen Code puts `\n\n---\n\n` and the joined blocks
 * after its base prompt (getCoreSystemPrompt in its core package), then other sections (its auto
 * memory). The `--- Context from: …` and `--- Rule from: …` blocks from there on, as they were
 * joined (a blank line between two). The block of `~/.qwen/output-language.md` is left out: Qwen
 * Code writes that file itself on its first start (a reply-language rule) and adds it to every
 * context; it is not an instruction file. '' when none.
 */
export function qwenInstructions(body) {
  const system = (body?.messages ?? []).filter((message) => message.role === 'system');
  const text = system.flatMap((message) => contentTexts(message.content)).join('\n');
  const at = text.indexOf(`${SEPARATOR}--- `);
  if (at < 0) return '';
  let rest = text.slice(at + SEPARATOR.length);
  const blocks = [];
  for (let match = BLOCK.exec(rest); match; match = BLOCK.exec(rest)) {
    if (!match[2].endsWith('/.qwen/output-language.md')) blocks.push(match[0]);
    rest = rest.slice(match[0].length);
    if (!rest.startsWith('\n\n')) break;
    rest = rest.slice(2);
  }
  return blocks.join('\n\n');
}

export default {
  id: 'qwen-code',
  label: 'Qwen Code',
  preset: 'qwen-code',
  packages: [`@qwen-code/qwen-code@${VERSION}`],
  version: VERSION,
  bin: 'node_modules/.bin/qwen',
  names: { doc: 'QWEN.md', user: '.qwen/QWEN.md' },
  hookAgent: 'qwen-code',
  hookEventName: 'PostToolUse',
  prepare({ home, port, row, prompt, hookCommand }) {
    const settings = {
      security: { auth: { selectedType: 'openai' } },
      model: { name: 'lab-model' },
      privacy: { usageStatisticsEnabled: false },
      telemetry: { enabled: false },
      general: { disableAutoUpdate: true, disableUpdateNag: true, enableAutoUpdate: false },
    };
    if (hookCommand && (row.subagent || row.mode)) {
      // docs/subagents.md: the events that carry a subagent's and a mode's layers.
      const hooks = [{ type: 'command', command: hookCommand, timeout: 30 }];
      settings.hooks = {
        SubagentStart: [{ matcher: '*', hooks }],
        UserPromptSubmit: [{ matcher: '*', hooks }],
      };
    } else if (hookCommand) {
      // The groups `ctxfiles init qwen-code` writes (src/cli/init-hosts.ts), in the user's settings.
      const hooks = [{ type: 'command', command: hookCommand, timeout: 30 }];
      settings.hooks = {
        SessionStart: [{ matcher: '*', hooks }],
        PostToolUse: [{ matcher: '^(read_file|write_file|edit|list_directory|glob|grep_search)$', hooks }],
        PreCompact: [{ hooks }],
      };
    }
    fs.mkdirSync(path.join(home, '.qwen'), { recursive: true });
    fs.writeFileSync(path.join(home, '.qwen/settings.json'), JSON.stringify(settings, null, 2));
    return {
      args: ['-p', prompt, '--approval-mode', row.mode?.name ?? 'yolo'],
      // A `resume` row's second run: `--continue` resumes the project's most recent session.
      resumeArgs: ['-p', prompt, '--approval-mode', 'yolo', '--continue'],
      env: {
        OPENAI_BASE_URL: `http://127.0.0.1:${port}/v1`,
        OPENAI_API_KEY: 'lab-key',
        OPENAI_MODEL: 'lab-model',
        NO_COLOR: '1',
      },
    };
  },
  /** Qwen Code's `agent` tool starting a subagent of that type with the lab's task. */
  subagentCall(body, type, task) {
    const agent = (body?.tools ?? []).some((tool) => tool.function?.name === 'agent');
    return agent
      ? { name: 'agent', args: { description: 'Lab task', prompt: task, subagent_type: type } }
      : null;
  },
  /** `--approval-mode <mode>`: Qwen Code reports it as `permission_mode`. */
  modeArgs: (mode) => ['--approval-mode', mode],
  /** The text of the first user message: a subagent's is its task. */
  firstUserText(body) {
    const first = (body?.messages ?? []).find((message) => message.role === 'user');
    return first ? contentTexts(first.content).join('\n') : '';
  },
  /** Qwen Code escapes `<` and `>` in a hook's additional context. */
  escapeHookText: (text) => escaped(text),
  toolCall(body, file) {
    const read = (body?.tools ?? []).find((tool) => tool.function?.name === 'read_file');
    if (!read) return null;
    const key = paramKey(read.function.parameters, ['absolute_path', 'file_path', 'path']);
    return { name: 'read_file', args: { [key]: file } };
  },
  hasToolResult: (body) => (body?.messages ?? []).some((m) => m.role === 'tool'),
  isMain: (record) => record.url.includes('/chat/completions') && (record.body?.tools ?? []).length > 0,
  /**
   * A request of Qwen Code's own background agent, not of the conversation: after a turn, 0.24.4
   * asks the model to extract "managed memory" (its system message opens with that role).
   */
  isSideRequest: (record) =>
    (record.body?.messages ?? [])
      .filter((message) => message.role === 'system')
      .flatMap((message) => contentTexts(message.content))
      .some((text) => text.startsWith('You are now acting as the managed memory extraction subagent')),
  extractStatic: (body) => qwenInstructions(body),
  /** Qwen Code adds only matching `paths:` rules to a tool result, in a `<system-reminder>`. */
  extractLive: (body) => fromMarker(chatToolText(body), '<system-reminder>'),
  sessionEvent: (file) => ({
    tool: 'read_file',
    input: { file_path: file },
    ok: true,
    hookFields: { tool_name: 'read_file', tool_input: { file_path: file }, tool_response: {} },
  }),
  resumes: true,
  /**
   * Qwen Code compresses before a turn when the last answer's prompt token count passes its
   * threshold (packages/core/src/services/chatCompressionService.ts, `computeThresholds`), asking
   * the model for a `<state_snapshot>`; after it, SessionStart with source `compact`.
   */
  fullContextUsage: { prompt_tokens: 180_000, completion_tokens: 2, total_tokens: 180_002 },
  isCompaction: (record) =>
    (record.body?.messages ?? [])
      .flatMap((message) => contentTexts(message.content))
      .some((text) => text.includes('produce the <state_snapshot> XML')),
  compactStart: 'session-start',
  /** A summary without a non-empty `<state_snapshot>` fails the compression (`hasStateSnapshot`). */
  summary: (text) => `<state_snapshot>\n${text}\n</state_snapshot>`,
  /**
   * Qwen Code takes the summary request's prompt tokens as the history it compressed away; with the
   * default 10, the new history would count more than the full one and the compression is undone.
   */
  summaryUsage: { prompt_tokens: 180_000, completion_tokens: 20, total_tokens: 180_020 },
  toolResultCount: (body) => (body?.messages ?? []).filter((m) => m.role === 'tool').length,
  /** Qwen Code appends a PostToolUse hook's text to the tool result after a blank line, `<` and `>` escaped. */
  wrapHook: (text) => escaped(text),
  extractHook: (body) => hookParts(body).join('\n'),
  extractAdded: (body) => hookParts(body).join('\n'),
  addedJoin: '\n',
  /** A SessionStart hook's text goes at the end of the system message, in Qwen Code's wrapper, escaped. */
  wrapHookStart: (text) => (text.trim() === '' ? '' : `${START_OPEN}${escaped(text.trim())}${START_CLOSE}`),
  /** After a compaction the start's text (source `compact`) replaces the first in the system message. */
  wrapCompactStart: (text) =>
    text.trim() === '' ? '' : `${START_OPEN}${escaped(text.trim())}${START_CLOSE}`,
  extractCompactStart: startText,
  extractHookStart: startText,
};
