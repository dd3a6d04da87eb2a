import { descriptionOf, globList, type RuleAdapter } from '../rule-adapter.js';

// VS Code treats these applyTo patterns as "every file" (computeAutomaticInstructions.ts, `_matches`).
const EVERY_FILE = new Set(['**', '**/*', '*']);

/**
 * GitHub Copilot: `.github/instructions/**\/*.instructions.md` (plain `.md` files there are ignored)
 * and `.github/copilot-instructions.md` (always). `applyTo` (comma-separated) → glob, `**` → always;
 * none → manual. Patterns match at any depth, case-insensitively. Sources: docs/rules.md.
 */
export const copilotAdapter: RuleAdapter = {
  source: 'copilot',
  locations: [
    { type: 'file', path: '.github/copilot-instructions.md', name: 'copilot-instructions', kind: 'always' },
    { type: 'folder', path: '.github/instructions', extension: '.instructions.md' },
  ],
  keys: ['applyTo', 'description'],
  globs: { basename: false, anywhere: true, nocase: true, negation: false },
  classify({ data }) {
    const globs = globList(data['applyTo'], 'applyTo');
    if (!globs.ok) return globs;
    const description = descriptionOf(data);
    if (globs.globs === null) return { ok: true, kind: 'manual', globs: [], description };
    if (globs.globs.some((glob) => EVERY_FILE.has(glob)))
      return { ok: true, kind: 'always', globs: [], description };
    return { ok: true, kind: 'glob', globs: globs.globs, description };
  },
};
