import path from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, test } from 'vitest';
import { cli } from './helpers/cli.js';
import { tempTree } from './helpers/disk.js';

const project = {
  '.git/HEAD': 'ref: refs/heads/main\n',
  'RULES.md': 'Root rules.',
  'REVIEW.md': 'Review rules.',
  'EXPLORE.md': 'Explore rules.',
  'PLAN.md': 'Plan rules.',
  'pkg/RULES.md': 'Package rules.',
  'pkg/a.js': 'a',
  'pkg/b.js': 'b',
  '.ctxfiles/flows/work.yaml':
    'steps:\n  - id: plan\n    context: { paths: [PLAN.md], mode: append }\n  - id: build\n',
  'ctxfiles.config.json': JSON.stringify({
    contextPaths: ['RULES.md'],
    agents: {
      reviewer: { context: { paths: ['REVIEW.md'], mode: 'replace' } },
      explorer: { context: { paths: ['EXPLORE.md'], mode: 'append' } },
    },
    subagents: { Explore: 'explorer' },
    modes: { plan: { flow: 'work', step: 'plan' } },
  }),
};

/** `hook(host, event)` runs `ctxfiles hook` in-process on one event of session s1; returns the added text. */
function setup(tree: Record<string, string> = project) {
  const root = tempTree(tree);
  const stateDir = path.join(tempTree(), 'sessions');
  const hook = async (host: string, event: Record<string, unknown>, stderr: string | RegExp = '') => {
    const result = await cli(['hook', host], {
      cwd: root,
      env: { CTXFILES_STATE_DIR: stateDir },
      stdin: Readable.from([JSON.stringify({ session_id: 's1', cwd: root, ...event })]),
    });
    if (typeof stderr === 'string') expect(result.stderr).toBe(stderr);
    else expect(result.stderr).toMatch(stderr);
    if (result.stdout === '' || result.stdout === '{}\n') return { text: '', event: undefined };
    const output = (
      JSON.parse(result.stdout) as {
        hookSpecificOutput: { hookEventName: string; additionalContext: string };
      }
    ).hookSpecificOutput;
    return { text: output.additionalContext, event: output.hookEventName };
  };
  const read = (file: string, context: Record<string, unknown> = {}) =>
    hook('claude-code', {
      hook_event_name: 'PostToolUse',
      tool_name: 'Read',
      tool_input: { file_path: path.join(root, file) },
      tool_response: {},
      ...context,
    });
  return { root, hook, read };
}

const sub = (id: string, type = 'general-purpose') => ({ agent_id: id, agent_type: type });

// Each row runs several hook processes in a row; on a loaded machine that takes a while.
describe(
  'each subagent context keeps its own once-only state (events carry the parent session_id)',
  { timeout: 60_000 },
  () => {
    // Rows: who reads which file, in order, in one session; whether pkg/RULES.md arrives.
    test.each<[string, Array<[string, Record<string, unknown>, boolean]>]>([
      [
        'a subagent gets a nested file its parent already received',
        [
          ['pkg/a.js', {}, true],
          ['pkg/b.js', sub('a1'), true],
        ],
      ],
      [
        'once per context: the same subagent, the parent, another subagent',
        [
          ['pkg/a.js', sub('a1'), true],
          ['pkg/b.js', sub('a1'), false],
          ['pkg/b.js', {}, true],
          ['pkg/a.js', {}, false],
          ['pkg/a.js', sub('a2'), true],
        ],
      ],
      [
        'the permission mode does not make a new context',
        [
          ['pkg/a.js', { permission_mode: 'default' }, true],
          ['pkg/b.js', { permission_mode: 'acceptEdits' }, false],
        ],
      ],
    ])('%s', async (_name, steps) => {
      const { read } = setup();
      for (const [file, context, arrives] of steps)
        expect((await read(file, context)).text.includes('Package rules.')).toBe(arrives);
    });
  },
);

