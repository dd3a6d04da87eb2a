import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import { cli } from './helpers/cli.js';
import { tempTree } from './helpers/disk.js';
import { HOST_REGISTRY } from '../src/hosts/index.js';

const example = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../examples/subagents');

test('explain --hosts: each context of the example and the files it gets (docs/explain.md)', async () => {
  const result = await cli(['explain', '--hosts'], { cwd: example });
  expect(result.stderr).toBe('');
  expect(result.stdout.split('\n').slice(0, 7).join('\n')).toBe(
    [
      "Hosts' agents and modes here (docs/subagents.md)",
      '',
      'main agent (global layer): RULES.md',
      'subagent Explore → agent explorer (mapped): docs/explore.md',
      'subagent reviewer → agent reviewer (same name): RULES.md, docs/review.md',
      'subagent explorer → agent explorer (same name): docs/explore.md',
      'mode plan → flow work, step plan: RULES.md, docs/plan.md',
    ].join('\n'),
  );
  expect(result.stdout).toContain('By the hook (SubagentStart, UserPromptSubmit): ');
  const json = JSON.parse((await cli(['explain', '--hosts', '--json'], { cwd: example })).stdout) as {
    contexts: Array<{ kind: string; name?: string; agent?: string; files: string[] }>;
    delivery: { hook: string[]; mcp: string[] };
  };
  expect(json.contexts.find((view) => view.name === 'Explore')).toMatchObject({
    kind: 'subagent',
    agent: 'explorer',
    files: ['docs/explore.md'],
  });
  expect(json.delivery.hook).toEqual(expect.arrayContaining(['claude-code', 'codex', 'qwen-code']));
  expect(json.delivery.mcp).toContain('gemini-cli');
});

test('doctor prints the same section for a project that maps subagents or modes, nothing otherwise', async () => {
  const { hostAgentsSection } = await import('../src/doctor/host-agents.js');
  const section = await hostAgentsSection(
    { workDir: example, env: {}, homeDir: '/nonexistent-home' },
    HOST_REGISTRY,
  );
  expect(section).toContain("Hosts' agents and modes (docs/subagents.md)");
  expect(section).toContain('  subagent Explore → agent explorer (mapped): docs/explore.md');
  expect(section).toContain('  mode plan → flow work, step plan: RULES.md, docs/plan.md');
  const plain = await hostAgentsSection(
    {
      workDir: tempTree({ 'AGENTS.md': 'rules' }),
      env: {},
      homeDir: '/nonexistent-home',
    },
    HOST_REGISTRY,
  );
  expect(plain).toBe('');
});
