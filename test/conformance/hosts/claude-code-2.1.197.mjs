// Claude Code 2.1.197: the newest version npm installs for a Node 20 user (2.1.198 and later
// declare Node 22 in `engines`), driven as the pinned Claude Code is (./claude-code.mjs) and
// compared with the `claude-code-2.1.197` preset. Its hook protocol is Claude Code's.
import { contentTexts } from '../extract.mjs';
import claudeCode from './claude-code.mjs';

const VERSION = '2.1.197';

/** Where 2.1.197 puts the instruction files: a `# claudeMd` section of the first user message. */
const SECTION = '\n# claudeMd\n';

/** The section after it, which ends the instruction text. */
const NEXT = '\n# currentDate\n';

export default {
  ...claudeCode,
  id: 'claude-code-2.1.197',
  label: 'Claude Code',
  preset: 'claude-code-2.1.197',
  packages: [`@anthropic-ai/claude-code@${VERSION}`, `@anthropic-ai/claude-code-linux-x64@${VERSION}`],
  version: VERSION,
  // The MCP rows run against the newest Claude Code only: 2.1.197 answered before the ctxfiles MCP
  // server had started on a loaded machine (its tool missing from the first request), once in two.
  mcpCall: undefined,
  /** 2.1.197 puts a PostToolUse hook's additional context, after its label, in a `<system-reminder>`. */
  wrapHook: (text) =>
    text === ''
      ? ''
      : `<system-reminder>\nPostToolUse:Read hook additional context: ${text}\n</system-reminder>`,
  /**
   * 2.1.197 sends the files in the first user message's `<system-reminder>`, under `As you answer
   * the user's questions, you can use the following context:` as a `# claudeMd` section, before
   * `# currentDate`; '' when no file was loaded.
   */
  extractStatic(body) {
    const first = (body?.messages ?? []).find((message) => message.role === 'user');
    for (const text of contentTexts(first?.content)) {
      const at = text.indexOf(SECTION);
      if (at < 0) continue;
      const end = text.indexOf(NEXT, at);
      return text.slice(at + SECTION.length, end < 0 ? undefined : end);
    }
    return '';
  },
};