describe('SubagentStart gives the subagent its agent layer', { timeout: 60_000 }, () => {
  const start = (host: string, type: string, id = 'a1') =>
    setup().hook(host, { hook_event_name: 'SubagentStart', agent_id: id, agent_type: type });

  test.each<[string, string, string[], string[]]>([
    // A replace layer keeps the parent's files out.
    ['claude-code', 'reviewer', ['Review rules.'], ['Root rules.', 'Explore rules.']],
    // Mapped by `subagents`; an append layer adds to the global one.
    ['claude-code', 'Explore', ['Explore rules.', 'Root rules.'], ['Review rules.']],
    // No agent of that name: the global layer.
    ['claude-code', 'general-purpose', ['Root rules.'], ['Review rules.', 'Explore rules.']],
    ['codex', 'reviewer', ['Review rules.'], ['Root rules.']],
    ['qwen-code', 'reviewer', ['Review rules.'], ['Root rules.']],
  ])('%s %s', async (host, type, present, absent) => {
    const { text, event } = await start(host, type);
    expect(event).toBe('SubagentStart');
    for (const rule of present) expect(text).toContain(rule);
    for (const rule of absent) expect(text).not.toContain(rule);
    // The manifest lists the nested files of the layer's names: pkg/RULES.md only where RULES.md is in it.
    expect(text.includes('- pkg/RULES.md')).toBe(present.includes('Root rules.'));
  });

  test('Qwen Code: later events of the subagent carry agent_id only; its name is remembered', async () => {
    const { hook } = setup({
      ...project,
      'pkg/REVIEW.md': 'Package review rules.',
      'ctxfiles.config.json': JSON.stringify({
        contextPaths: ['RULES.md'],
        agents: { reviewer: { context: { paths: ['REVIEW.md'], mode: 'replace' } } },
      }),
    });
    await hook('qwen-code', { hook_event_name: 'SubagentStart', agent_id: 'q1', agent_type: 'reviewer' });
    const after = await hook('qwen-code', {
      hook_event_name: 'PostToolUse',
      agent_id: 'q1',
      tool_name: 'read_file',
      tool_input: { file_path: 'pkg/a.js' },
      tool_response: {},
    });
    // The reviewer's layer names REVIEW.md only: its nested twin arrives, pkg/RULES.md does not.
    expect(after.text).toContain('Package review rules.');
    expect(after.text).not.toContain('Package rules.');
  });

  test('a mapping to an unknown agent warns and gives the global layer', async () => {
    const { hook } = setup({
      ...project,
      'ctxfiles.config.json': JSON.stringify({
        contextPaths: ['RULES.md'],
        agents: { reviewer: { context: { paths: ['REVIEW.md'] } } },
        subagents: { Explore: 'explroer' },
      }),
    });
    const { text } = await hook(
      'claude-code',
      { hook_event_name: 'SubagentStart', agent_id: 'a1', agent_type: 'Explore' },
      'ctxfiles: warning: subagents.Explore: unknown agent "explroer"; the subagent gets no agent layer. Known agents: reviewer. [unknown-subagent]\n',
    );
    expect(text).toContain('Root rules.');
  });
});

describe('a mode selects its flow step', { timeout: 60_000 }, () => {
  const prompt = (mode: string) => ({
    hook_event_name: 'UserPromptSubmit',
    prompt: 'go',
    permission_mode: mode,
  });

  test.each<[string, string[], Array<string | null>]>([
    // Plan mode: the plan step's files, once per context.
    ['plan, plan', ['plan', 'plan'], ['Plan rules.', null]],
    // The default mode selects no step: nothing.
    ['default', ['default'], [null]],
    // Leaving plan mode adds nothing; coming back adds nothing either (still in view).
    ['plan, default, plan', ['plan', 'default', 'plan'], ['Plan rules.', null, null]],
  ])('%s', async (_name, modes, expected) => {
    const { hook } = setup();
    for (const [index, mode] of modes.entries()) {
      const { text, event } = await hook('claude-code', prompt(mode));
      if (expected[index] === null) expect(text).toBe('');
      else {
        expect(event).toBe('UserPromptSubmit');
        expect(text).toContain(expected[index]);
        // Only the step layer's files: the global ones came at session start.
        expect(text).not.toContain('Root rules.');
      }
    }
  });

  test('Codex: a session started in plan mode carries the step, and the prompt does not repeat it', async () => {
    const { hook } = setup();
    const start = await hook('codex', {
      hook_event_name: 'SessionStart',
      source: 'startup',
      permission_mode: 'plan',
    });
    expect(start.text).toContain('Plan rules.');
    expect(start.text).toContain('Root rules.');
    expect((await hook('codex', prompt('plan'))).text).toBe('');
  });

  test('after a compaction the step is given again', async () => {
    const { hook } = setup();
    expect((await hook('claude-code', prompt('plan'))).text).toContain('Plan rules.');
    await hook('claude-code', { hook_event_name: 'SessionStart', source: 'compact' });
    expect((await hook('claude-code', prompt('plan'))).text).toContain('Plan rules.');
  });

  test('a subagent in plan mode gets the step in its own context', async () => {
    const { hook } = setup();
    expect((await hook('claude-code', prompt('plan'))).text).toContain('Plan rules.');
    const inside = await hook('claude-code', { ...prompt('plan'), ...sub('a1') });
    expect(inside.text).toContain('Plan rules.');
  });
});

test('a broken flow file is a warning: the subagent still gets its agent layer', async () => {
  const { hook } = setup({ ...project, '.ctxfiles/flows/broken.yaml': 'steps: [\n' });
  const { text } = await hook(
    'claude-code',
    { hook_event_name: 'SubagentStart', agent_id: 'a1', agent_type: 'reviewer' },
    /^ctxfiles: warning: the flows cannot be read \(.*\)\n$/,
  );
  expect(text).toContain('Review rules.');
});
