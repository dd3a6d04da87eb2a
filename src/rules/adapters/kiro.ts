import { descriptionOf, patternList, show, type RuleAdapter } from '../rule-adapter.js';

const INCLUSIONS = ['always', 'fileMatch', 'manual', 'auto'];

/**
 * Kiro steering files: `.kiro/steering/*.md`. `inclusion`: `always` (also when absent: a file without
 * frontmatter is always included) → always, `fileMatch` (+ `fileMatchPattern`, one glob or a list) →
 * glob, `auto` (+ `name`, `description`) → requested, `manual` → manual. Patterns are relative to the
 * workspace; a string is one pattern (a comma in it is part of the pattern). Sources: docs/rules.md.
 */
export const kiroAdapter: RuleAdapter = {
  source: 'kiro',
  locations: [{ type: 'folder', path: '.kiro/steering', extensions: ['.md'] }],
  userLocations: [{ type: 'folder', path: '.kiro/steering', extensions: ['.md'] }],
  keys: ['inclusion', 'fileMatchPattern', 'name', 'description'],
  globKey: 'fileMatchPattern',
  globs: { basename: false, anywhere: false, nocase: false, negation: false },
  fileReferences: true,
  classify({ data }) {
    const inclusion = data['inclusion'];
    const description = descriptionOf(data);
    if (inclusion === undefined || inclusion === null || inclusion === '' || inclusion === 'always')
      return { ok: true, kind: 'always', globs: [], description };
    if (typeof inclusion !== 'string' || !INCLUSIONS.includes(inclusion))
      return {
        ok: false,
        problem: `inclusion must be one of ${INCLUSIONS.join(', ')}, received ${show(inclusion)}`,
      };
    if (inclusion === 'manual') return { ok: true, kind: 'manual', globs: [], description };
    if (inclusion === 'auto') return { ok: true, kind: 'requested', globs: [], description };
    const patterns = patternList(data['fileMatchPattern'], 'fileMatchPattern');
    if (!patterns.ok) return patterns;
    if (patterns.patterns === null)
      return { ok: false, problem: 'inclusion is fileMatch but fileMatchPattern is missing' };
    return { ok: true, kind: 'glob', globs: patterns.patterns, description };
  },
};
