import { descriptionOf, globList, show, type RuleAdapter } from '../rule-adapter.js';
import type { RuleKind } from '../rule.js';

const TRIGGERS: Readonly<Record<string, RuleKind>> = {
  always_on: 'always',
  glob: 'glob',
  model_decision: 'requested',
  manual: 'manual',
};

/** An `AGENTS.md` (or `agents.md`) below the work dir: a `glob` rule for everything under its directory. */
const nestedAgentsFile = (path: string) =>
  ({ type: 'file', path, name: 'AGENTS', kind: 'glob', globs: ['**'], owners: 'nested' }) as const;

/**
 * Windsurf (Devin Desktop) workspace rules: `.windsurf/rules/**\/*.md` and `.devin/rules/**\/*.md` with `trigger`: `always_on` → always, `glob`
 * (+ `globs`) → glob, `model_decision` (+ `description`) → requested, `manual` → manual. A file without
 * `trigger` is manual. An `AGENTS.md` in a subdirectory is a glob rule for `<dir>/**` (the work dir's
 * own is the chain's file). Windsurf reads a rule file up to 12,000 characters. Sources: docs/rules.md.
 */
export const windsurfAdapter: RuleAdapter = {
  source: 'windsurf',
  locations: [
    { type: 'folder', path: '.windsurf/rules', extensions: ['.md'] },
    // Devin Desktop (Windsurf renamed) keeps the same rules in `.devin/rules/`, and still reads the old folder.
    { type: 'folder', path: '.devin/rules', extensions: ['.md'] },
    nestedAgentsFile('AGENTS.md'),
    nestedAgentsFile('agents.md'),
  ],
  maxChars: 12_000,
  keys: ['trigger', 'globs', 'description'],
  globKey: 'globs',
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
