/**
 * What embedders meet in sessions (issue 30): tool mappings per session, events the table cannot
 * read said once per tool name, per-call diagnostics, a bounded diagnostics list, flows kept by a
 * config written in code, tool guidance by kind, contextPrompt and runFlow.
 */
import { describe, expect, test } from 'vitest';
import {
  buildSystemPrompt,
  contextPrompt,
  createMemoryFileSystem,
  createResolver,
  runFlow,
  type Diagnostic,
} from '../src/index.js';
import { SESSION_DIAGNOSTICS_KEPT } from '../src/api/open-session.js';

const API_RULES = '# API rules';

function repo(extra: Record<string, string> = {}) {
  return createMemoryFileSystem({
    '/repo/AGENTS.md': '# Root rules',
    '/repo/services/api/AGENTS.md': API_RULES,
    '/repo/services/api/main.ts': 'x',
    '/repo/web/AGENTS.md': '# Web rules',
    ...extra,
  });
}

async function session(
  options: Parameters<Awaited<ReturnType<typeof createResolver>>['openSession']>[0] = {},
) {
  const resolver = await createResolver({
    workDir: '/repo',
    config: { contextPaths: ['AGENTS.md'] },
    fs: repo(),
    env: {},
  });
  return resolver.openSession(options);
}

describe('tool events a session reads', () => {
  test('openSession({ tools }) maps a tool name for this session', async () => {
    const mapped = await session({ tools: { open_file: { as: 'read', pathKeys: ['path'] } } });
    expect(
      await mapped.afterTool({ tool: 'open_file', input: { path: 'services/api/main.ts' }, ok: true }),
    ).toContain(API_RULES);
  });

  test('camelCase names, a filename key and input given as JSON text are read', async () => {
    const s = await session();
    expect(
      await s.afterTool({ tool: 'readFile', input: { filename: 'services/api/main.ts' }, ok: true }),
    ).toContain(API_RULES);
    expect(await s.afterTool({ tool: 'list_dir', input: '{"path":"web"}', ok: true })).toContain(
      '# Web rules',
    );
    expect(s.diagnostics).toEqual([]);
  });

  test('an unknown tool, a missing ok and an input without a path are each an info diagnostic, once per tool name', async () => {
    const s = await session();
    const calls = [
      { tool: 'open_file', input: { path: 'services/api/main.ts' }, ok: true },
      { tool: 'open_file', input: { path: 'web/x' }, ok: true },
      { tool: 'read_file', input: { path: 'services/api/main.ts' } },
      { tool: 'read_file', input: { path: 'web/x' } },
      { tool: 'read', input: { source: 'services/api/main.ts' }, ok: true },
      { tool: 'read', input: 'not json', ok: true },
    ];
    const reports = [];
    for (const call of calls) reports.push(await s.report(call));
    expect(reports.map((report) => report.text)).toEqual(['', '', '', '', '', '']);
    expect(reports.map((report) => report.diagnostics.map((d) => `${d.level} ${d.code}`))).toEqual([
      ['info unknown-tool'],
      [],
      ['info tool-ok-missing'],
      [],
      ['info tool-input-unread'],
      [],
    ]);
    expect(reports[0]!.diagnostics[0]!.message).toContain('openSession({ tools:');
    expect(reports[4]!.diagnostics[0]!.message).toContain('["source"]');
    // A failed call (ok: false) says nothing: the tool did not run.
    expect((await s.report({ tool: 'write', input: { path: 'a' }, ok: false })).diagnostics).toEqual([]);
  });

  test('report() gives the text with its diagnostics; afterTool still resolves to the text', async () => {
    const s = await session();
    const report = await s.report({ tool: 'apply_patch', input: { input: 'no headers' }, ok: true });
    expect(report.text).toBe('');
    expect(report.diagnostics.map((d) => d.code)).toEqual(['malformed-patch']);
    expect(await s.afterTool({ tool: 'read', input: { path: 'services/api/main.ts' }, ok: true })).toContain(
      API_RULES,
    );
  });

  test(`session.diagnostics keeps the most recent ${SESSION_DIAGNOSTICS_KEPT}; onDiagnostic sees every one`, async () => {
    const seen: Diagnostic[] = [];
    const s = await session({ onDiagnostic: (d) => seen.push(d) });
    const list = s.diagnostics;
    for (let i = 0; i < 1_500; i++)
      await s.afterTool({ tool: 'apply_patch', input: { input: `no headers ${i}` }, ok: true });
    expect(seen).toHaveLength(1_500);
    expect(s.diagnostics).toHaveLength(SESSION_DIAGNOSTICS_KEPT);
    expect(s.diagnostics).toBe(list);
    expect(s.diagnostics.at(-1)).toBe(seen.at(-1));
    expect(s.diagnostics[0]).toBe(seen[500]);
  });
});

