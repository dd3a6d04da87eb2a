import path from 'node:path';
import { escapeTags } from '../../render/escape.js';
import type { RenderContext, RenderFile } from '../../render/render-types.js';
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

export const copilotFormat: HostFormat = { name: 'copilot', render: renderCopilot };
