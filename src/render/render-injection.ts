import { escapeFramePath, escapeReminder } from './escape.js';

/**
 * Renders the bodies disclosed in one tool result (docs/disclosure.md, "Activation and injection"): each as
 * `<system-reminder>\n# From:<path>\n<text>\n</system-reminder>`, joined with a newline. Text
 * that would open or close a `system-reminder` frame is escaped so it cannot end the frame; the path
 * keeps to one line and cannot hold a tag ({@link escapeFramePath}).
 */
export function renderInjection(
  files: ReadonlyArray<{ readonly path: string; readonly text: string }>,
): string {
  return files
    .map(
      (file) =>
        `<system-reminder>\n# From:${escapeFramePath(file.path)}\n${escapeReminder(file.text)}\n</system-reminder>`,
    )
    .join('\n');
}
