import path from 'node:path';
import { escapeHeaderPath, lineEscape } from '../../render/escape.js';
import { frameBody, type FrameFile, type RenderContext, type RenderFile } from '../../render/render-types.js';
import { GEMINI_HEADER, GEMINI_MARKERS, geminiSessionFrame } from '../gemini-cli/format.js';
import type { HostFormat } from '../../registry/host.js';

/** Qwen Code's rule markers (packages/core/src/config/rulesDiscovery.ts `formatRules`). */
export const QWEN_RULE_MARKERS = Object.freeze({ open: '--- Rule from: ', close: '--- End of Rule from: ' });

/** A line of rule text that reads like a context or rule marker. */
const RULE_HEADER = lineEscape(
  '(?:--- Context from: |--- End of Context from: |--- Rule from: |--- End of Rule from: )',
);

const RULES_DIR = `${path.sep}.qwen${path.sep}rules${path.sep}`;

/**
 * `qwen`: Qwen Code's context blocks (`concatenateInstructions` in its core package,
 * `packages/core/src/memory/memoryDiscovery.ts`): per file `--- Context from: <path> ---`, the
 * trimmed text and `--- End of Context from: <path> ---`, blocks joined by a blank line, blank
 * files left out. The markers are Gemini CLI's (Qwen Code is a fork of it); the path is relative
 * to the work dir, whatever the file (the user file shows as `../../home/me/.qwen/QWEN.md`). Then
 * the `.qwen/rules` rules without `paths:` (layer `rules`), as {@link qwenRuleBlock} frames them.
 * A line of text that reads like a marker gets a leading backslash. A budget notice comes first.
 */
export function renderQwen(files: readonly RenderFile[], context: RenderContext, notice?: string): string {
  const blocks = files.flatMap((file) => {
    if (file.layer === 'rules') {
      const block = qwenRuleBlock(file.path, file.text, context);
      return block === '' ? [] : [block];
    }
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
 * One rule as Qwen Code frames it (`formatRules`): `--- Rule from: <path> ---`, the body without
 * HTML comments, trimmed, and `--- End of Rule from: <path> ---`; '' when nothing is left (Qwen Code
 * drops such a rule). The path is relative to the project root: a project rule's to the directory
 * holding its `.qwen` folder, a rule of `~/.qwen/rules` (or with no such folder in its path) to the
 * work dir, which is the project root when the cwd is (docs/presets.md#qwen-code).
 */
export function qwenRuleBlock(
  file: string,
  text: string,
  context?: Pick<RenderContext, 'workDir' | 'homeDir'>,
): string {
  const body = stripHtmlComments(text).trim();
  if (body === '') return '';
  const at = file.indexOf(RULES_DIR);
  const owner = at < 0 ? undefined : file.slice(0, at);
  const root = owner !== undefined && owner !== context?.homeDir ? owner : context?.workDir;
  const relative = root === undefined ? file : path.relative(root, file).split(path.sep).join('/');
  const shown = escapeHeaderPath(relative);
  return `${QWEN_RULE_MARKERS.open}${shown} ---\n${RULE_HEADER.escape(body)}\n${QWEN_RULE_MARKERS.close}${shown} ---`;
}

/**
 * In a tool result. Rules with `paths:` (the frame files with a rule note) are Qwen Code's own:
 * its scheduler appends, after a blank line, `<system-reminder>`, their blocks joined by a blank
 * line and `</system-reminder>` (packages/core/src/core/coreToolScheduler.ts), with the reminder's
 * own tags in the blocks escaped (`escapeSystemReminderTags`). Anything else (the hook's nested
 * files; Qwen Code discloses none itself) comes first, in Gemini CLI's just-in-time wrapper around
 * the same blocks: Qwen Code escapes `<` and `>` in a hook's additional context
 * (packages/core/src/hooks/types.ts `getAdditionalContext`), so a tag frame would reach the model as
 * `&lt;system-reminder&gt;`.
 */
export function qwenSessionFrame(files: readonly FrameFile[]): string {
  const rules = files.filter((file) => file.note !== undefined);
  const others = geminiSessionFrame(files.filter((file) => file.note === undefined));
  const blocks = rules
    .map((file) => qwenRuleBlock(file.path, frameBody(file)))
    .filter((block) => block !== '');
  const reminder =
    blocks.length === 0
      ? ''
      : `<system-reminder>\n${escapeReminderTags(blocks.join('\n\n'))}\n</system-reminder>`;
  return [others, reminder].filter((part) => part !== '').join('\n\n');
}

export const qwenFormat: HostFormat = { name: 'qwen', render: renderQwen, sessionFrame: qwenSessionFrame };

/** Qwen Code's `stripHtmlComments` (packages/core/src/utils/): `<!-- … -->` until none is left, then any `<!--`. */
function stripHtmlComments(text: string): string {
  let result = text;
  let previous: string;
  do {
    previous = result;
    result = previous.replace(/<!--[\s\S]*?-->/g, '');
  } while (result !== previous);
  return result.replace(/<!--/g, '');
}

// Characters Qwen Code ignores when it reads a tag as `<system-reminder>` (packages/core/src/utils/xml.ts).
const IGNORABLE =
  /[\u00ad\u061c\u3164\ufeff\uffa0\u0000-\u001f\u007f-\u009f\u115f-\u1160\u17b4-\u17b5\u180b-\u180f\u200b-\u200f\u202a-\u202e\u2060-\u206f\ufe00-\ufe0f\ufff0-\ufff8]|\ud82f[\udca0-\udca3]|\ud834[\udd73-\udd7a]|\udb40[\udc00-\udfff]|[\udb41-\udb43][\udc00-\udfff]/g;
const REMINDER_TAG = /^<\s*(\/?)\s*system-reminder(?:\s[^>]*)?\s*\/?\s*>$/;
const XML: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
};

/** `escapeSystemReminderTags`: a closing tag becomes `<\/system-reminder>`, an opening one XML-escaped. */
function escapeReminderTags(text: string): string {
  return text.replace(/<[^<>]*>/g, (tag) => {
    const match = REMINDER_TAG.exec(tag.replace(IGNORABLE, '').toLowerCase());
    if (match === null) return tag;
    return match[1] === '/' ? '<\\/system-reminder>' : tag.replace(/[&<>"']/g, (char) => XML[char] as string);
  });
}
