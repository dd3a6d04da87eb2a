import { escapeTags } from '../escape-tags.js';
import { failureComment, type ImportFailure } from './failure-comment.js';
import type { ImportReference } from './scan-imports.js';

/** The names of the inline import styles (a host profile's `importStyle`, docs/imports.md). */
export type ImportStyleName = 'comment' | 'copilot';

/** How `inline` mode writes an imported file into its importer's text. */
export interface ImportStyle {
  /**
   * `reference`: the frame takes the place of the reference; `line-end`: the reference stays and
   * the frame follows the end of its line (after its line break).
   */
  readonly at: 'reference' | 'line-end';
  /** The imported file's `body` (its own imports expanded) in its frame. */
  frame(reference: ImportReference, target: string, body: string): string;
  /** What stands for a reference not followed, with `imports.failed: comment`; `null`: nothing. */
  failed(failure: ImportFailure): string | null;
  /** Applied to every piece of file text the expansion copies; the frames are left alone. */
  escape(text: string): string;
  /** False when {@link escape} is the identity. */
  readonly escapes: boolean;
}

/** `comment`: the imported text between HTML comments, in place of the reference. */
const COMMENT_STYLE: ImportStyle = Object.freeze({
  at: 'reference' as const,
  frame: (reference: ImportReference, _target: string, body: string) =>
    `<!-- Imported from: ${reference.spelled} -->\n${body}\n<!-- End of import from: ${reference.spelled} -->`,
  failed: failureComment,
  escape: (text: string) => text,
  escapes: false,
});

/** Copilot CLI's frame tags; the frames' own tags in file text are escaped (`&lt;`). */
const COPILOT_TAGS = Object.freeze(['custom_instruction', 'imported_custom_instruction']);

/**
 * `copilot`: what Copilot CLI 1.0.102 wrote in the lab: the `@path` line stays, and after it a
 * blank line, `<imported_custom_instruction source="<absolute path>">`, the imported text (its own
 * imports nested the same way) and `</imported_custom_instruction>`, each on its own line. A
 * reference to a file already placed or on the chain gets `<imported_custom_instruction
 * source="…" skipped="already-loaded" />` instead; other failures leave the line alone.
 */
const COPILOT_STYLE: ImportStyle = Object.freeze({
  at: 'line-end' as const,
  frame: (_reference: ImportReference, target: string, body: string) =>
    `\n<imported_custom_instruction source="${attribute(target)}">\n${body}${body.endsWith('\n') ? '' : '\n'}</imported_custom_instruction>\n`,
  failed: (failure: ImportFailure) =>
    (failure.code === 'import-cycle' || failure.code === 'import-duplicate') && failure.target !== undefined
      ? `\n<imported_custom_instruction source="${attribute(failure.target)}" skipped="already-loaded" />\n`
      : null,
  escape: (text: string) => escapeTags(text, COPILOT_TAGS),
  escapes: true,
});

/** A path as a double-quoted attribute value: only `&`, `"` and `<` are written as entities. */
function attribute(value: string): string {
  return value.replace(/[&"<]/g, (char) => (char === '&' ? '&amp;' : char === '"' ? '&quot;' : '&lt;'));
}

/** The style of an `importStyle` name. */
export function importStyle(name: ImportStyleName): ImportStyle {
  return name === 'copilot' ? COPILOT_STYLE : COMMENT_STYLE;
}
