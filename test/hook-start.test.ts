import path from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, test } from 'vitest';
import { cli } from './helpers/cli.js';
import { tempTree } from './helpers/disk.js';

/** A project and a state dir; `hook(agent, event)` runs `ctxfiles hook` in-process on one event. */
function setup(tree: Record<string, string>) {
  const root = tempTree(tree);
  const stateDir = path.join(tempTree(), 'sessions');
  const hook = async (agent: string, event: Record<string, unknown>) => {
    const result = await cli(['hook', agent], {
      cwd: root,
      env: { CTXFILES_STATE_DIR: stateDir },
      stdin: Readable.from([JSON.stringify({ session_id: 's1', cwd: root, ...event })]),
    });
    expect(result.stderr).toBe('');
    if (result.stdout === '' || result.stdout === '{}\n') return '';
    return (JSON.parse(result.stdout) as { hookSpecificOutput: { additionalContext: string } })
      .hookSpecificOutput.additionalContext;
  };
  return { root, hook };
}

const project = {
  '.git/HEAD': 'ref: refs/heads/main\n',
  '.cursor/rules/tabs.mdc': '---\nalwaysApply: true\n---\nAlways use tabs.\n',
  'CLAUDE.md': 'claude root rules',
  'GEMINI.md': 'gemini root rules',
  'AGENTS.md': 'agents root rules',
  'svc/AGENTS.md': 'svc rules',
  'ctxfiles.config.json':
    '{"rules": {"sources": ["cursor"]}, "contextPaths": ["AGENTS.md", "CLAUDE.md", "GEMINI.md"]}',
};

describe('session start delivers what the agent does not load itself', () => {
  test('Claude Code: the always rule and AGENTS.md arrive, CLAUDE.md does not, then the manifest', async () => {
    const { hook } = setup(project);
    const text = await hook('claude-code', { hook_event_name: 'SessionStart', source: 'startup' });
    expect(text).toContain('Always use tabs.');
    expect(text).toContain('agents root rules');
    expect(text).toContain('gemini root rules');
    expect(text).not.toContain('claude root rules');
    expect(text.indexOf('Always use tabs.')).toBeLessThan(text.indexOf('# Nested Context Files'));
    expect(text).toContain('- svc/AGENTS.md');
  });

  test('Gemini CLI leaves out GEMINI.md; Codex leaves out AGENTS.md', async () => {
    const gemini = await setup(project).hook('gemini-cli', {
      hook_event_name: 'SessionStart',
      source: 'startup',
    });
    expect(gemini).toContain('Always use tabs.');
    expect(gemini).not.toContain('gemini root rules');
    expect(gemini).toContain('agents root rules');
    const codex = await setup(project).hook('codex', { hook_event_name: 'SessionStart', source: 'startup' });
    expect(codex).toContain('Always use tabs.');
    expect(codex).not.toContain('agents root rules');
    expect(codex).toContain('claude root rules');
  });

  test('a resume keeps what the transcript already holds: only the manifest', async () => {
    const { hook } = setup(project);
    await hook('claude-code', { hook_event_name: 'SessionStart', source: 'startup' });
    const resumed = await hook('claude-code', { hook_event_name: 'SessionStart', source: 'resume' });
    expect(resumed).not.toContain('Always use tabs.');
    expect(resumed).toContain('# Nested Context Files');
  });

  test('the files stop at contextDiscovery.maxSessionBytes, and one line says how many are left', async () => {
    const big = 'x'.repeat(3000);
    const { hook } = setup({
      // TEAM.md: a name Claude Code does not read itself (it reads AGENTS.md where no CLAUDE.md is).
      'TEAM.md': big,
      'docs/a.md': big,
      'ctxfiles.config.json':
        '{"contextPaths": ["TEAM.md", "docs/a.md"], "contextDiscovery": {"maxSessionBytes": 4096}}',
    });
    const text = await hook('claude-code', { hook_event_name: 'SessionStart', source: 'startup' });
    expect(text.split(big)).toHaveLength(2);
    expect(text).toContain(
      '(1 more instruction file not shown: over contextDiscovery.maxSessionBytes, 4096 bytes)',
    );
  });
});

