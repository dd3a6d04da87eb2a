import type { RuleAdapter } from '../rule-adapter.js';

/**
 * JetBrains Junie: `.junie/guidelines.md`, added to every task (always). Sources: docs/rules.md.
 */
export const junieAdapter: RuleAdapter = {
  source: 'junie',
  locations: [{ type: 'file', path: '.junie/guidelines.md', name: 'guidelines', kind: 'always' }],
  keys: [],
  globs: { basename: false, anywhere: false, nocase: false, negation: false },
  classify: () => ({ ok: true, kind: 'always', globs: [], description: '' }),
};

/**
 * Zed: a `.rules` file at the top of the project, included in every agent interaction (always); read
 * in the work dir only. Sources: docs/rules.md.
 */
export const zedAdapter: RuleAdapter = {
  source: 'zed',
  locations: [{ type: 'file', path: '.rules', name: 'rules', kind: 'always', owners: 'work-dir' }],
  keys: [],
  globs: { basename: false, anywhere: false, nocase: false, negation: false },
  classify: () => ({ ok: true, kind: 'always', globs: [], description: '' }),
};
