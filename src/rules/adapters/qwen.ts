import { descriptionOf, type RuleAdapter } from '../rule-adapter.js';

/**
 * Qwen Code rules: `.qwen/rules/**\/*.md` in the project and, with `rules.userFolders`, in
 * `~/.qwen/rules`. `paths` → glob; none → always. `paths` is a list (each item a pattern, empty
 * ones dropped; an empty list means none) or one string, one pattern (a comma in it is part of the
 * pattern); a value of another type counts as none. Patterns are relative to the project, each
 * matched on its own (picomatch with `dot`), `!` negating that one pattern. Files whose name starts
 * with a dot are read too. Sources: docs/rules.md ("Qwen Code").
 */
export const qwenAdapter: RuleAdapter = {
  source: 'qwen',
  locations: [{ type: 'folder', path: '.qwen/rules', extensions: ['.md'], dotEntries: true }],
  userLocations: [{ type: 'folder', path: '.qwen/rules', extensions: ['.md'], dotEntries: true }],
  keys: ['paths', 'description'],
  globKey: 'paths',
  globs: { basename: false, anywhere: false, nocase: false, negation: true, negationMode: 'each' },
  classify({ data }) {
    const description = descriptionOf(data);
    const value = data['paths'];
    // As Qwen Code reads it (`parseRuleFile`): `paths.map(String).filter(Boolean)`, or `[paths]`.
    const globs = Array.isArray(value)
      ? value.map(String).filter(Boolean)
      : typeof value === 'string' && value !== ''
        ? [value]
        : [];
    if (globs.length === 0) return { ok: true, kind: 'always', globs: [], description };
    return { ok: true, kind: 'glob', globs, description };
  },
};