test('a config written in code keeps its flows globs: resolver.flows() reads them from the work dir', async () => {
  const fs = repo({
    '/repo/.ctxfiles/flows/release.yaml': 'id: release\nsteps:\n  - id: plan\n  - id: build\n',
  });
  const resolver = await createResolver({
    workDir: '/repo',
    config: { contextPaths: ['AGENTS.md'] },
    fs,
    env: {},
  });
  expect([...(await resolver.flows()).keys()]).toEqual(['release']);
  expect((await resolver.resolve({ flow: 'release', step: 'build' })).flow).toEqual({
    id: 'release',
    step: 'build',
  });
});

test('the prompt builder gives tool guidance by the kind sessions know a name by', async () => {
  const prompt = await buildSystemPrompt({
    tools: ['read_file', 'list_dir', 'open_file', 'frobnicate'],
    sessionTools: { open_file: { as: 'read' } },
    environment: { date: '2026-01-01' },
    facts: { operating_system: 'linux', terminal_environment: 'none', has_ripgrep: 'no' },
  });
  const guidance = /<tool_guidance>\n([\s\S]*?)\n<\/tool_guidance>/.exec(prompt.text)?.[1]?.split('\n') ?? [];
  expect(guidance.map((line) => line.split(':')[0])).toEqual(['- read_file', '- list_dir', '- open_file']);
  expect(guidance[0]).toBe(
    '- read_file: Read a file before you edit it; read only the parts you need from large files.',
  );
  expect(guidance[1]).toBe('- list_dir: List a directory.');
});

test('contextPrompt joins base, block and manifest with blank lines and leaves out empty parts', () => {
  expect(contextPrompt({ text: 'BLOCK', manifest: 'MANIFEST' }, 'BASE')).toBe('BASE\n\nBLOCK\n\nMANIFEST');
  expect(contextPrompt({ text: 'BLOCK', manifest: '' })).toBe('BLOCK');
  expect(contextPrompt({ text: '' }, 'BASE')).toBe('BASE');
});

describe('runFlow', () => {
  const flowRepo = () =>
    repo({
      '/repo/.ctxfiles/flows/release.yaml':
        'id: release\nsteps:\n  - id: plan\n    agent: planner\n  - id: build\n    agent: coder\n    context:\n      paths: [BUILD.md]\n      mode: append\n',
      '/repo/BUILD.md': '# Build notes',
    });
  const config = {
    contextPaths: ['AGENTS.md'],
    agents: { planner: {}, coder: {} },
    instructions: { trackChanges: true },
  };

  test('runs the steps in order with their own prompts and carries the session state: a nested file is injected once in the shared history', async () => {
    const fs = flowRepo();
    const resolver = await createResolver({ workDir: '/repo', config, fs, env: {} });
    const history: string[] = [];
    const { results, state } = await runFlow(resolver, {
      flow: 'release',
      base: 'BASE',
      run: async ({ step, index, agent, prompt, session }) => {
        history.push(prompt);
        history.push(
          await session.afterTool({ tool: 'read', input: { path: 'services/api/main.ts' }, ok: true }),
        );
        if (step === 'build') {
          fs.set('/repo/BUILD.md', '# Build notes, changed');
          history.push(await session.afterTool({ tool: 'read', input: { path: 'web/x' }, ok: true }));
        }
        return `${index}:${step}:${agent}`;
      },
    });
    expect(results).toEqual(['0:plan:planner', '1:build:coder']);
    expect(history[0]).not.toContain('# Build notes');
    expect(history[2]).toContain('# Build notes');
    expect(history.join('\n').split(API_RULES)).toHaveLength(2);
    expect(history[1]).toContain(API_RULES);
    expect(history[3]).toBe('');
    // BUILD.md appears only in the second prompt: tracked from there, its change is reported.
    expect(history[4]).toContain('# Build notes, changed');
    expect(state?.injected.map((record) => record.path)).toEqual(['services/api/AGENTS.md', 'web/AGENTS.md']);
  });

  test('an unknown flow is a CtxfilesError', async () => {
    const resolver = await createResolver({ workDir: '/repo', config, fs: flowRepo(), env: {} });
    await expect(runFlow(resolver, { flow: 'nope', run: () => 0 })).rejects.toMatchObject({
      code: 'unknown-flow',
    });
  });
});
