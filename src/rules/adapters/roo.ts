import type { RuleAdapter } from '../rule-adapter.js';

/**
 * The adapter of Roo Code or a fork of it that keeps its rules in `<dir>/rules/` (every mode) and
 * `<dir>/rules-<mode>/` (one mode: an agent-scoped rule). Every file is always on, for its mode;
 * frontmatter, if any, is stripped and not read. Sources: docs/rules.md.
 */
function modeFolders(source: string, dir: string): RuleAdapter {
  return {
    source,
    locations: [
      { type: 'folder', path: `${dir}/rules`, extensions: ['.md', '.txt'] },
      { type: 'folder', path: dir, extensions: ['.md', '.txt'], agentPrefix: 'rules-' },
    ],
    keys: [],
    globs: { basename: false, anywhere: false, nocase: false, negation: false },
    classify: () => ({ ok: true, kind: 'always', globs: [], description: '' }),
  };
}

/** Roo Code: `.roo/rules/` and `.roo/rules-<mode>/`. */
export const rooAdapter: RuleAdapter = modeFolders('roo', '.roo');

/** Kilo Code (a Roo Code fork): `.kilocode/rules/` and `.kilocode/rules-<mode>/`. */
export const kiloAdapter: RuleAdapter = modeFolders('kilo', '.kilocode');
