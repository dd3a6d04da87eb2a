import { describe, expect, test } from 'vitest';
import { flow, memoryResolver } from './helpers/memory.js';

const tree = { 'AGENTS.md': 'global', 'A.md': 'agent', 'S.md': 'step' };

// The five rows of the precedence table in docs/precedence.md (global contextPaths: ["AGENTS.md"]).
describe('step > agent > global precedence', () => {
  test.each([
    // agent layer, step layer, expected files
    ['neither declares', undefined, undefined, ['AGENTS.md']],
    ['step replaces', undefined, { paths: ['S.md'], mode: 'replace' }, ['S.md']],
    ['agent appends', { paths: ['A.md'], mode: 'append' }, undefined, ['AGENTS.md', 'A.md']],
    [
      'agent replaces, step appends',
      { paths: ['A.md'], mode: 'replace' },
      { paths: ['S.md'], mode: 'append' },
      ['A.md', 'S.md'],
    ],
    [
      'both append',
      { paths: ['A.md'], mode: 'append' },
      { paths: ['S.md'], mode: 'append' },
      ['AGENTS.md', 'A.md', 'S.md'],
    ],
  ])('%s', async (_name, agentContext, stepContext, expected) => {
    const { resolver } = await memoryResolver(
      tree,
      {
        contextPaths: ['AGENTS.md'],
        agents: { coder: agentContext === undefined ? {} : { context: agentContext } },
      },
      { flows: [flow('f', [{ id: 's', ...(stepContext === undefined ? {} : { context: stepContext }) }])] },
    );
    const result = await resolver.resolve({ agent: 'coder', flow: 'f', step: 's' });
    expect(result.files.map((file) => file.path.slice('/w/'.length))).toEqual(expected);
  });

  test('mode defaults to replace', async () => {
    const { resolver } = await memoryResolver(tree, {
      contextPaths: ['AGENTS.md'],
      agents: { coder: { context: { paths: ['A.md'] } } },
    });
    expect((await resolver.resolve({ agent: 'coder' })).files.map((file) => file.layer)).toEqual(['agent']);
  });

  test('an agent with paths: [] in replace mode resolves nothing', async () => {
    const { resolver } = await memoryResolver(tree, {
      contextPaths: ['AGENTS.md'],
      agents: { coder: { context: { paths: [] } } },
    });
    const result = await resolver.resolve({ agent: 'coder' });
    expect(result.text).toBe('');
    expect(result.files).toEqual([]);
  });

  test('a layer without paths is not declared, whatever its mode', async () => {
    const { resolver } = await memoryResolver(tree, {
      contextPaths: ['AGENTS.md'],
      agents: { coder: { context: { mode: 'replace', nested: false } } },
    });
    expect((await resolver.resolve({ agent: 'coder' })).files.map((file) => file.layer)).toEqual(['global']);
  });

  test('the step agent is the default agent of a step', async () => {
    const { resolver } = await memoryResolver(
      tree,
      { contextPaths: ['AGENTS.md'], agents: { coder: { context: { paths: ['A.md'], mode: 'append' } } } },
      {
        flows: [flow('f', [{ id: 's', agent: 'coder' }])],
      },
    );
    const result = await resolver.resolve({ flow: 'f', step: 's' });
    expect(result.agent).toBe('coder');
    expect(result.files.map((file) => file.layer)).toEqual(['global', 'agent']);
  });

  test('an explicit agent wins over the step agent', async () => {
    const { resolver } = await memoryResolver(
      tree,
      { contextPaths: ['AGENTS.md'], agents: { coder: { context: { paths: ['A.md'] } }, other: {} } },
      {
        flows: [flow('f', [{ id: 's', agent: 'coder' }])],
      },
    );
    expect(
      (await resolver.resolve({ agent: 'other', flow: 'f', step: 's' })).files.map((file) => file.layer),
    ).toEqual(['global']);
  });

  describe('unknown modes', () => {
    test('act as append and warn once per distinct value per resolver', async () => {
      const { resolver } = await memoryResolver(tree, {
        contextPaths: ['AGENTS.md'],
        agents: {
          a: { context: { paths: ['A.md'], mode: 'apend' } },
          b: { context: { paths: ['S.md'], mode: 'apend' } },
          c: { context: { paths: ['S.md'], mode: 'merge' } },
        },
      });
      const first = await resolver.resolve({ agent: 'a' });
      expect(first.files.map((file) => file.path)).toEqual(['/w/AGENTS.md', '/w/A.md']);
      expect(first.diagnostics.filter((d) => d.code === 'unknown-mode')).toEqual([
        {
          level: 'warn',
          code: 'unknown-mode',
          // A config object has no file: the key path alone.
          message:
            'agents.a.context.mode: unknown mode "apend" on the agent layer acts as "append" (known modes: replace, append)',
          layer: 'agent',
        },
      ]);
      const second = await resolver.resolve({ agent: 'b' });
      expect(second.files.map((file) => file.path)).toEqual(['/w/AGENTS.md', '/w/S.md']);
      expect(second.diagnostics.filter((d) => d.code === 'unknown-mode')).toEqual([]);
      const third = await resolver.resolve({ agent: 'c' });
      expect(third.diagnostics.filter((d) => d.code === 'unknown-mode').map((d) => d.message)).toEqual([
        'agents.c.context.mode: unknown mode "merge" on the agent layer acts as "append" (known modes: replace, append)',
      ]);
    });
  });

  test('an empty layer in append mode changes nothing', async () => {
    const plain = await memoryResolver(tree, { contextPaths: ['AGENTS.md'], agents: { coder: {} } });
    const empty = await memoryResolver(tree, {
      contextPaths: ['AGENTS.md'],
      agents: { coder: { context: { paths: [], mode: 'append' } } },
    });
    expect((await empty.resolver.resolve({ agent: 'coder' })).text).toBe(
      (await plain.resolver.resolve({ agent: 'coder' })).text,
    );
  });
});