describe('compaction re-arms what the model lost', () => {
  const read = (root: string, file: string) => ({
    hook_event_name: 'PostToolUse',
    tool_name: 'Read',
    tool_input: { file_path: `${root}/${file}` },
    tool_response: {},
  });

  test('Claude Code: SessionStart with source compact delivers the start again, and nested files come back', async () => {
    const { root, hook } = setup(project);
    await hook('claude-code', { hook_event_name: 'SessionStart', source: 'startup' });
    expect(await hook('claude-code', read(root, 'svc/x.ts'))).toContain('svc rules');
    expect(await hook('claude-code', read(root, 'svc/x.ts'))).toBe('');
    expect(await hook('claude-code', { hook_event_name: 'PreCompact', trigger: 'auto' })).toBe('');
    const start = await hook('claude-code', { hook_event_name: 'SessionStart', source: 'compact' });
    expect(start).toContain('Always use tabs.');
    // Delivered by the start: the next call brings only the nested file, once.
    const next = await hook('claude-code', read(root, 'svc/x.ts'));
    expect(next).toContain('svc rules');
    expect(next).not.toContain('Always use tabs.');
    expect(await hook('claude-code', read(root, 'svc/x.ts'))).toBe('');
  });

  test.each([
    // Gemini CLI: only `/compress` (trigger manual) certainly compresses.
    ['gemini-cli', 'PreCompress', 'manual', 'AfterTool', 'read_file'],
    ['codex', 'PreCompact', 'auto', 'PostToolUse', 'apply_patch'],
  ])(
    '%s: after %s (%s) the next tool call delivers the start and the nested files again, once',
    async (agent, compact, trigger, after, tool) => {
      const { root, hook } = setup(project);
      const call = {
        hook_event_name: after,
        tool_name: tool,
        tool_input:
          tool === 'apply_patch'
            ? { command: '*** Begin Patch\n*** Update File: svc/x.ts\n*** End Patch' }
            : { file_path: 'svc/x.ts' },
        tool_response: {},
      };
      const first = await hook(agent, { hook_event_name: 'SessionStart', source: 'startup' });
      expect(first).toContain('Always use tabs.');
      expect(await hook(agent, call)).toContain('svc rules');
      expect(await hook(agent, call)).toBe('');
      expect(await hook(agent, { hook_event_name: compact, trigger })).toBe('');
      const again = await hook(agent, call);
      expect(again).toContain('Always use tabs.');
      expect(again).toContain('# Nested Context Files');
      expect(again).toContain('svc rules');
      expect(again.indexOf('Always use tabs.')).toBeLessThan(again.indexOf('svc rules'));
      expect(await hook(agent, call)).toBe('');
    },
  );
});

describe('Qwen Code: the start survives a compaction in the system prompt', () => {
  // Qwen Code 0.24.4 keeps the start's text in the system prompt through a compression and fires
  // SessionStart (compact) without waiting for it: the next tool call may come before or after.
  const read = (file: string) => ({
    hook_event_name: 'PostToolUse',
    tool_name: 'read_file',
    tool_input: { file_path: file },
    tool_response: {},
  });
  const compacted = async (hook: ReturnType<typeof setup>['hook']) => {
    expect(await hook('qwen-code', { hook_event_name: 'SessionStart', source: 'startup' })).toContain(
      'Always use tabs.',
    );
    expect(await hook('qwen-code', read('svc/x.ts'))).toContain('svc rules');
    expect(await hook('qwen-code', read('svc/x.ts'))).toBe('');
    expect(await hook('qwen-code', { hook_event_name: 'PreCompact', trigger: 'auto' })).toBe('');
  };

  test('SessionStart (compact) first: it brings the start, the next call only the nested file', async () => {
    const { hook } = setup(project);
    await compacted(hook);
    expect(await hook('qwen-code', { hook_event_name: 'SessionStart', source: 'compact' })).toContain(
      'Always use tabs.',
    );
    const next = await hook('qwen-code', read('svc/x.ts'));
    expect(next).toContain('svc rules');
    expect(next).not.toContain('Always use tabs.');
    expect(await hook('qwen-code', read('svc/x.ts'))).toBe('');
  });

  test('the tool call first: it brings only the nested file, and SessionStart (compact) keeps that', async () => {
    const { hook } = setup(project);
    await compacted(hook);
    const next = await hook('qwen-code', read('svc/x.ts'));
    expect(next).toContain('svc rules');
    expect(next).not.toContain('Always use tabs.');
    const start = await hook('qwen-code', { hook_event_name: 'SessionStart', source: 'compact' });
    expect(start).toContain('Always use tabs.');
    expect(start).not.toContain('svc rules');
    // Delivered after the compaction: a later call in svc adds nothing.
    expect(await hook('qwen-code', read('svc/x.ts'))).toBe('');
  });

  test('Claude Code: a SessionStart (compact) after PreCompact does not forget what came since', async () => {
    const { root, hook } = setup(project);
    const claudeRead = { ...read(`${root}/svc/x.ts`), tool_name: 'Read' };
    await hook('claude-code', { hook_event_name: 'SessionStart', source: 'startup' });
    await hook('claude-code', { hook_event_name: 'PreCompact', trigger: 'auto' });
    expect(await hook('claude-code', { hook_event_name: 'SessionStart', source: 'compact' })).toContain(
      'Always use tabs.',
    );
    expect(await hook('claude-code', claudeRead)).toContain('svc rules');
    // A second SessionStart (compact) with no compaction event before it starts over.
    await hook('claude-code', { hook_event_name: 'SessionStart', source: 'compact' });
    expect(await hook('claude-code', claudeRead)).toContain('svc rules');
  });
});

