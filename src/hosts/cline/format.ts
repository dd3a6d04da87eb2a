import path from 'node:path';
import type { RenderContext, RenderFile } from '../../render/render-types.js';
import type { HostFormat } from '../../registry/host.js';

/**
 * The name Cline CLI gives a rule: `Workspace AGENTS.md` for the work dir's `AGENTS.md`, `Global
 * AGENTS.md` for `~/.agents/AGENTS.md` (the user file), else the file name without its extension.
 */
function ruleName(file: RenderFile, context: RenderContext): string {
  if (file.path === path.join(context.workDir, 'AGENTS.md')) return 'Workspace AGENTS.md';
  if (file.layer === 'user') return 'Global AGENTS.md';
  return path.basename(file.path, path.extname(file.path));
}

/**
 * `cline`: the `# Rules` section that ends Cline CLI's system prompt (`@cline/core` 0.0.86, shipped
 * with `cline` 3.0.65: `dist/index.js`, the rule loader and the section builder): `# Rules`, then
 * per rule `## <name>` and its text trimmed, rules a blank line apart, sorted by name
 * (`localeCompare`, as Cline sorts them). A file whose trimmed text is empty is not a rule. Cline
 * writes the text raw, and so does ctxfiles: a `## ` line in a rule is ordinary Markdown there. A
 * budget notice is the first paragraph after the heading.
 */
export function renderCline(files: readonly RenderFile[], context: RenderContext, notice?: string): string {
  const rules = files
    .map((file) => ({ name: ruleName(file, context), text: file.text.trim() }))
    .filter((rule) => rule.text !== '')
    .sort((a, b) => a.name.localeCompare(b.name));
  if (rules.length === 0 && notice === undefined) return '';
  const parts = [
    ...(notice === undefined ? [] : [notice]),
    ...rules.map((rule) => `## ${rule.name}\n${rule.text}`),
  ];
  return `# Rules\n${parts.join('\n\n')}`;
}

export const clineFormat: HostFormat = { name: 'cline', render: renderCline };
