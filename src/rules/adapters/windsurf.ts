import { descriptionOf, globList, show, type RuleAdapter } from '../rule-adapter.js';
import type { RuleKind } from '../rule.js';

const TRIGGERS: Readonly<Record<string, RuleKind>> = {
  always_on: 'always',
  glob: 'glob',
  model_decision: 'requested',
  manual: 'manual',
};

/**
 * Windsurf workspace rules: `.windsurf/rules/**\/*.md` with `trigger`: `always_on` → always, `glob`
 * (+ `globs`) → glob, `model_decision` (+ `description`) → requested, `manual` → manual. A file without
 * `trigger` is manual. Sources: docs/rules.md.
 */
export const windsurfAdapter: RuleAdapter = {
  source: 'windsurf',
  locations: [{ type: 'folder', path: '.windsurf/rules', extension: '.md' }],
  keys: ['trigger', 'globs', 'description'],
  globs: { basename: true, anywhere: false, nocase: false, negation: false },
  classify({ data }) {
    const trigger = data['trigger'];
    const description = descriptionOf(data);
    if (trigger === undefined || trigger === null || trigger === '')
      return { ok: true, kind: 'manual', globs: [], description };
    const kind = typeof trigger === 'string' ? TRIGGERS[trigger] : undefined;
    if (kind === undefined)
      return {
        ok: false,
        problem: `trigger must be one of ${Object.keys(TRIGGERS).join(', ')}, received ${show(trigger)}`,
      };
    if (kind !== 'glob') return { ok: true, kind, globs: [], description };
    const globs = globList(data['globs'], 'globs');
    if (!globs.ok) return globs;
    if (globs.globs === null || globs.globs.length === 0)
      return { ok: false, problem: 'trigger is glob but globs is empty' };
    return { ok: true, kind, globs: globs.globs, description };
  },
};
