import { escapeReminder } from './escape.js';

/**
 * Renders the bodies disclosed in one tool result (docs/disclosure.md, "Activation and injection"): each as
 * `<system-reminder>\n# From:<path>\n<text>\n</system-reminder>`, joined with a newline. Text
 * that would open or close a `system-reminder` frame is escaped so it cannot end the frame.
 */
export function renderInjection(
  files: ReadonlyArray<{ readonly path: string; readonly text: string }>,
): string {
  return files
    .map((file) => `<system-reminder>\n# From:${file.path}\n${escapeReminder(file.text)}\n</system-reminder>`)
    .join('\n');
}
