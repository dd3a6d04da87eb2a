import {
  descriptionOf,
  globList,
  patternList,
  type Classification,
  type RuleAdapter,
} from '../rule-adapter.js';
import { EVERY_AGENT, type AgentScope } from '../rule.js';

// VS Code treats these applyTo patterns as "every file" (computeAutomaticInstructions.ts, `_matches`).
const EVERY_FILE = new Set(['**', '**/*', '*']);

// GitHub renamed its coding agent the cloud agent; `excludeAgent` accepts both names for it.
const SAME_AGENT: Readonly<Record<string, readonly string[]>> = {
  'cloud-agent': ['cloud-agent', 'coding-agent'],
  'coding-agent': ['cloud-agent', 'coding-agent'],
};

/** `excludeAgent`: the agents (one name or a list) that do not read the file. */
function excludedAgents(
  value: unknown,
): { ok: true; agents: AgentScope } | Extract<Classification, { ok: false }> {
  const names = patternList(value, 'excludeAgent');
  if (!names.ok) return names;
  if (names.patterns === null) return { ok: true, agents: EVERY_AGENT };
  const except = [...new Set(names.patterns.flatMap((name) => SAME_AGENT[name] ?? [name]))].filter(
    (name) => name !== '',
  );
  return { ok: true, agents: Object.freeze({ only: EVERY_AGENT.only, except: Object.freeze(except) }) };
}

/**
 * GitHub Copilot: `.github/instructions/**\/*.instructions.md` (plain `.md` files there are ignored)
 * and `.github/copilot-instructions.md` (always). `applyTo` (comma-separated) → glob, `**` → always;
 * none → manual. Patterns match at any depth, case-insensitively. `excludeAgent` names agents the file
 * is not for (`code-review`, `cloud-agent`, formerly `coding-agent`). Sources: docs/rules.md.
 */
export const copilotAdapter: RuleAdapter = {
  source: 'copilot',
  locations: [
    { type: 'file', path: '.github/copilot-instructions.md', name: 'copilot-instructions', kind: 'always' },
    { type: 'folder', path: '.github/instructions', extensions: ['.instructions.md'] },
  ],
  keys: ['applyTo', 'description', 'excludeAgent'],
  globKey: 'applyTo',
  globs: { basename: false, anywhere: true, nocase: true, negation: false },
  classify({ data }) {
    const globs = globList(data['applyTo'], 'applyTo');
    if (!globs.ok) return globs;
    const scope = excludedAgents(data['excludeAgent']);
    if (!scope.ok) return scope;
    const { agents } = scope;
    const description = descriptionOf(data);
    if (globs.globs === null) return { ok: true, kind: 'manual', globs: [], description, agents };
    if (globs.globs.some((glob) => EVERY_FILE.has(glob)))
      return { ok: true, kind: 'always', globs: [], description, agents };
    return { ok: true, kind: 'glob', globs: globs.globs, description, agents };
  },
};
