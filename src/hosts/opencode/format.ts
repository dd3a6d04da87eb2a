import { escapeHeaderPath, lineEscape, tagEscape } from '../../render/escape.js';
import type { FrameFile, RenderContext, RenderFile } from '../../render/render-types.js';
import type { HostFormat } from '../../registry/host.js';

/** OpenCode's header before each file's text, in the system prompt and in a read result. */
export const OPENCODE_HEADER = 'Instructions from: ';

/**
 * A line of file text that reads like OpenCode's header: it gets a leading backslash, so that a
 * file cannot pass its own lines off as another file (OpenCode writes such lines as they are).
 */
const HEADER_LINE = lineEscape(OPENCODE_HEADER);

/** `system-reminder` tags inside the session frame: a file cannot close the frame. */
const REMINDER_TAG = tagEscape('system-reminder');

/** One file as OpenCode writes it: the header with the absolute path, a newline, the raw text. */
function entry(file: { readonly path: string; readonly text: string }): string {
  return `${OPENCODE_HEADER}${escapeHeaderPath(file.path)}\n${HEADER_LINE.escape(file.text)}`;
}

/**
 * `opencode-cli`: per file `Instructions from: <absolute path>`, a newline and the text as read,
 * files joined by a newline, as OpenCode 1.18 puts them into its system prompt
 * (`Instruction.system` in sst/opencode packages/opencode/src/session/instruction.ts). A file whose
 * text is empty is left out, as OpenCode leaves it out. A budget notice comes first.
 */
function renderOpencodeCli(files: readonly RenderFile[], _context: RenderContext, notice?: string): string {
  const entries = files.filter((file) => file.text !== '').map(entry);
  return [...(notice === undefined ? [] : [notice]), ...entries].join('\n');
}

/**
 * `opencode-cli` in the session: one `<system-reminder>` around every file a read discloses, the
 * entries joined by a blank line, as OpenCode appends nested AGENTS.md files to its `read` tool's
 * result (packages/opencode/src/tool/read.ts). The text's `system-reminder` tags are escaped.
 */
function opencodeCliSessionFrame(files: readonly FrameFile[]): string {
  const entries = files
    .filter((file) => file.text !== '')
    .map((file) => entry({ path: file.path, text: REMINDER_TAG.escape(file.text) }));
  return entries.length === 0 ? '' : `<system-reminder>\n${entries.join('\n\n')}\n</system-reminder>`;
}

export const opencodeCliFormat: HostFormat = {
  name: 'opencode-cli',
  render: renderOpencodeCli,
  sessionFrame: opencodeCliSessionFrame,
};
