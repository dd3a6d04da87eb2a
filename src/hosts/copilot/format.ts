import path from 'node:path';
import { escapeHeaderPath, escapeTags } from '../../render/escape.js';
import { frameBody, type FrameFile, type RenderContext, type RenderFile } from '../../render/render-types.js';
import type { HostFormat } from '../../registry/host.js';

/** The tags of Copilot CLI's instruction frames; ctxfiles escapes them in file text. */
export const COPILOT_TAGS = Object.freeze(['custom_instruction', 'imported_custom_instruction']);

/**
 * The order Copilot CLI 1.0.102 gave the lab: the user file, then the instruction files of the
 * chain's first directory (the repository root), those of the work dir, then those of the
 * directories between, outermost first; then everything else (rule files) as found.
 */
function copilotOrder(files: readonly RenderFile[], workDir: string): RenderFile[] {
  const user = files.filter((file) => file.layer === 'user');
  const chain = files.filter((file) => file.layer === 'chain');
  const rest = files.filter((file) => file.layer !== 'user' && file.layer !== 'chain');
  const first = chain[0] === undefined ? undefined : path.dirname(chain[0].path);
  const inFirst = chain.filter((file) => path.dirname(file.path) === first);
  const inWorkDir = chain.filter((file) => first !== workDir && path.dirname(file.path) === workDir);
  const between = chain.filter((file) => !inFirst.includes(file) && !inWorkDir.includes(file));
  return [...user, ...inFirst, ...inWorkDir, ...between, ...rest];
}

/**
 * `copilot`: what Copilot CLI puts in its system message for instruction files (observed in the
 * conformance lab; its loader is native code, `custom_instructions.rs` in its runtime): per file
 * `<custom_instruction>`, the text as written, `</custom_instruction>`, each on its own line, blocks
 * joined by a blank line; no path, no intro; an empty file is a block too. `custom_instruction`
 * and `imported_custom_instruction` tags in the text are escaped (`&lt;`) so that a file cannot end
 * its block; a file whose imports the `copilot` import style framed was escaped by it already
 * (`escaped`), the same tags, so its frames stay. A budget notice comes first, as its own paragraph.
 */
export function renderCopilot(files: readonly RenderFile[], context: RenderContext, notice?: string): string {
  const blocks = copilotOrder(files, context.workDir).map(
    (file) =>
      `<custom_instruction>\n${file.escaped === true ? file.text : escapeTags(file.text, COPILOT_TAGS)}\n</custom_instruction>`,
  );
  if (blocks.length === 0 && notice === undefined) return '';
  return [...(notice === undefined ? [] : [notice]), ...blocks].join('\n\n');
}

/** The tags of Copilot CLI's frame for the files of a folder a tool worked in, besides {@link COPILOT_TAGS}. */
const REMINDER_TAGS = Object.freeze([...COPILOT_TAGS, 'system_reminder']);

/**
 * In a session: after a `view` of a file, Copilot CLI 1.0.102 adds the instruction files of the
 * folders between the work dir and that file (the work dir's own are in its system message) as a
 * user message after the tool result (the lab's `copilot-nested-read`; its runtime is native code):
 * per file `<system_reminder>`, `Custom instructions from <path from the work dir>. Apply these to
 * any code you write here:`, a blank line, the text as written and `</system_reminder>`, each on its
 * own line, the closest folder first, frames joined by a line break. The message opens with a line
 * break, the host's separator. Its frame tags in the text are escaped, as in the `copilot` block.
 */
export function copilotSessionFrame(
  files: readonly FrameFile[],
  context?: Pick<RenderContext, 'workDir' | 'homeDir'>,
): string {
  const shown = (file: string) =>
    context === undefined ? file : path.relative(context.workDir, file).split(path.sep).join('/');
  return [...files]
    .sort((a, b) => b.dir.length - a.dir.length)
    .map(
      (file) =>
        `<system_reminder>\nCustom instructions from ${escapeHeaderPath(shown(file.path))}. Apply these to any code you write here:\n\n${escapeTags(frameBody(file), REMINDER_TAGS)}\n</system_reminder>`,
    )
    .join('\n');
}

export const copilotFormat: HostFormat = {
  name: 'copilot',
  render: renderCopilot,
  sessionFrame: copilotSessionFrame,
};
