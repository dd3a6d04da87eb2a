// Qwen Code (a Gemini CLI fork): `qwen -p` against the lab's Chat Completions server through its
// OpenAI auth (OPENAI_BASE_URL, OPENAI_API_KEY, OPENAI_MODEL), with usage statistics, telemetry
// and the updater off in ~/.qwen/settings.json. The engines field asks for Node 22; the lab runs
// it on the Node it has (20), which it starts on.
import fs from 'node:fs';
import path from 'node:path';
import { chatToolText, contentTexts, fromMarker, paramKey } from '../extract.mjs';

const VERSION = '0.24.4';
const SEPARATOR = '\n\n---\n\n';

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
  prepare({ home, port, prompt }) {
    const settings = {
      security: { auth: { selectedType: 'openai' } },
      model: { name: 'lab-model' },
      privacy: { usageStatisticsEnabled: false },
      telemetry: { enabled: false },
      general: { disableAutoUpdate: true, disableUpdateNag: true, enableAutoUpdate: false },
    };
    fs.mkdirSync(path.join(home, '.qwen'), { recursive: true });
    fs.writeFileSync(path.join(home, '.qwen/settings.json'), JSON.stringify(settings, null, 2));
    return {
      args: ['-p', prompt, '--approval-mode', 'yolo'],
      env: {
        OPENAI_BASE_URL: `http://127.0.0.1:${port}/v1`,
        OPENAI_API_KEY: 'lab-key',
        OPENAI_MODEL: 'lab-model',
        NO_COLOR: '1',
      },
    };
  },
  toolCall(body, file) {
    const read = (body?.tools ?? []).find((tool) => tool.function?.name === 'read_file');
    if (!read) return null;
    const key = paramKey(read.function.parameters, ['absolute_path', 'file_path', 'path']);
    return { name: 'read_file', args: { [key]: file } };
  },
  hasToolResult: (body) => (body?.messages ?? []).some((m) => m.role === 'tool'),
  isMain: (record) => record.url.includes('/chat/completions') && (record.body?.tools ?? []).length > 0,
  extractStatic: (body) => qwenInstructions(body),
  /** Qwen Code adds only matching `paths:` rules to a tool result, in a `<system-reminder>`. */
  extractLive: (body) => fromMarker(chatToolText(body), '<system-reminder>'),
  sessionEvent: (file) => ({ tool: 'read_file', input: { file_path: file }, ok: true }),
};
