/** The frame Claude Code's own attachments use, which the `claude-code` session frame copies. */
const OPEN = '<system-reminder>\n';
const CLOSE = '\n</system-reminder>';
const BETWEEN = `${CLOSE}\n${OPEN}`;

/** The line that opens a Claude Code hook answer, so the model reads what follows as one whole. */
export const CLAUDE_HOOK_HEADER =
  'Project instruction files for the places this session works in (each shown once; follow them):';

/**
 * A hook answer for Claude Code in one readable frame without tags: Claude Code 2.1.332 escapes
 * the `<` of `<system-reminder>` and `</system-reminder>` tags in a hook's additional context
 * (nothing else), so the model would read `&lt;system-reminder>` around each file, and earlier
 * versions wrap the context in a `<system-reminder>` of their own anyway (docs/hooks.md). The
 * `claude-code` session frames (`<system-reminder>`, `Contents of <path>:`, the text, tags in the
 * text escaped) lose their tags and are joined by a blank line under {@link CLAUDE_HOOK_HEADER}.
 * Since the text of a frame cannot hold the tags, a frame boundary is found exactly. Text that is
 * not made of such frames is returned as it is.
 */
export function claudeHookText(text: string): string {
  if (!text.startsWith(OPEN) || !text.endsWith(CLOSE)) return text;
  const inner = text.slice(OPEN.length, text.length - CLOSE.length);
  const parts = inner.split(BETWEEN).map((part) => part.replace(/\n+$/, ''));
  return `${CLAUDE_HOOK_HEADER}\n\n${parts.join('\n\n')}`;
}
