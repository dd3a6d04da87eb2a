// Pure pieces of the lab: pulling the instruction-file part out of a recorded request, and the
// tool call of a scripted first turn. Each host's driver (hosts/*.mjs) uses these; unit tests in
// test/conformance-lab.test.ts.

/** Text between the first `open` and the next `close` after it, or null. */
export function between(text, open, close) {
  const start = text.indexOf(open);
  if (start < 0) return null;
  const end = text.indexOf(close, start + open.length);
  return end < 0 ? null : text.slice(start + open.length, end);
}

/** The texts of a message's content, whatever its shape (a string, or parts with `text`). */
export function contentTexts(content) {
  if (typeof content === 'string') return [content];
  if (!Array.isArray(content)) return [];
  return content.flatMap((part) => (typeof part?.text === 'string' ? [part.text] : []));
}

/** Codex: the user-message part that starts with the AGENTS.md heading, whole; '' when none. */
export function codexInstructions(body) {
  for (const item of body?.input ?? []) {
    if (item.type !== 'message' || item.role !== 'user') continue;
    for (const text of contentTexts(item.content)) {
      if (text.startsWith('# AGENTS.md instructions')) return text;
    }
  }
  return '';
}

export const CLAUDE_MEMORY_OPEN = '<system-reminder>\nCodebase and user instructions are shown below.';

/**
 * Claude Code: the instruction text of the first user message, inside its `<system-reminder>`
 * (the intro sentence included); '' when none.
 */
export function claudeInstructions(body) {
  const first = (body?.messages ?? []).find((message) => message.role === 'user');
  for (const text of contentTexts(first?.content)) {
    if (text.startsWith(CLAUDE_MEMORY_OPEN)) {
      return text.slice('<system-reminder>\n'.length).replace(/\n<\/system-reminder>\n?$/, '');
    }
  }
  return '';
}

/** The first paragraph of Claude Code's instruction text: its intro sentence. */
export const claudeIntro = (text) => text.split('\n\n')[0];

/**
 * Gemini CLI: the context blocks, in the order the model reads them: those of the system
 * instruction's `<loaded_context>` (the user files), then those of the first user message's
 * `<project_context>`, joined by a blank line; the wrappers left out. '' when none.
 */
export function geminiInstructions(body) {
  const system = contentTexts(body?.systemInstruction?.parts).join('\n');
  const first = (body?.contents ?? []).find((content) => content.role === 'user');
  const user = contentTexts(first?.parts).join('\n');
  const global = between(system, '<loaded_context>\n', '\n</loaded_context>');
  const project = between(user, '<project_context>\n', '\n</project_context>');
  return [global, project].filter((part) => part !== null && part !== '').join('\n\n');
}

/**
 * Gemini CLI, the whole form (the `gemini-full` format): the system instruction from its
 * `# Contextual Instructions` heading to its end, then the first user message's `<loaded_context>`
 * (inside `<session_context>`), a blank line apart; each left out when absent.
 */
export function geminiWholeForm(body) {
  const system = contentTexts(body?.systemInstruction?.parts).join('\n');
  const first = (body?.contents ?? []).find((content) => content.role === 'user');
  const user = contentTexts(first?.parts).join('\n');
  const heading = system.indexOf('# Contextual Instructions (');
  const global = heading < 0 ? null : system.slice(heading).trimEnd();
  const open = user.indexOf('<loaded_context>\n');
  const end = user.lastIndexOf('</loaded_context>');
  const project = open < 0 || end < open ? null : user.slice(open, end + '</loaded_context>'.length);
  return [global, project].filter((part) => part !== null && part !== '').join('\n\n');
}

/** The paragraph under Gemini CLI's `# Contextual Instructions` heading, or null. */
export function geminiContextIntro(body) {
  const system = contentTexts(body?.systemInstruction?.parts).join('\n');
  const heading = system.indexOf('# Contextual Instructions (');
  if (heading < 0) return null;
  const start = system.indexOf('\n', heading) + 1;
  const end = system.indexOf('\n\n<loaded_context>\n', start);
  return start === 0 || end < 0 ? null : system.slice(start, end);
}

/**
 * OpenCode: the `Instructions from: ` entries of the system message, from the first one to the
 * section after them (the skills list), the newline that joins them to it left out; '' when none.
 */
export function opencodeInstructions(body) {
  const system = (body?.messages ?? []).filter((message) => message.role === 'system');
  const text = system.flatMap((message) => contentTexts(message.content)).join('\n');
  const start = text.indexOf('Instructions from: ');
  if (start < 0) return '';
  const after = text.indexOf('\nSkills provide specialized instructions', start);
  return after < 0 ? text.slice(start) : text.slice(start, after);
}

/**
 * The system message (its system-role messages' texts, joined by a newline) from the first `open`
 * to the end of the last `close` after it; '' when there is none.
 */
export function systemSpan(body, open, close) {
  const system = (body?.messages ?? []).filter((message) => message.role === 'system');
  const text = system.flatMap((message) => contentTexts(message.content)).join('\n');
  const start = text.indexOf(open);
  if (start < 0) return '';
  const end = text.lastIndexOf(close);
  return end < start ? '' : text.slice(start, end + close.length);
}

/** Chat Completions: the texts of the tool-role messages, joined by a newline. */
export function chatToolText(body) {
  const tool = (body?.messages ?? []).filter((message) => message.role === 'tool');
  return tool.flatMap((message) => contentTexts(message.content)).join('\n');
}

/** The part of a tool result from `marker` to its end; '' when the marker is absent. */
export function fromMarker(text, marker) {
  const start = typeof text === 'string' ? text.indexOf(marker) : -1;
  return start < 0 ? '' : text.slice(start);
}

/** The name of a declared tool's first parameter among `keys`, or the first key. */
export function paramKey(schema, keys) {
  const props = schema?.properties ?? {};
  return keys.find((key) => key in props) ?? keys[0];
}
