import type { Diagnostic } from '../errors.js';
import { findCodeRegions, type CodeRegion } from '../imports/scan-imports.js';
import type { ContextFile } from './read-context-file.js';

/** How file texts are shaped before rendering (the host profile's `trim` and `htmlComments`). */
export interface TextShape {
  readonly trim?: boolean | undefined;
  readonly htmlComments?: 'keep' | 'strip' | undefined;
}

/**
 * Shapes the text of each file of a resolution (docs/config.md "Host profiles", `trim` and
 * `htmlComments`): comment blocks removed, then both ends trimmed; with `trim`, a file
 * whose text is left blank is skipped with an `info` `blank-file`, whatever its source. The list
 * comes back unchanged when neither key is on.
 */
export function shapeFiles(
  files: readonly ContextFile[],
  shape: TextShape,
  diagnostics: Diagnostic[],
): ContextFile[] {
  const strip = shape.htmlComments === 'strip';
  if (!strip && shape.trim !== true) return [...files];
  const out: ContextFile[] = [];
  for (const file of files) {
    let text = strip ? stripHtmlCommentBlocks(file.text) : file.text;
    if (shape.trim === true) {
      text = text.trim();
      if (text === '') {
        diagnostics.push({
          level: 'info',
          code: 'blank-file',
          message: `${file.path} holds only whitespace${strip ? ' and comments' : ''} and is skipped`,
          layer: file.layer,
          entry: file.entry,
          path: file.path,
        });
        continue;
      }
    }
    out.push(text === file.text ? file : withText(file, text));
  }
  return out;
}

/** The file with another text; the digest and the rest of its record stay those of the file read. */
function withText(file: ContextFile, text: string): ContextFile {
  const { text: _old, ...descriptors } = Object.getOwnPropertyDescriptors(file);
  const shaped = Object.create(Object.getPrototypeOf(file) as object | null, descriptors) as ContextFile;
  Object.defineProperty(shaped, 'text', { value: text, enumerable: true });
  return Object.freeze(shaped);
}

const COMMENT = /<!--[\s\S]*?-->/g;

/**
 * Removes the HTML comment blocks of a Markdown text: a line that starts (after at most three
 * spaces) with `<!--`, outside code, up to the end of the line that holds the first `-->` after it,
 * with the newlines that follow. The comments in such a block are cut out; when nothing but
 * whitespace is left the whole block goes, else the rest of it stays. A comment inside a line of
 * text, inside a fence or a code span, or one that is never closed stays as written. When a block
 * was removed the line ends come back as `\n`. This is what Claude Code 2.1.332 does to an
 * instruction file (its memory loader lexes the text as Markdown and drops top-level `html` tokens
 * that are comments).
 */
export function stripHtmlCommentBlocks(input: string): string {
  if (!input.includes('<!--')) return input;
  const text = input.replace(/\r\n?/g, '\n');
  const code = findCodeRegions(text);
  let out = '';
  let last = 0;
  let lineStart = 0;
  while (lineStart < text.length) {
    const open = commentOpening(text, lineStart);
    const close = open === -1 || inCode(code, lineStart) ? -1 : text.indexOf('-->', open + 2);
    if (open !== -1 && close === -1 && !inCode(code, lineStart)) break; // Never closed: kept to the end.
    if (close === -1) {
      const next = text.indexOf('\n', lineStart);
      if (next === -1) break;
      lineStart = next + 1;
      continue;
    }
    let end = text.indexOf('\n', close + 3);
    if (end === -1) end = text.length;
    while (end < text.length && text.charCodeAt(end) === 10) end += 1;
    const rest = text.slice(lineStart, end).replace(COMMENT, '');
    out += text.slice(last, lineStart) + (rest.trim() === '' ? '' : rest);
    last = end;
    lineStart = end;
  }
  return last === 0 ? input : out + text.slice(last);
}

/** Where `<!--` opens a comment block on the line at `lineStart` (up to three spaces first), or -1. */
function commentOpening(text: string, lineStart: number): number {
  let at = lineStart;
  while (at < lineStart + 3 && text.charCodeAt(at) === 32) at += 1;
  return text.startsWith('<!--', at) ? at : -1;
}

function inCode(regions: readonly CodeRegion[], at: number): boolean {
  return regions.some((region) => at >= region.start && at < region.end);
}
