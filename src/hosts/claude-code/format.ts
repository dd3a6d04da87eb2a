import path from 'node:path';
import { escapeHeaderPath, LINE_BREAKS, lineEscape, tagEscape } from '../../render/escape.js';
import { frameBody, type FrameFile, type RenderContext, type RenderFile } from '../../render/render-types.js';
import type { HostFormat } from '../../registry/host.js';

/** `system-reminder` tags inside a `claude-code` session frame. */
export const REMINDER_TAG = tagEscape('system-reminder');

/** Claude Code's label for each kind of instruction file. */
export const CLAUDE_CODE_KINDS = Object.freeze({
  project: 'project instructions, checked into the codebase',
  local: "user's private project instructions, not checked in",
  user: "user's private global instructions for all projects",
});

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
 * `claude-code` in the session: `<system-reminder>`, `Contents of <path>:`, a blank line, the text,
 * as Claude Code attaches a nested CLAUDE.md and a `.claude/rules` rule whose `paths:` match (its
 * body alone: no note of ours); one frame per file, joined by a newline; the text's tags and header
 * lines are escaped.
 */
function claudeCodeSessionFrame(files: readonly FrameFile[]): string {
  return files
    .map(
      (file) =>
        `<system-reminder>\nContents of ${escapeHeaderPath(file.path)}:\n\n${CLAUDE_CODE_HEADER.escape(REMINDER_TAG.escape(frameBody(file)))}\n</system-reminder>`,
    )
    .join('\n');
}

export const claudeCodeFormat: HostFormat = {
  name: 'claude-code',
  render: renderClaudeCode,
  sessionFrame: claudeCodeSessionFrame,
};

/**
 * `claude-code-2.1.197`: the block as `claude-code`; a nested file found during the session is
 * `Contents of <path>:`, a blank line and the text, with no tags, as Claude Code 2.1.197 sent it
 * (a message of its own with the role `system`); several files are joined by a blank line. Header
 * lines in the text are escaped.
 */
function claudeCode2197SessionFrame(files: readonly FrameFile[]): string {
  return files
    .map((file) => `Contents of ${escapeHeaderPath(file.path)}:\n\n${CLAUDE_CODE_HEADER.escape(file.text)}`)
    .join('\n\n');
}

export const claudeCode2197Format: HostFormat = {
  name: 'claude-code-2.1.197',
  render: renderClaudeCode,
  sessionFrame: claudeCode2197SessionFrame,
};
