import { booleanOf, descriptionOf, patternList, type RuleAdapter } from '../rule-adapter.js';

/**
 * Continue: `.continue/rules/**\/*.md`, and `~/.continue/rules` with `rules.userFolders`. `alwaysApply: true` → always; `globs` or `regex` → glob (a file
 * must match a glob, when there are globs, and its text one `regex`, when there are patterns);
 * `alwaysApply: false` with neither → requested (the model asks for it by name); nothing → always.
 * `globs` and `regex` are a string (one pattern) or a list; `!` excludes. Sources: docs/rules.md.
 */
export const continueAdapter: RuleAdapter = {
  source: 'continue',
  locations: [{ type: 'folder', path: '.continue/rules', extensions: ['.md'] }],
  userLocations: [{ type: 'folder', path: '.continue/rules', extensions: ['.md'] }],
  keys: ['name', 'description', 'globs', 'regex', 'alwaysApply'],
  globKey: 'globs',
  globs: { basename: false, anywhere: false, nocase: false, negation: true, negationMode: 'exclude' },
  classify({ data, lenient }) {
    const always = booleanOf(data['alwaysApply'], 'alwaysApply', lenient);
    if (!always.ok) return always;
    const globs = patternList(data['globs'], 'globs');
    if (!globs.ok) return globs;
    const regex = patternList(data['regex'], 'regex');
    if (!regex.ok) return regex;
    const description = descriptionOf(data);
    if (always.value === true) return { ok: true, kind: 'always', globs: [], description };
    if (globs.patterns !== null || regex.patterns !== null)
      return {
        ok: true,
        kind: 'glob',
        globs: globs.patterns ?? [],
        description,
        regex: regex.patterns ?? [],
      };
    return { ok: true, kind: always.value === false ? 'requested' : 'always', globs: [], description };
  },
};
