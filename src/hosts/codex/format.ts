import { escapeHeaderPath, tagEscape } from '../../render/escape.js';
import type { FrameFile, RenderContext, RenderFile } from '../../render/render-types.js';
import type { HostFormat } from '../../registry/host.js';

/** `<INSTRUCTIONS>` tags inside a `codex` frame. */
export const CODEX_TAG = tagEscape('INSTRUCTIONS');

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
    .map((file) => trimWhiteSpace(file.text))
    .filter((text) => text !== '');
  const project = files.filter((file) => file.layer !== 'user').map((file) => file.text);
  const parts = [user, project].filter((texts) => texts.length > 0).map((texts) => texts.join('\n\n'));
  const docs = parts.join(CODEX_PROJECT_DOC_SEPARATOR);
  const body = notice === undefined ? docs : files.length === 0 ? notice : `${notice}\n\n${docs}`;
  // Codex names the directory only when a project file was loaded: with the user file alone the
  // heading is `# AGENTS.md instructions` (`full_fragment` in codex-rs/core/src/context/world_state/agents_md.rs).
  return codexFrame(project.length > 0 || user.length === 0 ? context.workDir : null, body);
}

/** Unicode White_Space, what Rust's `str::trim` removes: unlike JavaScript's `trim`, not U+FEFF. */
const WHITE_SPACE =
  '[\\t\\n\\v\\f\\r \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]';
const EDGE_SPACE = new RegExp(`^${WHITE_SPACE}+|${WHITE_SPACE}+$`, 'g');

/** Rust's `str::trim`, as Codex trims the user file: a byte order mark at its start stays. */
function trimWhiteSpace(text: string): string {
  return text.replace(EDGE_SPACE, '');
}

/**
 * Codex's frame around instruction text; the text's own `INSTRUCTIONS` tags are escaped. `null`:
 * the heading names no directory. `name`: the file it holds (a hook's frame names the file it
 * delivers, a CLAUDE.md as CLAUDE.md); Codex's own frame says AGENTS.md.
 */
export function codexFrame(directory: string | null, text: string, name = 'AGENTS.md'): string {
  const heading = directory === null ? '' : ` for ${escapeHeaderPath(directory)}`;
  return `# ${escapeHeaderPath(name)} instructions${heading}\n\n<INSTRUCTIONS>\n${CODEX_TAG.escape(text)}\n</INSTRUCTIONS>`;
}

/** `codex` in the session: Codex's instructions frame for each file's directory, joined by a newline. */
function codexSessionFrame(files: readonly FrameFile[]): string {
  return files.map((file) => codexFrame(file.dir, file.text, baseName(file.path))).join('\n');
}

/** The last segment of a path: the file's own name, for the frame's heading. */
function baseName(file: string): string {
  return file.slice(Math.max(file.lastIndexOf('/'), file.lastIndexOf('\\')) + 1);
}

export const codexFormat: HostFormat = {
  name: 'codex',
  render: renderCodex,
  sessionFrame: codexSessionFrame,
  // Codex writes a file's text into its frame as it is: a tag there ends or reopens the frame.
  frameBreaks: (text) =>
    CODEX_TAG.escape(text) === text
      ? null
      : "Codex's own <INSTRUCTIONS> frame tag, which Codex sends as written (the text after it leaves the frame)",
};
