import { unescapeHeaderPath, unescapeReminderText, unescapeXml } from '../../src/render/escape.js';

/** A block parsed back out of rendered output. */
export interface ParsedBlock {
  readonly path: string;
  readonly text: string;
}

/**
 * A strict parser for the `xml` format: the frame, then only `<project_instructions>` blocks.
 * Returns `null` when the structure is not exactly that.
 */
export function parseXml(text: string): ParsedBlock[] | null {
  if (text === '') return [];
  if (!text.startsWith('<project_context>\n') || !text.endsWith('\n</project_context>')) return null;
  const body = text.slice('<project_context>\n'.length, -'\n</project_context>'.length);
  const blocks: ParsedBlock[] = [];
  const pattern = /<project_instructions path="([^"<>]*)">\n([^<]*)<\/project_instructions>(\n|$)/gy;
  let match: RegExpExecArray | null;
  let consumed = 0;
  while ((match = pattern.exec(body)) !== null) {
    blocks.push({ path: unescapeXml(match[1] as string), text: unescapeXml(match[2] as string) });
    consumed = pattern.lastIndex;
  }
  return consumed === body.length ? blocks : null;
}

/**
 * A strict parser for the `reminder` format: exactly one frame, a preamble, then blocks that each
 * start with an `Instructions from:` header line.
 */
export function parseReminder(text: string): { intro: string; blocks: ParsedBlock[] } | null {
  if (text === '') return { intro: '', blocks: [] };
  const open = '<system-reminder>\n';
  const close = '\n</system-reminder>';
  if (!text.startsWith(open) || !text.endsWith(close)) return null;
  const body = text.slice(open.length, -close.length);
  if (/<\s*(?:\/\s*)?system-reminder/i.test(body)) return null;
  const parts = body.split(/\n\nInstructions from: /);
  const intro = parts.shift() as string;
  const blocks: ParsedBlock[] = [];
  for (const part of parts) {
    const newline = part.indexOf('\n\n');
    if (newline === -1) return null;
    blocks.push({
      path: unescapeHeaderPath(part.slice(0, newline)),
      text: unescapeReminderText(part.slice(newline + 2)),
    });
  }
  return { intro: unescapeReminderText(intro), blocks };
}
