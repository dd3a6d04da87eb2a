import { descriptionOf, globList, type RuleAdapter } from '../rule-adapter.js';

/**
 * Cline: `.clinerules/**\/*.md`, or a single-file `.clinerules` (always). `paths` → glob; none →
 * always. Patterns are workspace-relative and each may be negated with `!` (picomatch). Sources:
 * docs/rules.md.
 */
export const clineAdapter: RuleAdapter = {
  source: 'cline',
  locations: [
    { type: 'folder', path: '.clinerules', extension: '.md' },
    { type: 'file', path: '.clinerules', name: 'clinerules', kind: 'always' },
  ],
  keys: ['paths', 'description'],
  globs: { basename: false, anywhere: false, nocase: false, negation: true },
  classify({ data }) {
    const globs = globList(data['paths'], 'paths');
    if (!globs.ok) return globs;
    const description = descriptionOf(data);
    if (globs.globs === null) return { ok: true, kind: 'always', globs: [], description };
    if (globs.globs.length === 0) return { ok: false, problem: 'paths is an empty list' };
    return { ok: true, kind: 'glob', globs: globs.globs, description };
  },
};
