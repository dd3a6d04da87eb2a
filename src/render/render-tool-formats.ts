import path from 'node:path';
import { escapeHeaderPath, LINE_BREAKS, lineEscape, tagEscape } from './escape.js';
import type { RenderContext, RenderFile } from './render-formats.js';

/**
 * The formats that reproduce what a coding tool itself puts in front of the model: `codex`,
 * `claude-code` and `gemini` (docs/formats.md cites each tool's source). Markers, labels, order and
 * joins are the tool's; longer sentences are ours and come from `wording`. Ordinary text renders
 * byte for byte; only text that could end or fake a frame is escaped, reversibly.
 */

/** `<INSTRUCTIONS>` tags inside a `codex` frame. */
export const CODEX_TAG = tagEscape('INSTRUCTIONS');
/** `system-reminder` tags inside a `claude-code` session frame. */
export const REMINDER_TAG = tagEscape('system-reminder');

/** Claude Code's label for each kind of instruction file. */
export const CLAUDE_CODE_KINDS = Object.freeze({
  project: 'project instructions, checked into the codebase',
  local: "user's private project instructions, not checked in",
  user: "user's private global instructions for all projects",
});

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * A line of file text that reads like a header of Claude Code's: `Contents of <path>:`, with any
 * label before the colon (the kinds above, the session frame's none, and the labels ctxfiles does
 * not print: `shared team memory, synced across the organization`, `user's auto-memory, persists
 * across conversations`, `organization-managed policy instructions`, ...). One escape for the
 * `claude-code` format, its session frame and the hook's frame built from it.
 */
export const CLAUDE_CODE_HEADER = lineEscape(
  `Contents of [^${LINE_BREAKS}]*:[\\t ]*(?:$|(?=[${LINE_BREAKS}]))`,
);

/** Gemini CLI's context markers (packages/core/src/utils/memoryDiscovery.ts, tools/jit-context.ts). */
export const GEMINI_MARKERS = Object.freeze({
  open: '--- Context from: ',
  close: '--- End of Context from: ',
  jitOpen: '--- Newly Discovered Project Context ---',
  jitClose: '--- End Project Context ---',
});

/** A line of file text that reads like one of Gemini CLI's markers. */
export const GEMINI_HEADER = lineEscape(
  `(?:${Object.values(GEMINI_MARKERS)
    .map((marker) => escapeRegExp(marker.trimEnd()))
    .join('|')})`,
);

/** Codex's separator between the user's own instructions and the project docs. */
export const CODEX_PROJECT_DOC_SEPARATOR = '\n\n--- project-doc ---\n\n';

/**
 * `codex`: one frame for every file, as Codex builds its user-instructions message
 * (openai/codex codex-rs/core/src/instructions/user_instructions.rs and project_doc.rs):
 * `# AGENTS.md instructions for <work dir>`, a blank line, then `<INSTRUCTIONS>`, the texts and
 * `</INSTRUCTIONS>` on their own lines. The user file (layer `user`) comes first, trimmed as Codex
 * trims it (`load_global_instructions` in openai/codex codex-rs/core/src/agents_md.rs); the project
 * docs follow after `--- project-doc ---`, joined with a blank line and kept as they are.
 * A budget notice is the first paragraph inside the frame.
 */
export function renderCodex(files: readonly RenderFile[], context: RenderContext, notice?: string): string {
  if (files.length === 0 && notice === undefined) return '';
  const user = files
    .filter((file) => file.layer === 'user')
    .map((file) => file.text.trim())
    .filter((text) => text !== '');
  const project = files.filter((file) => file.layer !== 'user').map((file) => file.text);
  const parts = [user, project].filter((texts) => texts.length > 0).map((texts) => texts.join('\n\n'));
  const docs = parts.join(CODEX_PROJECT_DOC_SEPARATOR);
  const body = notice === undefined ? docs : files.length === 0 ? notice : `${notice}\n\n${docs}`;
  return codexFrame(context.workDir, body);
}

/** Codex's frame around instruction text; the text's own `INSTRUCTIONS` tags are escaped. */
export function codexFrame(directory: string, text: string): string {
  return `# AGENTS.md instructions for ${escapeHeaderPath(directory)}\n\n<INSTRUCTIONS>\n${CODEX_TAG.escape(text)}\n</INSTRUCTIONS>`;
}

/** The kind Claude Code would give a file: the user file, a `*.local.md` file, or project. */
export function claudeCodeKind(file: RenderFile): keyof typeof CLAUDE_CODE_KINDS {
  if (file.layer === 'user') return 'user';
  return /\.local\.md$/i.test(path.basename(file.path)) ? 'local' : 'project';
}

/**
 * `claude-code`: `wording.claudeCodeIntro`, a blank line, then per file
 * `Contents of <absolute path> (<kind>):`, a blank line and the text, files separated by a blank
 * line, as Claude Code builds its `claudeMd` context. A line of text that reads like such a header
 * gets a leading backslash. A budget notice follows the intro.
 */
export function renderClaudeCode(
  files: readonly RenderFile[],
  context: RenderContext,
  notice?: string,
): string {
  if (files.length === 0 && notice === undefined) return '';
  const blocks = files.map(
    (file) =>
      `Contents of ${escapeHeaderPath(file.path)} (${CLAUDE_CODE_KINDS[claudeCodeKind(file)]}):\n\n${CLAUDE_CODE_HEADER.escape(file.text)}`,
  );
  return [context.wording.claudeCodeIntro, ...(notice === undefined ? [] : [notice]), ...blocks].join('\n\n');
}

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

/** A nested file as a session frame needs it. */
export interface FrameFile {
  /** Absolute path. */
  readonly path: string;
  /** The directory whose subtree the file governs. */
  readonly dir: string;
  readonly text: string;
}

/**
 * The frame a tool's own session uses for files it discovers while working, or `null` for formats
 * without one:
 * - `codex`: Codex's instructions frame for the file's directory, one per file;
 * - `claude-code`: `<system-reminder>`, `Contents of <path>:`, a blank line, the text, as Claude
 *   Code attaches a nested CLAUDE.md; one per file; the text's tags and header lines are escaped;
 * - `gemini`: Gemini CLI's just-in-time wrapper (`--- Newly Discovered Project Context ---` …
 *   `--- End Project Context ---`) around the files' context blocks. Gemini CLI puts a blank line
 *   between the tool output and the wrapper; that separator is the runner's.
 * Frames of several files are joined with a newline. No visible text → the empty string.
 */
export function renderToolSessionFrame(format: string, files: readonly FrameFile[]): string | null {
  switch (format) {
    case 'codex':
      return files.map((file) => codexFrame(file.dir, file.text)).join('\n');
    case 'claude-code':
      return files
        .map(
          (file) =>
            `<system-reminder>\nContents of ${escapeHeaderPath(file.path)}:\n\n${CLAUDE_CODE_HEADER.escape(REMINDER_TAG.escape(file.text))}\n</system-reminder>`,
        )
        .join('\n');
    case 'gemini': {
      const blocks = geminiBlocks(files);
      return blocks.length === 0
        ? ''
        : `${GEMINI_MARKERS.jitOpen}\n${blocks.join('\n\n')}\n${GEMINI_MARKERS.jitClose}`;
    }
    default:
      return null;
  }
}
