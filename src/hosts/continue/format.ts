import path from 'node:path';
import { tagEscape } from '../../render/escape.js';
import type { RenderContext, RenderFile } from '../../render/render-types.js';
import type { HostFormat } from '../../registry/host.js';

/** `<context>` tags inside a `continue` frame. */
export const CONTINUE_TAG = tagEscape('context');

const OPEN = '<context name="userRules">';

/** Whether `file` lies below `dir` (both absolute). */
function below(dir: string, file: string): boolean {
  const relative = path.relative(dir, file);
  return (
    relative !== '' &&
    relative !== '..' &&
    !relative.startsWith(`..${path.sep}`) &&
    !path.isAbsolute(relative)
  );
}

/**
 * `continue`: the `userRules` section of Continue CLI's system message (the system message builder
 * of `@continuedev/cli`): `<context name="userRules">`, the agent file's text as written, then the
 * always-on rules joined by a blank line (a blank line between the file and the first rule), and
 * `</context>` on its own line. An empty agent file counts as none; a rule whose text is blank is
 * not a rule. Project rules come before the user's (`~/.continue/rules`). The preset yields one
 * agent file at most; more (from a config of your own) are joined by a blank line like rules.
 * Text is not trimmed; only `<context>` tags in it are escaped (Continue does not escape them), so
 * a file cannot close the section. A budget notice is the first paragraph inside the frame.
 */
export function renderContinue(
  files: readonly RenderFile[],
  context: RenderContext,
  notice?: string,
): string {
  const agent = files.filter((file) => file.layer !== 'rules' && file.text !== '').map((file) => file.text);
  const userRules = path.join(context.homeDir, '.continue', 'rules');
  const rules = files.filter((file) => file.layer === 'rules' && file.text.trim() !== '');
  const ordered = [
    ...rules.filter((file) => !below(userRules, file.path)),
    ...rules.filter((file) => below(userRules, file.path)),
  ].map((file) => file.text);
  if (agent.length === 0 && ordered.length === 0 && notice === undefined) return '';
  const parts = [...(notice === undefined ? [] : [notice]), ...agent, ...ordered];
  return `${OPEN}\n${CONTINUE_TAG.escape(parts.join('\n\n'))}\n</context>`;
}

export const continueFormat: HostFormat = { name: 'continue', render: renderContinue };
