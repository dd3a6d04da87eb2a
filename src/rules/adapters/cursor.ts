import { isQuoted } from '../frontmatter-lines.js';
import { booleanOf, descriptionOf, globList, keyNamed, type RuleAdapter } from '../rule-adapter.js';

/**
 * Cursor project rules: `.cursor/rules/**\/*.mdc`. `alwaysApply: true` → always; `globs` → glob;
 * `description` alone → requested ("agent requested"); none → manual. Sources: docs/rules.md.
 */
export const cursorAdapter: RuleAdapter = {
  source: 'cursor',
  locations: [{ type: 'folder', path: '.cursor/rules', extensions: ['.mdc'] }],
  keys: ['description', 'globs', 'alwaysApply'],
  globKey: 'globs',
  globs: { basename: true, anywhere: false, nocase: false, negation: false },
  classify({ data, lenient }) {
    const always = booleanOf(data['alwaysApply'], 'alwaysApply', lenient);
    if (!always.ok) return always;
    const globs = globList(data['globs'], 'globs');
    if (!globs.ok) return globs;
    const description = descriptionOf(data);
    if (always.value === true) return { ok: true, kind: 'always', globs: [], description };
    if (globs.globs !== null) return { ok: true, kind: 'glob', globs: globs.globs, description };
    return { ok: true, kind: description === '' ? 'manual' : 'requested', globs: [], description };
  },
  // A quoted `alwaysApply` is a string where Cursor reads a boolean: the rule is not applied always,
  // and its text never reaches the model unless asked for.
  misreads(keys) {
    const always = keyNamed(keys, 'alwaysApply');
    if (always === undefined || !isQuoted(always.value)) return [];
    return [
      {
        key: always,
        problem: `alwaysApply: ${always.value} is a string, not the boolean Cursor reads: the rule is not applied always`,
        fix: `write alwaysApply: ${always.value.slice(1, -1)} without quotes`,
        lost: true,
      },
    ];
  },
};