describe('a compaction event that does not mean a compaction', () => {
  // Gemini CLI 0.61 fires PreCompress (auto) before every turn, before it decides whether to
  // compress: re-arming then would repeat everything after each turn.
  test('Gemini CLI: PreCompress with trigger auto changes nothing', async () => {
    const { hook } = setup(project);
    const call = {
      hook_event_name: 'AfterTool',
      tool_name: 'read_file',
      tool_input: { file_path: 'svc/x.ts' },
      tool_response: {},
    };
    await hook('gemini-cli', { hook_event_name: 'SessionStart', source: 'startup' });
    expect(await hook('gemini-cli', call)).toContain('svc rules');
    expect(await hook('gemini-cli', { hook_event_name: 'PreCompress', trigger: 'auto' })).toBe('');
    expect(await hook('gemini-cli', call)).toBe('');
    // Without a trigger the event is not known to compress either.
    expect(await hook('gemini-cli', { hook_event_name: 'PreCompress' })).toBe('');
    expect(await hook('gemini-cli', call)).toBe('');
  });
});

describe('Gemini CLI: a compression seen in BeforeModel re-arms', () => {
  // Gemini CLI 0.61 runs no hook after an automatic compression; BeforeModel shows the request,
  // where the compression left its summary followed by a fixed model reply.
  const reply = 'Got it. Thanks for the additional context!';
  const call = {
    hook_event_name: 'AfterTool',
    tool_name: 'read_file',
    tool_input: { file_path: 'svc/x.ts' },
    tool_response: {},
  };
  const beforeModel = (...messages: [string, string][]) => ({
    hook_event_name: 'BeforeModel',
    llm_request: {
      model: 'gemini-2.5-flash',
      messages: messages.map(([role, content]) => ({ role, content })),
    },
  });

  test('a new summary re-arms once; the same summary again, or none, changes nothing', async () => {
    const { hook } = setup(project);
    await hook('gemini-cli', { hook_event_name: 'SessionStart', source: 'startup' });
    expect(await hook('gemini-cli', call)).toContain('svc rules');
    // No compression in view: the earlier copies are still there.
    expect(await hook('gemini-cli', beforeModel(['user', 'Read svc/x.ts'], ['model', 'Done.']))).toBe('');
    expect(await hook('gemini-cli', call)).toBe('');
    const compressedRequest = beforeModel(
      ['user', 'env'],
      ['user', '<state_snapshot>one</state_snapshot>'],
      ['model', reply],
    );
    expect(await hook('gemini-cli', compressedRequest)).toBe('');
    const again = await hook('gemini-cli', call);
    expect(again).toContain('Always use tabs.');
    expect(again).toContain('svc rules');
    expect(again.indexOf('Always use tabs.')).toBeLessThan(again.indexOf('svc rules'));
    // Every later request carries the same summary: it was handled.
    expect(await hook('gemini-cli', compressedRequest)).toBe('');
    expect(await hook('gemini-cli', call)).toBe('');
    // A second compression leaves a new summary.
    expect(
      await hook(
        'gemini-cli',
        beforeModel(['user', '<state_snapshot>two</state_snapshot>'], ['model', reply]),
      ),
    ).toBe('');
    expect(await hook('gemini-cli', call)).toContain('svc rules');
  });

  test('a session that delivered nothing keeps no state for it', async () => {
    const { hook } = setup(project);
    expect(await hook('gemini-cli', beforeModel(['user', 'summary'], ['model', reply]))).toBe('');
    // The first tool call delivers as usual, without the start's text (no start was delivered).
    const first = await hook('gemini-cli', call);
    expect(first).toContain('svc rules');
    expect(first).not.toContain('Always use tabs.');
  });
});

describe('Claude Code reads one frame without tags per answer', () => {
  test('a tool call that brings a nested file and a glob rule: one header, no tag Claude Code would escape', async () => {
    const { root, hook } = setup({
      ...project,
      '.cursor/rules/sql.mdc': '---\nglobs: "*.sql"\n---\nUse snake_case in SQL.\n',
    });
    const text = await hook('claude-code', {
      hook_event_name: 'PostToolUse',
      tool_name: 'Read',
      tool_input: { file_path: `${root}/svc/q.sql` },
      tool_response: {},
    });
    expect(text).toContain('svc rules');
    expect(text).toContain('Use snake_case in SQL.');
    expect(text.split('Project instruction files for the places this session works in')).toHaveLength(2);
    expect(text.startsWith('Project instruction files')).toBe(true);
    expect(text).not.toMatch(/<\/?system-reminder/);
    expect(text).toContain(`Contents of ${root}/svc/AGENTS.md:\n\nsvc rules`);
  });

  test('a format the config chose is kept as it is', async () => {
    const { root, hook } = setup({ ...project, 'ctxfiles.config.json': '{"format": "opencode"}' });
    const text = await hook('claude-code', {
      hook_event_name: 'PostToolUse',
      tool_name: 'Read',
      tool_input: { file_path: `${root}/svc/x.ts` },
      tool_response: {},
    });
    expect(text).toBe(`<system-reminder>\n# From:${root}/svc/AGENTS.md\nsvc rules\n</system-reminder>`);
  });
});
