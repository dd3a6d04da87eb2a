import { escapeControl } from './escape.js';

/** The header of the `opencode` block (docs/formats.md). The space before `Make` is part of the contract. */
export const OPENCODE_HEADER =
  '# Project-Specific Context\n Make sure to follow the instructions in the context below\n';

/**
 * Renders the `opencode` block: the header, then each file as `# From:<path>\n<text>`, joined
 * with a newline. No files → the empty string. The text is not escaped: this format has no tags; the path keeps to one line (control
 * characters as `\uXXXX`).
 * A `notice` (from the budget) is a line placed right after the header.
 */
export function renderOpencode(
  files: ReadonlyArray<{ readonly path: string; readonly text: string }>,
  notice?: string,
): string {
  if (files.length === 0 && notice === undefined) return '';
  const body = files.map((file) => `# From:${escapeControl(file.path)}\n${file.text}`);
  return OPENCODE_HEADER + [...(notice === undefined ? [] : [notice]), ...body].join('\n');
}
