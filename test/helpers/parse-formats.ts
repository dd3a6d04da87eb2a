import { unescapeHeaderPath, unescapeReminderText, unescapeXml } from '../../src/render/escape.js';
import { CLAUDE_CODE_HEADER } from '../../src/hosts/claude-code/format.js';
import { CODEX_TAG } from '../../src/hosts/codex/format.js';
import { GEMINI_HEADER } from '../../src/hosts/gemini-cli/format.js';

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

/**
 * A strict parser for the `codex` format: one frame whose heading names the work dir; returns the
 * unescaped text between `<INSTRUCTIONS>` and `</INSTRUCTIONS>`, or `null`.
 */
export function parseCodex(text: string, directory: string): string | null {
  const open = `# AGENTS.md instructions for ${directory}\n\n<INSTRUCTIONS>\n`;
  const close = '\n</INSTRUCTIONS>';
  if (!text.startsWith(open) || !text.endsWith(close)) return null;
  const body = text.slice(open.length, -close.length);
  if (/<\s*\/?\s*INSTRUCTIONS/i.test(body)) return null;
  return CODEX_TAG.unescape(body);
}

/** A strict parser for the `gemini` format (and, with `jit`, its session wrapper). */
export function parseGemini(text: string, jit = false): ParsedBlock[] | null {
  let body = text;
  if (jit) {
    const open = '--- Newly Discovered Project Context ---\n';
    const close = '\n--- End Project Context ---';
    if (!body.startsWith(open) || !body.endsWith(close)) return null;
    body = body.slice(open.length, -close.length);
  }
  if (body === '') return [];
  const blocks: ParsedBlock[] = [];
  for (const part of body.split(/\n\n(?=--- Context from: )/)) {
    const header = /^--- Context from: (.*) ---\n/.exec(part);
    if (header === null) return null;
    const shown = header[1] as string;
    const footer = `\n--- End of Context from: ${shown} ---`;
    if (!part.endsWith(footer)) return null;
    const inner = part.slice(header[0].length, -footer.length);
    if (/^(?:--- Context from: |--- End of Context from: |--- End Project Context ---)/m.test(inner))
      return null;
    blocks.push({ path: unescapeHeaderPath(shown), text: GEMINI_HEADER.unescape(inner) });
  }
  return blocks;
}

/** A strict parser for the `claude-code` format: the intro, then `Contents of` blocks. */
export function parseClaudeCode(text: string, intro: string): (ParsedBlock & { kind: string })[] | null {
  if (text === '') return [];
  if (!text.startsWith(intro)) return null;
  const rest = text.slice(intro.length);
  const header =
    /\n\nContents of (.*) \((project instructions, checked into the codebase|user's private project instructions, not checked in|user's private global instructions for all projects)\):\n\n/g;
  const blocks: (ParsedBlock & { kind: string })[] = [];
  const matches = [...rest.matchAll(header)];
  if (matches.length === 0 || matches[0]?.index !== 0) return rest === '' ? [] : null;
  matches.forEach((match, index) => {
    const end = matches[index + 1]?.index ?? rest.length;
    blocks.push({
      path: unescapeHeaderPath(match[1] as string),
      kind: match[2] as string,
      text: CLAUDE_CODE_HEADER.unescape(rest.slice((match.index as number) + match[0].length, end)),
    });
  });
  return blocks;
}
