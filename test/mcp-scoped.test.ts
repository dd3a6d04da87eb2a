import { describe, expect, test } from 'vitest';
import type { ToolResult } from '../src/mcp/mcp-connection.js';
import { createScopedConnection } from '../src/mcp/scoped-connection.js';
import { TOOL_DEFINITIONS } from '../src/mcp/tool-definitions.js';
import { memoryResolver } from './helpers/memory.js';
import { HOST_REGISTRY } from '../src/hosts/index.js';

const tree = {
  'RULES.md': 'root rules',
  'REVIEW.md': 'review rules',
  'PLAN.md': 'plan rules',
  'svc/RULES.md': 'svc rules',
};
const flows = [
  {
    id: 'work',
    file: '/w/work.yaml',
    steps: [{ id: 'plan', context: { paths: ['PLAN.md'], mode: 'append' } }],
  },
];
const config = {
  contextPaths: ['RULES.md'],
  agents: { reviewer: { context: { paths: ['REVIEW.md'], mode: 'replace' } }, coder: {} },
};

async function connect() {
  const { resolver, fs } = await memoryResolver(tree, config, { flows });
  return createScopedConnection({ resolver, formats: HOST_REGISTRY.format, fs, homeDir: '/home/u' });
}

const text = (result: ToolResult) => result.content.map((part) => part.text).join('\n');

describe('instructions_for_path with agent, flow and step (docs/subagents.md)', () => {
  test('each context gets its own layer and its own once-only state', async () => {
    const connection = await connect();
    const main = text(await connection.callTool('instructions_for_path', { path: 'svc/a.ts' }));
    expect(main).toContain('root rules');
    expect(main).toContain('svc rules');
    // The reviewer (replace): its own layer, not the global one, and no nested RULES.md.
    const reviewer = text(
      await connection.callTool('instructions_for_path', { path: 'svc/a.ts', agent: 'reviewer' }),
    );
    expect(reviewer).toContain('review rules');
    expect(reviewer).not.toContain('root rules');
    // A context given the files once gets nothing new; the main context is untouched by it.
    const again = await connection.callTool('instructions_for_path', { path: 'svc/a.ts', agent: 'reviewer' });
    expect(text(again)).not.toContain('review rules');
    expect(text(await connection.callTool('instructions_for_path', { path: 'svc/a.ts' }))).not.toContain(
      'svc rules',
    );
    // The plan step: its file, and the global layer it appends to; a context of its own.
    const plan = text(
      await connection.callTool('instructions_for_path', { path: 'svc/a.ts', flow: 'work', step: 'plan' }),
    );
    expect(plan).toContain('plan rules');
    expect(plan).toContain('svc rules');
  });

  test.each<[Record<string, unknown>, string]>([
    [{ agent: 'reveiwer' }, 'Unknown agent "reveiwer". The agents are: reviewer, coder.'],
    [{ flow: 'work' }, '"flow" and "step" go together: give both, or neither'],
    [{ flow: 'wrk', step: 'plan' }, 'Unknown flow "wrk". The flows are: work.'],
    [{ flow: 'work', step: 'build' }, 'Unknown step "build" in flow "work". The steps are: plan.'],
    [{ agent: '' }, '"agent" must be a non-empty string of at most 200 characters'],
    [{ step: 7, flow: 'work' }, '"step" must be a non-empty string of at most 200 characters'],
  ])('refused: %j', async (scope, message) => {
    const connection = await connect();
    const result = await connection.callTool('instructions_for_path', { path: 'svc/a.ts', ...scope });
    expect(result).toEqual({ content: [{ type: 'text', text: message }], isError: true });
  });

  test('every tool lists agent, flow and step', () => {
    for (const tool of TOOL_DEFINITIONS)
      expect(Object.keys(tool.inputSchema.properties)).toEqual(
        expect.arrayContaining(['agent', 'flow', 'step']),
      );
  });
});

describe('a scoped context and the hook-shared state (mcp --host)', () => {
  test("the main context uses the hook's state; an agent's context keeps its own", async () => {
    const { resolver, fs } = await memoryResolver(tree, config, { flows });
    let stored: unknown | null = null;
    let calls = 0;
    const shared = {
      async withDisclosure<T>(
        step: (disclosure: unknown | null) => Promise<{ readonly value: T; readonly disclosure: unknown }>,
      ): Promise<T> {
        calls += 1;
        const { value, disclosure } = await step(stored);
        stored = disclosure;
        return value;
      },
    };
    const connection = createScopedConnection({
      resolver,
      formats: HOST_REGISTRY.format,
      fs,
      homeDir: '/home/u',
      shared,
    });
    expect(text(await connection.callTool('instructions_for_path', { path: 'svc/a.ts' }))).toContain(
      'svc rules',
    );
    expect(calls).toBe(1);
    // The subagent has a context of its own: it gets svc/RULES.md although the main one had it,
    // and the hook's state is neither read nor written for it.
    const coder = text(
      await connection.callTool('instructions_for_path', { path: 'svc/a.ts', agent: 'coder' }),
    );
    expect(coder).toContain('svc rules');
    expect(calls).toBe(1);
  });
});
