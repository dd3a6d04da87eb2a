import { escapeTags } from '../../escape-tags.js';
import {
  attributeValue,
  type ImportFailure,
  type ImportReference,
  type ImportStyle,
} from '../../imports/import-style.js';

/** Copilot CLI's frame tags; the frames' own tags in file text are escaped (`&lt;`). */
const COPILOT_TAGS = Object.freeze(['custom_instruction', 'imported_custom_instruction']);

/**
 * `copilot`: what Copilot CLI 1.0.102 wrote in the lab: the `@path` line stays, and after it a
 * blank line, `<imported_custom_instruction source="<absolute path>">`, the imported text (its own
 * imports nested the same way) and `</imported_custom_instruction>`, each on its own line. A
 * reference to a file already placed or on the chain gets `<imported_custom_instruction
 * source="…" skipped="already-loaded" />` instead; other failures leave the line alone.
 */
export const copilotImportStyle: ImportStyle = {
  name: 'copilot',
  at: 'line-end',
  frame: (_reference: ImportReference, target: string, body: string) =>
    `\n<imported_custom_instruction source="${attributeValue(target)}">\n${body}${body.endsWith('\n') ? '' : '\n'}</imported_custom_instruction>\n`,
  failed: (failure: ImportFailure) =>
    (failure.code === 'import-cycle' || failure.code === 'import-duplicate') && failure.target !== undefined
      ? `\n<imported_custom_instruction source="${attributeValue(failure.target)}" skipped="already-loaded" />\n`
      : null,
  escape: (text: string) => escapeTags(text, COPILOT_TAGS),
  escapes: true,
};
