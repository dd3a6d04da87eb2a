// GitHub Copilot CLI: `copilot -p` against the lab's Chat Completions server through its own
// model provider settings (COPILOT_PROVIDER_BASE_URL, COPILOT_MODEL), in offline mode
// (COPILOT_OFFLINE: no GitHub sign-in, no telemetry, nothing but the provider).
import fs from 'node:fs';
import { chatToolText, contentTexts, fromMarker, paramKey, systemSpan } from '../extract.mjs';

const VERSION = '1.0.102';

/** The tool a row's scripted call uses: `view`, or `hostConfig.copilot.tool`. */
const toolOf = (row) => row?.hostConfig?.copilot?.tool ?? 'view';
const OPEN = '<custom_instruction>\n';
const CLOSE = '\n</custom_instruction>';

/** The `<custom_instruction>` blocks of the system message, from the first to the end of the last. */
export const copilotInstructions = (body) => systemSpan(body, OPEN, CLOSE);

export default {
  id: 'copilot',
  label: 'Copilot CLI',
  preset: 'copilot',
  packages: [`@github/copilot@${VERSION}`, `@github/copilot-linux-x64@${VERSION}`],
  version: VERSION,
  bin: 'node_modules/@github/copilot-linux-x64/copilot',
  names: { doc: 'AGENTS.md', user: '.copilot/copilot-instructions.md' },
  prepare({ home, port, prompt }) {
    return {
      args: ['-p', prompt, '--allow-all-tools'],
      env: {
        COPILOT_PROVIDER_BASE_URL: `http://127.0.0.1:${port}/v1`,
        COPILOT_PROVIDER_API_KEY: 'lab-key',
        COPILOT_MODEL: 'lab-model',
        COPILOT_OFFLINE: 'true',
        XDG_CONFIG_HOME: `${home}/.config`,
        XDG_STATE_HOME: `${home}/.local/state`,
        XDG_CACHE_HOME: `${home}/.cache`,
      },
    };
  },
  /**
   * The scripted call: `view` of the file, or with `hostConfig.copilot.tool: 'edit'` an `edit` of it
   * that appends a comment to its first line (an edit Copilot CLI carries out).
   */
  toolCall(body, file, row) {
    if (toolOf(row) === 'edit') {
      const first = fs.readFileSync(file, 'utf8').split('\n')[0];
      return { name: 'edit', args: { path: file, old_str: first, new_str: `${first} // edited` } };
    }
    const view = (body?.tools ?? []).find((tool) => tool.function?.name === 'view');
    if (!view) return null;
    return { name: 'view', args: { [paramKey(view.function.parameters, ['path', 'file_path'])]: file } };
  },
  hasToolResult: (body) => (body?.messages ?? []).some((m) => m.role === 'tool'),
  isMain: (record) => record.url.includes('/chat/completions') && (record.body?.tools ?? []).length > 0,
  extractStatic: (body) => copilotInstructions(body),
  /**
   * What Copilot adds after a tool call: anything in its instruction frame in the tool result, and
   * the user message it sends after the result with the instruction files of the folders on the
   * file's path (`<system_reminder>` frames), without the line break that opens it (the host's
   * separator). Copilot CLI 1.0.102 uses the second.
   */
  extractLive: (body) => {
    const messages = body?.messages ?? [];
    const lastTool = messages.findLastIndex((message) => message.role === 'tool');
    const after =
      lastTool < 0
        ? []
        : messages
            .slice(lastTool + 1)
            .filter((message) => message.role === 'user')
            .flatMap((message) => contentTexts(message.content))
            .map((text) => (text.startsWith('\n') ? text.slice(1) : text));
    return [fromMarker(chatToolText(body), '<custom_instruction>'), ...after]
      .filter((text) => text !== '')
      .join('\n');
  },
  sessionEvent: (file, row) => ({ tool: toolOf(row), input: { path: file }, ok: true }),
};
