import { failureComment, type ImportFailure } from './failure-comment.js';
import type { ImportReference } from './scan-imports.js';

export type { ImportFailure, ImportReference };

/**
 * How `inline` mode writes an imported file into its importer's text (docs/imports.md, "Inline
 * styles"). ctxfiles' own is {@link COMMENT_STYLE}; a host module may define its host's
 * (`Host.importStyles`), which its presets choose by name (host profile `importStyle`).
 */
export interface ImportStyle {
  /** The name a host profile's `importStyle` gives. */
  readonly name: string;
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
export const COMMENT_STYLE: ImportStyle = Object.freeze({
  name: 'comment',
  at: 'reference' as const,
  frame: (reference: ImportReference, _target: string, body: string) =>
    `<!-- Imported from: ${reference.spelled} -->\n${body}\n<!-- End of import from: ${reference.spelled} -->`,
  failed: failureComment,
  escape: (text: string) => text,
  escapes: false,
});

/** A path as a double-quoted attribute value: only `&`, `"` and `<` are written as entities. */
export function attributeValue(value: string): string {
  return value.replace(/[&"<]/g, (char) => (char === '&' ? '&amp;' : char === '"' ? '&quot;' : '&lt;'));
}
