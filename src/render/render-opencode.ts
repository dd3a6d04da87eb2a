/** The header of the `opencode` block (DESIGN §5). The space before `Make` is part of the contract. */
export const OPENCODE_HEADER = '# Project-Specific Context\n Make sure to follow the instructions in the context below\n';

/**
 * Renders the `opencode` block: the header, then each file as `# From:<path>\n<text>`, joined
 * with a newline. No files → the empty string. The text is not escaped: this format has no tags.
 */
export function renderOpencode(files: ReadonlyArray<{ readonly path: string; readonly text: string }>): string {
  if (files.length === 0) return '';
  return OPENCODE_HEADER + files.map((file) => `# From:${file.path}\n${file.text}`).join('\n');
}
