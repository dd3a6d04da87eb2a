import { describe, expect, test } from 'vitest';
import { hostLayers, type HostContext } from '../src/api/host-layers.js';
import { normalizeConfig } from '../src/config/normalize-config.js';
import type { ConfigInput } from '../src/config/schema.js';
import type { Flow } from '../src/config/types.js';

const flows = new Map<string, Flow>([
  ['work', { id: 'work', file: '/p/.ctxfiles/flows/work.yaml', steps: [{ id: 'plan' }, { id: 'build' }] }],
]);

const declared: ConfigInput = {
  agents: { reviewer: {}, explorer: {}, coder: {} },
  subagents: { Explore: 'explorer', 'code-reviewer': 'reviewer', typo: 'reveiwer' },
  modes: {
    plan: { flow: 'work', step: 'plan' },
    acceptEdits: { flow: 'work', step: 'nope' },
    x: { flow: 'gone', step: 'plan' },
  },
};

// One row per rule of docs/subagents.md, "Which layer": config, context, --agent → layers.
test.each<[string, ConfigInput, HostContext, string | undefined, object, string[]]>([
  // The main agent, no mode: the hook's --agent, or nothing.
  ['main agent, no --agent', declared, {}, undefined, { agentReason: 'main agent' }, []],
  ['main agent with --agent', declared, {}, 'coder', { agent: 'coder', agentReason: 'main agent' }, []],
  // A subagent mapped in `subagents`.
  [
    'mapped subagent',
    declared,
    { agentId: 'a1', agentType: 'Explore' },
    'coder',
    { agent: 'explorer', agentReason: 'mapped' },
    [],
  ],
  // A subagent named like a declared agent: that agent, without a mapping.
  [
    'same name',
    declared,
    { agentId: 'a1', agentType: 'reviewer' },
    undefined,
    { agent: 'reviewer', agentReason: 'same name' },
    [],
  ],
  // A subagent with no agent: the global layer, not the parent's --agent.
  [
    'no agent of that name',
    declared,
    { agentId: 'a1', agentType: 'general-purpose' },
    'coder',
    { agentReason: 'no agent' },
    [],
  ],
  // A mapping to an unknown agent: a warning, and no agent layer.
  [
    'mapping to an unknown agent',
    declared,
    { agentId: 'a1', agentType: 'typo' },
    undefined,
    { agentReason: 'no agent' },
    ['unknown-subagent'],
  ],
  // Nothing declared anywhere: any name is an agent (its ${agent} token expands).
  [
    'nothing declared',
    {},
    { agentId: 'a1', agentType: 'Plan' },
    undefined,
    { agent: 'Plan', agentReason: 'same name' },
    [],
  ],
  // A mapped mode selects its step; the default mode, not mapped, selects none.
  [
    'plan mode',
    declared,
    { mode: 'plan' },
    undefined,
    { flow: 'work', step: 'plan', agentReason: 'main agent' },
    [],
  ],
  ['leaving plan mode', declared, { mode: 'default' }, undefined, { agentReason: 'main agent' }, []],
  // A mapping to an unknown step or flow: a warning, and no step.
  [
    'unknown step',
    declared,
    { mode: 'acceptEdits' },
    undefined,
    { agentReason: 'main agent' },
    ['unknown-mode-step'],
  ],
  ['unknown flow', declared, { mode: 'x' }, undefined, { agentReason: 'main agent' }, ['unknown-mode-step']],
  // A subagent in plan mode: both layers (step > agent > global).
  [
    'subagent in plan mode',
    declared,
    { agentId: 'a1', agentType: 'code-reviewer', mode: 'plan' },
    undefined,
    { agent: 'reviewer', flow: 'work', step: 'plan', agentReason: 'mapped' },
    [],
  ],
  // A name inherited from Object.prototype is not a mapping.
  [
    'toString is no mapping',
    declared,
    { agentId: 'a1', agentType: 'toString', mode: 'constructor' },
    undefined,
    { agentReason: 'no agent' },
    [],
  ],
])('%s', (_name, input, context, mainAgent, expected, codes) => {
  const { diagnostics, ...layers } = hostLayers(normalizeConfig(input), flows, context, mainAgent);
  expect(layers).toEqual(expected);
  expect(diagnostics.map((diagnostic) => diagnostic.code)).toEqual(codes);
});

describe('the message of a mapping that names nothing', () => {
  test('says the key, the name and the known ones', () => {
    const result = hostLayers(normalizeConfig(declared), flows, { agentId: 'a', agentType: 'typo' });
    expect(result.diagnostics[0]?.message).toBe(
      'subagents.typo: unknown agent "reveiwer"; the subagent gets no agent layer. Known agents: reviewer, explorer, coder.',
    );
    const mode = hostLayers(normalizeConfig(declared), flows, { mode: 'x' });
    expect(mode.diagnostics[0]?.message).toBe(
      'modes.x: unknown flow "gone"; the mode selects no step. Known flows: work.',
    );
  });
});
