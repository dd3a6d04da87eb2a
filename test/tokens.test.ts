import { describe, expect, test } from 'vitest';
import { expandTokens, type TokenValues } from '../src/resolve/expand-tokens.js';
import { flow, memoryResolver } from './helpers/memory.js';

const values: TokenValues = {
  agent: 'coder',
  flowId: 'release',
  flowStep: 'implement',
  env: { TEAM: 'core', EMPTY: '', TRICK: '${agent}' },
};

describe('expandTokens', () => {
  test.each([
    // entry, expected outcome
    ['AGENTS.md', { ok: true, value: 'AGENTS.md' }], // no token: unchanged
    ['AGENTS.${agent}.md', { ok: true, value: 'AGENTS.coder.md' }],
    ['AGENTS.${flow.id}.md', { ok: true, value: 'AGENTS.release.md' }],
    ['AGENTS.${flow.step}.md', { ok: true, value: 'AGENTS.implement.md' }],
    ['teams/${env.TEAM}.md', { ok: true, value: 'teams/core.md' }],
    ['${agent}/${flow.id}/${flow.step}.md', { ok: true, value: 'coder/release/implement.md' }], // several in one entry
    ['teams/${env.UNSET}.md', { ok: false, reason: 'empty-token', token: '${env.UNSET}' }], // unset variable is empty
    ['teams/${env.EMPTY}.md', { ok: false, reason: 'empty-token', token: '${env.EMPTY}' }],
    ['AGENTS.${user}.md', { ok: false, reason: 'unknown-token', token: '${user}' }],
    ['AGENTS.${Agent}.md', { ok: false, reason: 'unknown-token', token: '${Agent}' }], // exact case
    ['AGENTS.${ agent }.md', { ok: false, reason: 'unknown-token', token: '${ agent }' }], // no inner spaces
    ['AGENTS.${env.}.md', { ok: false, reason: 'unknown-token', token: '${env.}' }],
    ['AGENTS.${env.A-B}.md', { ok: false, reason: 'unknown-token', token: '${env.A-B}' }],
    ['AGENTS.${agent.md', { ok: false, reason: 'unknown-token', token: '${agent.md' }], // unterminated
    ['teams/${env.TRICK}.md', { ok: false, reason: 'unknown-token', token: '${agent}.md' }], // one pass: no recursion
    ['$agent.md', { ok: true, value: '$agent.md' }], // not a token
    ['${env.toString}.md', { ok: false, reason: 'empty-token', token: '${env.toString}' }], // prototype names are not variables
  ])('%s', (entry, expected) => {
    expect(expandTokens(entry, values)).toEqual(expected);
  });

  test('tokens that expand to empty outside a flow', () => {
    const outside: TokenValues = { agent: undefined, flowId: undefined, flowStep: undefined, env: {} };
    expect(expandTokens('AGENTS.${flow.id}.md', outside)).toEqual({
      ok: false,
      reason: 'empty-token',
      token: '${flow.id}',
    });
    expect(expandTokens('AGENTS.${agent}.md', outside)).toEqual({
      ok: false,
      reason: 'empty-token',
      token: '${agent}',
    });
  });
});

describe('token expansion in resolution', () => {
  test('a skipped entry never touches the filesystem and leaves a debug diagnostic', async () => {
    const { resolver, fs } = await memoryResolver(
      { 'AGENTS.md': 'root', 'AGENTS..md': 'decoy', 'AGENTS.${user}.md': 'decoy' },
      {
        contextPaths: ['AGENTS.md', 'AGENTS.${flow.id}.md', 'AGENTS.${user}.md'],
      },
    );
    const result = await resolver.resolve();
    expect(result.files.map((file) => file.path)).toEqual(['/w/AGENTS.md']);
    expect(
      fs.calls.map((call) => call.path).filter((p) => p.includes('AGENTS.') && p !== '/w/AGENTS.md'),
    ).toEqual([]);
    expect(result.diagnostics.map((d) => [d.level, d.code, d.entry])).toEqual([
      ['debug', 'empty-token', 'AGENTS.${flow.id}.md'],
      ['debug', 'unknown-token', 'AGENTS.${user}.md'],
    ]);
  });

  test('flow tokens expand in a step layer', async () => {
    const { resolver } = await memoryResolver(
      { 'AGENTS.md': 'root', 'AGENTS.implement.md': 'step file' },
      {},
      {
        flows: [
          flow('release', [
            { id: 'implement', context: { paths: ['AGENTS.${flow.step}.md'], mode: 'append' } },
          ]),
        ],
      },
    );
    const result = await resolver.resolve({ flow: 'release', step: 'implement' });
    expect(result.files.map((file) => [file.layer, file.entry, file.path])).toEqual([
      ['global', 'AGENTS.md', '/w/AGENTS.md'],
      ['step', 'AGENTS.${flow.step}.md', '/w/AGENTS.implement.md'],
    ]);
  });

  test('env tokens read the env given to the resolver', async () => {
    const { resolver } = await memoryResolver(
      { 'teams/core.md': 'core team' },
      { contextPaths: ['teams/${env.TEAM}.md'] },
      { env: { TEAM: 'core' } },
    );
    expect((await resolver.resolve()).files.map((file) => file.path)).toEqual(['/w/teams/core.md']);
  });
});
