import { escapeHeaderPath, lineEscape } from '../../render/escape.js';
import type { FrameFile, RenderContext, RenderFile } from '../../render/render-types.js';
import type { HostFormat } from '../host.js';

/** Gemini CLI's context markers (packages/core/src/utils/memoryDiscovery.ts, tools/jit-context.ts). */
export const GEMINI_MARKERS = Object.freeze({
  open: '--- Context from: ',
  close: '--- End of Context from: ',
  jitOpen: '--- Newly Discovered Project Context ---',
  jitClose: '--- End Project Context ---',
});

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A line of file text that reads like one of Gemini CLI's markers. */
export const GEMINI_HEADER = lineEscape(
  `(?:${Object.values(GEMINI_MARKERS)
    .map((marker) => escapeRegExp(marker.trimEnd()))
    .join('|')})`,
);

/**
 * `gemini`: per file `--- Context from: <absolute path> ---`, the trimmed text, and
 * `--- End of Context from: <absolute path> ---`, files separated by a blank line; files whose
 * text is blank are left out, as Gemini CLI's `concatenateInstructions` does. A line of text that
 * reads like a marker gets a leading backslash. A budget notice comes first, as its own paragraph.
 */
export function renderGemini(files: readonly RenderFile[], _context: RenderContext, notice?: string): string {
  const blocks = geminiBlocks(files);
  if (blocks.length === 0 && notice === undefined) return '';
  return [...(notice === undefined ? [] : [notice]), ...blocks].join('\n\n');
}

function geminiBlocks(files: ReadonlyArray<{ readonly path: string; readonly text: string }>): string[] {
  return files.flatMap((file) => {
    const text = file.text.trim();
    if (text === '') return [];
    const shown = escapeHeaderPath(file.path);
    return [
      `${GEMINI_MARKERS.open}${shown} ---\n${GEMINI_HEADER.escape(text)}\n${GEMINI_MARKERS.close}${shown} ---`,
    ];
  });
}

/**
 * `gemini` in the session: Gemini CLI's just-in-time wrapper (`--- Newly Discovered Project
 * Context ---` … `--- End Project Context ---`) around the files' context blocks. Gemini CLI puts
 * a blank line between the tool output and the wrapper; that separator is the runner's.
 */
function geminiSessionFrame(files: readonly FrameFile[]): string {
  const blocks = geminiBlocks(files);
  return blocks.length === 0
    ? ''
    : `${GEMINI_MARKERS.jitOpen}\n${blocks.join('\n\n')}\n${GEMINI_MARKERS.jitClose}`;
}

export const geminiFormat: HostFormat = {
  name: 'gemini',
  render: renderGemini,
  sessionFrame: geminiSessionFrame,
};
