import { tagEscape } from '../../render/escape.js';
import type { RenderContext, RenderFile } from '../../render/render-types.js';
import type { HostFormat } from '../../registry/host.js';

/** `<project_instructions>` tags inside a `pi` frame. */
export const PI_FILE_TAG = tagEscape('project_instructions');

/** `<project_context>` tags inside a `pi` frame. */
export const PI_SECTION_TAG = tagEscape('project_context');

const INTRO = 'Project-specific instructions and guidelines:';

/** A file's text as the frame holds it: pi's own tags escaped, nothing else changed. */
const escapeText = (text: string): string => PI_SECTION_TAG.escape(PI_FILE_TAG.escape(text));

/**
 * `pi`: the `project_context` section of pi's system prompt (`renderProjectContext` and
 * `buildSystemPromptSections` in `@earendil-works/pi-coding-agent` 1.6.0
 * `dist/core/system-prompt.js`): `<project_context>`, the line `Project-specific instructions and
 * guidelines:`, then per file `<project_instructions path="ABS">`, its text as read and
 * `</project_instructions>`, parts joined by a blank line, and `</project_context>`. Paths are
 * absolute and written as they are (pi does not escape them); an empty file still gets its frame.
 * pi writes the text raw; ctxfiles escapes the two tags in it, so a file cannot close the section.
 * A budget notice is the first paragraph after the intro line.
 */
export function renderPi(files: readonly RenderFile[], _context: RenderContext, notice?: string): string {
  if (files.length === 0 && notice === undefined) return '';
  const parts = [
    INTRO,
    ...(notice === undefined ? [] : [notice]),
    ...files.map(
      (file) =>
        `<project_instructions path="${file.path}">\n${escapeText(file.text)}\n</project_instructions>`,
    ),
  ];
  return `<project_context>\n${parts.join('\n\n')}\n</project_context>`;
}

export const piFormat: HostFormat = {
  name: 'pi',
  render: renderPi,
  // pi writes a file's text into its section as it is: its own tags there end or reopen the frame.
  frameTags: ['project_instructions', 'project_context'],
  frameBreaks: (text) =>
    escapeText(text) === text
      ? null
      : "pi's own <project_instructions> or <project_context> tag, which pi sends as written (the text after it leaves the frame)",
};
