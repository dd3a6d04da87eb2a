import type { WordingConfig } from '../config/types.js';
import { displayPath } from './display-path.js';
import { escapeControl, escapeHeaderPath, escapeReminderText } from './escape.js';
import { withoutFinalNewline } from './render-formats.js';
import type { FormatLookup } from './render-types.js';

/** Something a session reports in a tool result (docs/chains.md, "Change tracking"). */
export type InstructionEvent =
  | { readonly kind: 'new'; readonly path: string; readonly dir: string; readonly text: string }
  | {
      readonly kind: 'updated';
      readonly path: string;
      readonly text: string;
      readonly previousPath?: string | undefined;
    }
  | { readonly kind: 'removed'; readonly path: string };

/** Paths and wording for event frames. */
export interface EventContext {
  readonly workDir: string;
  readonly homeDir: string;
  readonly wording: WordingConfig;
  /** The host formats, for the session frame a host format defines (src/registry). */
  readonly formats: FormatLookup;
}

/**
 * Renders one event as its own `<system-reminder>` frame:
 * - new scope: `Additional instructions from: <path>`, a note naming the directory, the text;
 * - updated: `Updated instructions from: <path>` (and `Previously from: <old>` for a switched
 *   candidate), a note, the text;
 * - removed: `Instructions removed: <path>` and a note.
 * Paths are shown as in the `xml` format; text is escaped so it cannot end the frame.
 */
export function renderEvent(event: InstructionEvent, context: EventContext): string {
  const show = (file: string) => escapeHeaderPath(displayPath(file, context.workDir, context.homeDir));
  let parts: string[];
  switch (event.kind) {
    case 'new': {
      const dir = escapeControl(displayPath(event.dir, context.workDir, context.homeDir));
      // A file of the work dir itself applies everywhere: no directory (and no absolute path) to name.
      const scope =
        event.dir === context.workDir
          ? context.wording.everywhereNote
          : context.wording.scopeNote.split('{dir}').join(dir);
      parts = [
        `Additional instructions from: ${show(event.path)}`,
        escapeReminderText(scope),
        escapeReminderText(withoutFinalNewline(event.text)),
      ];
      break;
    }
    case 'updated': {
      const header = `Updated instructions from: ${show(event.path)}${event.previousPath === undefined ? '' : `\nPreviously from: ${show(event.previousPath)}`}`;
      parts = [
        header,
        escapeReminderText(context.wording.updatedNote),
        escapeReminderText(withoutFinalNewline(event.text)),
      ];
      break;
    }
    case 'removed':
      parts = [`Instructions removed: ${show(event.path)}`, escapeReminderText(context.wording.removedNote)];
      break;
  }
  return `<system-reminder>\n${parts.join('\n\n')}\n</system-reminder>`;
}
