import { descriptionOf, show, type RuleAdapter } from '../rule-adapter.js';
import type { RuleKind } from '../rule.js';

const TYPES: Readonly<Record<string, RuleKind>> = {
  always_apply: 'always',
  agent_requested: 'requested',
  manual: 'manual',
};

/**
 * Augment Code workspace rules: `.augment/rules/**\/*.md` with `type`: `always_apply` (also when
 * absent) → always, `agent_requested` (+ `description`) → requested, `manual` → manual (attached by
 * an @ mention in the IDE extensions). Sources: docs/rules.md.
 */
export const augmentAdapter: RuleAdapter = {
  source: 'augment',
  locations: [{ type: 'folder', path: '.augment/rules', extensions: ['.md'] }],
  keys: ['type', 'description'],
  globs: { basename: false, anywhere: false, nocase: false, negation: false },
  classify({ data }) {
    const type = data['type'];
    const description = descriptionOf(data);
    if (type === undefined || type === null || type === '')
      return { ok: true, kind: 'always', globs: [], description };
    const kind = typeof type === 'string' ? TYPES[type] : undefined;
    if (kind === undefined)
      return {
        ok: false,
        problem: `type must be one of ${Object.keys(TYPES).join(', ')}, received ${show(type)}`,
      };
    return { ok: true, kind, globs: [], description };
  },
};
