import type { Format } from '../config/types.js';
import { displayPath } from './display-path.js';
import {
  escapeControl,
  escapeHeaderPath,
  escapeReminderText,
  escapeXmlAttribute,
  escapeXmlText,
} from './escape.js';
import { renderOpencode } from './render-opencode.js';
import type { FormatLookup, RenderContext, RenderFile } from './render-types.js';

export type { RenderContext, RenderFile } from './render-types.js';

/**
 * Renders files in a format (docs/formats.md). `notice`, when set, is a visible line placed after
 * the format's preamble (the budget uses it). No files and no notice → the empty string, except
 * `magi`, which then says that no instruction files were found. A host's own format (`codex`,
 * `claude-code`, …) is rendered by its host module, found through `context.formats`.
 */
export function renderFormat(
  format: Format,
  files: readonly RenderFile[],
  context: RenderContext,
  notice?: string,
): string {
  const host = context.formats(format);
  if (host !== undefined) return host.render(files, context, notice);
  switch (format) {
    case 'opencode':
      return renderOpencode(files, notice);
    case 'xml':
      return renderXml(files, context, notice);
    case 'reminder':
      return renderReminder(files, context, notice);
    case 'magi':
      return renderMagi(files, context, notice);
    default:
      throw new Error(`ctxfiles: the format "${format}" has no renderer`);
  }
}

/**
 * What a file's text holds that the format's host would read as its own frame and ctxfiles
 * escapes (a phrase for the `frame-escaped` warning), or `null`. The engine's formats: never.
 */
export function frameBreaks(format: Format, text: string, formats: FormatLookup): string | null {
  return formats(format)?.frameBreaks?.(text) ?? null;
}

/** `<project_context>` with one `<project_instructions path="…">` per file (docs/formats.md, `xml`). */
function renderXml(files: readonly RenderFile[], context: RenderContext, notice: string | undefined): string {
  if (files.length === 0 && notice === undefined) return '';
  const blocks = files.map((file) => {
    const text = escapeXmlText(file.text);
    const shown = escapeXmlAttribute(displayPath(file.path, context.workDir, context.homeDir));
    return `<project_instructions path="${shown}">\n${text}${text.endsWith('\n') ? '' : '\n'}</project_instructions>`;
  });
  return [
    '<project_context>',
    ...(notice === undefined ? [] : [escapeXmlText(notice)]),
    ...blocks,
    '</project_context>',
  ].join('\n');
}

/**
 * One `<system-reminder>` frame: a preamble, then `Instructions from: <path>`, a blank line and the
 * text per file (one final newline of the text is dropped).
 */
function renderReminder(
  files: readonly RenderFile[],
  context: RenderContext,
  notice: string | undefined,
): string {
  if (files.length === 0 && notice === undefined) return '';
  const parts = [escapeReminderText(context.wording.reminderIntro)];
  if (notice !== undefined) parts.push(escapeReminderText(notice));
  for (const file of files) {
    parts.push(
      `Instructions from: ${escapeHeaderPath(displayPath(file.path, context.workDir, context.homeDir))}`,
      escapeReminderText(withoutFinalNewline(file.text)),
    );
  }
  return `<system-reminder>\n${parts.join('\n\n')}\n</system-reminder>`;
}

/** Drops one final newline: the frame's own line breaks separate the blocks. */
export function withoutFinalNewline(text: string): string {
  return text.endsWith('\n') ? text.slice(0, -1) : text;
}

/**
 * `<Additional-Context-Files>` with raw `<Context File=PATH>` blocks (docs/formats.md, `magi`).
 * Text is not escaped; the path keeps to one line.
 */
function renderMagi(
  files: readonly RenderFile[],
  context: RenderContext,
  notice: string | undefined,
): string {
  if (files.length === 0 && notice === undefined) return context.wording.magiEmpty;
  const blocks = files.map(
    (file) =>
      `<Context File=${escapeControl(file.path)}>\n${file.text}${file.text.endsWith('\n') ? '' : '\n'}</Context>`,
  );
  return [
    '<Additional-Context-Files>',
    context.wording.magiIntro,
    ...(notice === undefined ? [] : [notice]),
    ...blocks,
    '</Additional-Context-Files>',
  ].join('\n');
}
