import { escapeHeaderPath, escapeTags, lineEscape } from '../../render/escape.js';
import type { FrameFile, RenderContext, RenderFile } from '../../render/render-types.js';
import type { HostFormat } from '../../registry/host.js';

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
  const blocks = geminiBlocks(files.map(squashUserFile));
  if (blocks.length === 0 && notice === undefined) return '';
  return [...(notice === undefined ? [] : [notice]), ...blocks].join('\n\n');
}

/**
 * A user file's text with every run of three or more newlines made two: the user files close
 * Gemini CLI's system prompt, which it squashes so (`getCoreSystemPrompt`:
 * `finalPrompt.replace(/\n{3,}/g, "\n\n")`); the project files travel in a user message, as written.
 */
function squashUserFile<T extends RenderFile>(file: T): T {
  return file.layer === 'user' && file.text.includes('\n\n\n')
    ? { ...file, text: file.text.replace(/\n{3,}/g, '\n\n') }
    : file;
}

function geminiBlocks(
  files: ReadonlyArray<{ readonly path: string; readonly text: string }>,
  tags: readonly string[] = [],
): string[] {
  return files.flatMap((file) => {
    const text = file.text.trim();
    if (text === '') return [];
    const shown = escapeHeaderPath(file.path);
    return [
      `${GEMINI_MARKERS.open}${shown} ---\n${escapeTags(GEMINI_HEADER.escape(text), tags)}\n${GEMINI_MARKERS.close}${shown} ---`,
    ];
  });
}

/** The tags of the wrappers around `gemini-full`'s blocks: written in file text, they are escaped. */
const WRAPPER_TAGS = ['loaded_context', 'project_context', 'session_context'];

/**
 * `gemini` in the session: Gemini CLI's just-in-time wrapper (`--- Newly Discovered Project
 * Context ---` … `--- End Project Context ---`) around the files' context blocks. Gemini CLI puts
 * a blank line between the tool output and the wrapper; that separator is the runner's.
 */
export function geminiSessionFrame(files: readonly FrameFile[]): string {
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

/** The wrappers of Gemini CLI's request (packages/core/src/prompts/snippets.ts, config.ts). */
export const GEMINI_WRAPPERS = Object.freeze({
  heading: '# Contextual Instructions',
  loaded: ['<loaded_context>', '</loaded_context>'],
  project: ['<project_context>', '</project_context>'],
} as const);

/**
 * `gemini-full`: what Gemini CLI sends for the files, as the model reads them. The user files
 * (layer `user`) close the system instruction: `# Contextual Instructions (<names>)`, a paragraph
 * (`wording.geminiContextIntro`, ours by default), a blank line, then their blocks in
 * `<loaded_context>`. The other files open the first user message, inside its `<session_context>`:
 * their blocks in `<project_context>` in `<loaded_context>`. The two parts are a blank line apart;
 * each is left out when it has no file. Blocks are those of {@link renderGemini}, with the wrapper
 * tags in file text escaped (`&lt;/loaded_context>`) so that a file cannot close a wrapper. Sources:
 * `renderUserMemory` and `getSessionMemory` in google-gemini/gemini-cli `packages/core/src`.
 */
export function renderGeminiFull(
  files: readonly RenderFile[],
  context: RenderContext,
  notice?: string,
): string {
  const user = geminiBlocks(files.filter((file) => file.layer === 'user').map(squashUserFile), WRAPPER_TAGS);
  const project = geminiBlocks(
    files.filter((file) => file.layer !== 'user'),
    WRAPPER_TAGS,
  );
  const [open, close] = GEMINI_WRAPPERS.loaded;
  const names = context.names !== undefined && context.names.length > 0 ? context.names : ['GEMINI.md'];
  const parts = [
    ...(notice === undefined ? [] : [notice]),
    ...(user.length === 0
      ? []
      : [
          `${GEMINI_WRAPPERS.heading} (${names.join(', ')})\n${context.wording.geminiContextIntro}\n\n${open}\n${user.join('\n\n')}\n${close}`,
        ]),
    ...(project.length === 0
      ? []
      : [
          `${open}\n${GEMINI_WRAPPERS.project[0]}\n${project.join('\n\n')}\n${GEMINI_WRAPPERS.project[1]}\n${close}`,
        ]),
  ];
  return parts.join('\n\n');
}

export const geminiFullFormat: HostFormat = {
  name: 'gemini-full',
  render: renderGeminiFull,
  sessionFrame: geminiSessionFrame,
};
