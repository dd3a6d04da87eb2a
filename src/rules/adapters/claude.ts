import { descriptionOf, globList, type RuleAdapter } from '../rule-adapter.js';

/**
 * Claude Code project rules: `.claude/rules/**\/*.md`. `paths` → glob; none → always (loaded like
 * CLAUDE.md). Patterns are relative to the project, so `*.md` is the root only. Sources: docs/rules.md.
 */
export const claudeAdapter: RuleAdapter = {
  source: 'claude',
  locations: [{ type: 'folder', path: '.claude/rules', extension: '.md' }],
  keys: ['paths', 'description'],
  globs: { basename: false, anywhere: false, nocase: false, negation: false },
  classify({ data }) {
    const globs = globList(data['paths'], 'paths');
    if (!globs.ok) return globs;
    const description = descriptionOf(data);
    if (globs.globs === null) return { ok: true, kind: 'always', globs: [], description };
    if (globs.globs.length === 0) return { ok: false, problem: 'paths is an empty list' };
    return { ok: true, kind: 'glob', globs: globs.globs, description };
  },
};
