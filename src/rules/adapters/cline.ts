import { classifyByPaths, type RuleAdapter } from '../rule-adapter.js';

/**
 * Cline: `.clinerules/**\/*.md`, or a single-file `.clinerules` (always). `paths` → glob; none →
 * always. Patterns are workspace-relative and each may be negated with `!` (picomatch). Sources:
 * docs/rules.md.
 */
export const clineAdapter: RuleAdapter = {
  source: 'cline',
  locations: [
    { type: 'folder', path: '.clinerules', extensions: ['.md'] },
    { type: 'file', path: '.clinerules', name: 'clinerules', kind: 'always' },
  ],
  keys: ['paths', 'description'],
  globKey: 'paths',
  globs: { basename: false, anywhere: false, nocase: false, negation: true },
  classify: classifyByPaths,
};
