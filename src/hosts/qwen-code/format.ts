import path from 'node:path';
import { escapeHeaderPath } from '../../render/escape.js';
import type { RenderContext, RenderFile } from '../../render/render-types.js';
import { GEMINI_HEADER, GEMINI_MARKERS, geminiSessionFrame } from '../gemini-cli/format.js';
import type { HostFormat } from '../../registry/host.js';

/**
 * `qwen`: Qwen Code's context blocks (`concatenateInstructions` in its core package,
 * `packages/core/src/memory/memoryDiscovery.ts`): per file `--- Context from: <path> ---`, the
 * trimmed text and `--- End of Context from: <path> ---`, blocks joined by a blank line, blank
 * files left out. The markers are Gemini CLI's (Qwen Code is a fork of it); the path is relative
 * to the work dir, whatever the file (the user file shows as `../../home/me/.qwen/QWEN.md`). A line
 * of text that reads like a marker gets a leading backslash. A budget notice comes first.
 */
export function renderQwen(files: readonly RenderFile[], context: RenderContext, notice?: string): string {
  const blocks = files.flatMap((file) => {
    const text = file.text.trim();
    if (text === '') return [];
    const relative = path.relative(context.workDir, file.path).split(path.sep).join('/');
    const shown = escapeHeaderPath(relative);
    return [
      `${GEMINI_MARKERS.open}${shown} ---\n${GEMINI_HEADER.escape(text)}\n${GEMINI_MARKERS.close}${shown} ---`,
    ];
  });
  if (blocks.length === 0 && notice === undefined) return '';
  return [...(notice === undefined ? [] : [notice]), ...blocks].join('\n\n');
}

/**
 * In a tool result (the hook's answers; Qwen Code discloses no file there itself) the frame is
 * Gemini CLI's just-in-time wrapper around the same blocks: Qwen Code escapes `<` and `>` in a
 * hook's additional context (packages/core/src/hooks/types.ts `getAdditionalContext`), so a tag
 * frame would reach the model as `&lt;system-reminder&gt;`.
 */
export const qwenFormat: HostFormat = { name: 'qwen', render: renderQwen, sessionFrame: geminiSessionFrame };
