import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, test } from 'vitest';
import { nothingDue, type HookState } from '../src/hooks/hook-state.js';
import {
  hash128,
  sessionFileName,
  stateDirectory,
  sweepStateDirectory,
  SESSION_MAX_AGE_MS,
} from '../src/hooks/state-store.js';
import { toToolEvents } from '../src/hooks/tool-names.js';
import { cli, spawnBin } from './helpers/cli.js';
import { tempTree, writeTree } from './helpers/disk.js';
import { HOST_REGISTRY } from '../src/hosts/index.js';

const tree = {
  'AGENTS.md': 'root',
  'svc/AGENTS.md': '# Service\nsvc rules',
  'svc/auth/AGENTS.md': 'auth rules',
  'svc/auth/login.ts': '',
  'web/AGENTS.md': 'web rules',
};

/**
 * A root CLAUDE.md makes the tree a Claude project: Claude Code 2.1.332 then loads no AGENTS.md by
 * itself (nested ones included), so its hook delivers them (docs/hooks.md, "What the host shows itself").
 */
const CLAUDE_PROJECT = { 'CLAUDE.md': 'claude root' };

/** A project and a state dir; `hook(agent, event)` runs `ctxfiles hook` in-process on one event. */
function setup(extra: Record<string, string> = {}) {
  const root = tempTree({ ...tree, ...extra });
  const outside = tempTree({ 'AGENTS.md': 'outside', 'lib/AGENTS.md': 'outside lib', 'lib/x.ts': '' });
  const stateDir = path.join(tempTree(), 'sessions');
  const hook = async (agent: string, event: Record<string, unknown>, env: Record<string, string> = {}) => {
    const result = await cli(['hook', agent], {
      cwd: root,
      env: { CTXFILES_STATE_DIR: stateDir, ...env },
      stdin: Readable.from([JSON.stringify(event)]),
    });
    return { ...result, stdout: result.stdout.split(root).join('<root>') };
  };
  return { root, outside, stateDir, hook };
}

const reminder = (file: string, text: string) =>
  `<system-reminder>\\n# From:<root>/${file}\\n${text}\\n</system-reminder>`;
/** Claude Code's answer: one frame without tags, a `Contents of` section per file (JSON-escaped). */
const claudeFrame = (...files: Array<[string, string]>) =>
  `Project instruction files for the places this session works in (each shown once; follow them):\\n\\n${files
    .map(([file, text]) => `Contents of <root>/${file}:\\n\\n${text}`)
    .join('\\n\\n')}`;
/** Gemini CLI's just-in-time frame (the gemini-cli preset's format), the hook's default there. */
const jit = (...files: Array<[string, string]>) =>
  `--- Newly Discovered Project Context ---\\n${files
    .map(
      ([file, text]) =>
        `--- Context from: <root>/${file} ---\\n${text}\\n--- End of Context from: <root>/${file} ---`,
    )
    .join('\\n\\n')}\\n--- End Project Context ---`;
const manifest =
  "# Nested Context Files\\nThese instruction files govern subdirectories of the work dir. Their text is not loaded yet: a file's text is appended to a tool result once you first work in its directory.\\n- svc/AGENTS.md: Service\\n- svc/auth/AGENTS.md\\n- web/AGENTS.md";

describe('ctxfiles hook qwen-code (inputs in the shape of Qwen Code 0.24.4)', () => {
  const event = (root: string, extra: Record<string, unknown>) => ({
    session_id: 'q1',
    transcript_path: '/home/ana/.qwen/projects/x/chats/q1.jsonl',
    cwd: root,
    timestamp: '2026-12-03T08:00:00.000Z',
    permission_mode: 'yolo',
    ...extra,
  });
  const read = (root: string, file: string) =>
    event(root, {
      hook_event_name: 'PostToolUse',
      tool_name: 'read_file',
      tool_input: { file_path: `${root}/${file}` },
      tool_response: {},
      tool_use_id: 'call_1',
    });

  test('the frames carry no tag Qwen Code would escape; nothing to add is {}', async () => {
    const { root, hook } = setup();
    expect((await hook('qwen-code', read(root, 'svc/auth/login.ts'))).stdout).toBe(
      `{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"${jit(['svc/AGENTS.md', '# Service\\nsvc rules'], ['svc/auth/AGENTS.md', 'auth rules'])}"}}\n`,
    );
    expect(await hook('qwen-code', read(root, 'svc/auth/login.ts'))).toMatchObject({
      code: 0,
      stdout: '{}\n',
    });
    const compact = event(root, { hook_event_name: 'PreCompact', trigger: 'auto', custom_instructions: '' });
    expect(await hook('qwen-code', compact)).toMatchObject({ code: 0, stdout: '{}\n', stderr: '' });
    // After the compaction the same place is disclosed again.
    expect((await hook('qwen-code', read(root, 'svc/auth/login.ts'))).stdout).toContain('auth rules');
  });
});

describe("ctxfiles hook qwen-code: Qwen Code's own .qwen/rules", () => {
  test('neither the rule without paths: at start nor the paths: rule after a read: Qwen Code shows both itself', async () => {
    const { root, hook } = setup({
      '.qwen/rules/always.md': 'qwen always\n',
      '.qwen/rules/svc.md': '---\npaths: ["svc/**"]\n---\nqwen svc rule\n',
    });
    const start = { session_id: 'q2', cwd: root, hook_event_name: 'SessionStart', source: 'startup' };
    const read = {
      session_id: 'q2',
      cwd: root,
      hook_event_name: 'PostToolUse',
      tool_name: 'read_file',
      tool_input: { file_path: `${root}/svc/auth/login.ts` },
      tool_response: {},
    };
    expect((await hook('qwen-code', start)).stdout).not.toContain('qwen always');
    const after = (await hook('qwen-code', read)).stdout;
    expect(after).toContain('auth rules');
    expect(after).not.toContain('qwen svc rule');
    // Another host does not read .qwen/rules: its hook delivers the rule (rules on by default).
    const claude = { ...read, session_id: 'c2', tool_name: 'Read' };
    expect((await hook('claude-code', claude)).stdout).toContain('qwen svc rule');
  });
});

describe('ctxfiles hook claude-code (recorded inputs of the documented shape)', () => {
  const base = (root: string) => ({
    session_id: '8c35adc1-4d1e-4b61-9d0a-2f6c0b1e7a10',
    transcript_path: '/home/ana/.claude/projects/x/8c35adc1.jsonl',
    cwd: root,
    permission_mode: 'default',
  });
  const tool = (root: string, tool_name: string, tool_input: Record<string, unknown>) => ({
    ...base(root),
    hook_event_name: 'PostToolUse',
    tool_name,
    tool_input,
    tool_response: { success: true },
    tool_use_id: 'toolu_01',
  });

  test('session start, then read, edit, write, shell, outside, unknown: exact stdout', async () => {
    const { root, outside, hook } = setup(CLAUDE_PROJECT);
    const steps: Array<[Record<string, unknown>, string]> = [
      [
        { ...base(root), hook_event_name: 'SessionStart', source: 'startup', model: 'claude-sonnet-4-5' },
        // A Claude project (a root CLAUDE.md): Claude Code 2.1.332 loads CLAUDE.md itself, not the
        // root AGENTS.md, which the hook delivers before the manifest.
        `{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"${claudeFrame(['AGENTS.md', 'root'])}\\n\\n${manifest}"}}\n`,
      ],
      [
        tool(root, 'Read', { file_path: `${root}/svc/auth/login.ts` }),
        `{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"${claudeFrame(['svc/AGENTS.md', '# Service\\nsvc rules'], ['svc/auth/AGENTS.md', 'auth rules'])}"}}\n`,
      ],
      // Already shown: nothing.
      [tool(root, 'Edit', { file_path: `${root}/svc/auth/login.ts`, old_string: 'a', new_string: 'b' }), ''],
      [
        tool(root, 'Write', { file_path: `${root}/web/new.ts`, content: 'x' }),
        `{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"${claudeFrame(['web/AGENTS.md', 'web rules'])}"}}\n`,
      ],
      // A shell command touches nothing, even when it names a file.
      [tool(root, 'Bash', { command: `cat ${outside}/lib/x.ts` }), ''],
      [tool(root, 'Read', { file_path: `${outside}/lib/x.ts` }), ''],
      [tool(root, 'WebFetch', { url: 'https://example.com', prompt: 'x' }), ''],
      [tool(root, 'mcp__files__read', { file_path: `${root}/svc/x.ts` }), ''],
    ];
    for (const [event, stdout] of steps) {
      const result = await hook('claude-code', event);
      expect({ code: result.code, stdout: result.stdout, stderr: result.stderr }).toEqual({
        code: 0,
        stdout,
        stderr: '',
      });
    }
  });

  test('the hook state survives between processes and is per session', async () => {
    const { root, hook } = setup(CLAUDE_PROJECT);
    const read = tool(root, 'Read', { file_path: `${root}/web/a.ts` });
    expect((await hook('claude-code', read)).stdout).toContain('web rules');
    expect((await hook('claude-code', read)).stdout).toBe('');
    expect((await hook('claude-code', { ...read, session_id: 'other' })).stdout).toContain('web rules');
  });

  test('a nested file created after the session start is injected (the stored index is never trusted blindly)', async () => {
    const { root, hook } = setup(CLAUDE_PROJECT);
    await hook('claude-code', { ...base(root), hook_event_name: 'SessionStart', source: 'startup' });
    expect((await hook('claude-code', tool(root, 'Read', { file_path: `${root}/api/x.ts` }))).stdout).toBe(
      '',
    );
    writeTree(root, { 'api/AGENTS.md': 'api rules' });
    expect(
      (await hook('claude-code', tool(root, 'Read', { file_path: `${root}/api/x.ts` }))).stdout,
    ).toContain('api rules');
  });

  test('rules: the catalog at session start; a glob rule on its first matching file, once, even after calls with nothing due', async () => {
    const { root, hook } = setup({
      'ctxfiles.config.json': '{"rules": {"sources": ["cursor"]}}',
      '.cursor/rules/sql.mdc': '---\nglobs: "*.sql"\n---\nsql rule',
      '.cursor/rules/db.mdc': '---\ndescription: Database work\n---\ndb rule',
    });
    const start = await hook('claude-code', {
      ...base(root),
      hook_event_name: 'SessionStart',
      source: 'startup',
    });
    expect(start.stdout).toContain('# Rules on Request');
    expect(start.stdout).toContain('- db (.cursor/rules/db.mdc): Database work');
    // Shown and nothing new: the quick check must not hide the glob rule that is still pending.
    await hook('claude-code', tool(root, 'Read', { file_path: `${root}/web/a.ts` }));
    expect((await hook('claude-code', tool(root, 'Read', { file_path: `${root}/web/a.ts` }))).stdout).toBe(
      '',
    );
    const sql = await hook('claude-code', tool(root, 'Read', { file_path: `${root}/web/q.sql` }));
    expect(sql.stdout).toContain('sql rule');
    // The body alone, as Claude Code frames a rule: the model gets instructions, not our note.
    expect(sql.stdout).not.toContain('matches its glob');
    expect(
      (await hook('claude-code', tool(root, 'Read', { file_path: `${root}/svc/r.sql` }))).stdout,
    ).not.toContain('sql rule');
  });

  test('a config created or changed after the session start is read', async () => {
    const { root, hook } = setup(CLAUDE_PROJECT);
    await hook('claude-code', { ...base(root), hook_event_name: 'SessionStart', source: 'startup' });
    writeTree(root, { 'ctxfiles.config.json': '{"contextDiscovery": {"enabled": false}}' });
    expect((await hook('claude-code', tool(root, 'Read', { file_path: `${root}/web/x.ts` }))).stdout).toBe(
      '',
    );
    writeTree(root, { 'ctxfiles.config.json': '{"contextDiscovery": {"enabled": true}} ' });
    expect(
      (await hook('claude-code', tool(root, 'Read', { file_path: `${root}/web/x.ts` }))).stdout,
    ).toContain('web rules');
  });

  test('the work dir is CLAUDE_PROJECT_DIR when set, not the shell cwd the event reports', async () => {
    const { root, hook } = setup();
    const start = { ...base(root), cwd: `${root}/svc`, hook_event_name: 'SessionStart', source: 'startup' };
    expect((await hook('claude-code', start, { CLAUDE_PROJECT_DIR: root })).stdout).toContain(
      'web/AGENTS.md',
    );
    expect((await hook('claude-code', start)).stdout).not.toContain('web/AGENTS.md');
  });

  test('with trackChanges, an edited nested file is reported on the next call in its subtree', async () => {
    const { root, hook } = setup({
      ...CLAUDE_PROJECT,
      'ctxfiles.config.json': '{"instructions": {"trackChanges": true}}',
    });
    const read = tool(root, 'Read', { file_path: `${root}/web/a.ts` });
    expect((await hook('claude-code', read)).stdout).toContain('web rules');
    expect((await hook('claude-code', read)).stdout).toBe('');
    writeTree(root, { 'web/AGENTS.md': 'web rules, second edition' });
    expect((await hook('claude-code', read)).stdout).toContain('second edition');
    expect((await hook('claude-code', read)).stdout).toBe('');
  });

  test('after /clear or a compaction the files may be injected again; after resume they are not', async () => {
    const { root, hook } = setup(CLAUDE_PROJECT);
    const read = tool(root, 'Read', { file_path: `${root}/web/a.ts` });
    const start = (source: string) =>
      hook('claude-code', { ...base(root), hook_event_name: 'SessionStart', source });
    await hook('claude-code', read);
    await start('resume');
    expect((await hook('claude-code', read)).stdout).toBe('');
    await start('compact');
    expect((await hook('claude-code', read)).stdout).toContain('web rules');
  });
});

describe('ctxfiles hook gemini-cli (recorded inputs of the documented shape)', () => {
  const base = (root: string) => ({
    session_id: '3f0b2c9e-7a41-4c55-8d0e-91b2a6c4e210',
    transcript_path: '/home/ana/.gemini/tmp/shop/chats/session.json',
    cwd: root,
    timestamp: '2026-11-30T07:02:40.001Z',
  });
  const tool = (root: string, tool_name: string, tool_input: Record<string, unknown>, error?: string) => ({
    ...base(root),
    hook_event_name: 'AfterTool',
    tool_name,
    tool_input,
    tool_response: { llmContent: 'ok', returnDisplay: '', ...(error === undefined ? {} : { error }) },
  });

  test('session start, then read, edit, write, shell, outside, unknown, a failed call: exact stdout', async () => {
    const { root, outside, hook } = setup();
    const steps: Array<[Record<string, unknown>, string]> = [
      [
        { ...base(root), hook_event_name: 'SessionStart', source: 'startup' },
        // The root AGENTS.md, which Gemini CLI does not load itself (it reads GEMINI.md), then the manifest.
        `{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"${jit(['AGENTS.md', 'root'])}\\n\\n${manifest}"}}\n`,
      ],
      // Gemini CLI passes paths as the model wrote them: relative to the work dir here.
      [tool(root, 'write_file', { file_path: 'web/new.ts', content: 'x' }, 'disk full'), '{}\n'],
      [
        tool(root, 'read_file', { file_path: 'svc/auth/login.ts' }),
        `{"hookSpecificOutput":{"hookEventName":"AfterTool","additionalContext":"${jit(['svc/AGENTS.md', '# Service\\nsvc rules'], ['svc/auth/AGENTS.md', 'auth rules'])}"}}\n`,
      ],
      [
        tool(root, 'replace', { file_path: `${root}/svc/auth/login.ts`, old_string: 'a', new_string: 'b' }),
        '{}\n',
      ],
      [
        tool(root, 'write_file', { file_path: 'web/new.ts', content: 'x' }),
        `{"hookSpecificOutput":{"hookEventName":"AfterTool","additionalContext":"${jit(['web/AGENTS.md', 'web rules'])}"}}\n`,
      ],
      [tool(root, 'run_shell_command', { command: 'ls svc', dir_path: 'svc' }), '{}\n'],
      [tool(root, 'read_file', { file_path: `${outside}/lib/x.ts` }), '{}\n'],
      [tool(root, 'read_file', { file_path: '../lib/x.ts' }), '{}\n'],
      [tool(root, 'web_fetch', { prompt: 'https://example.com' }), '{}\n'],
    ];
    for (const [event, stdout] of steps) {
      const result = await hook('gemini-cli', event);
      expect({ code: result.code, stdout: result.stdout, stderr: result.stderr }).toEqual({
        code: 0,
        stdout,
        stderr: '',
      });
    }
  });

  test('a format set by the config, or by a preset, is kept', async () => {
    const read = (root: string) => tool(root, 'read_file', { file_path: 'web/x.ts' });
    const own = setup({ 'ctxfiles.config.json': '{"format": "reminder"}' });
    expect((await own.hook('gemini-cli', read(own.root))).stdout).toContain(
      '"additionalContext":"<system-reminder>\\nAdditional instructions from: web/AGENTS.md',
    );
    const preset = setup({ 'ctxfiles.config.json': '{"preset": "codex"}' });
    expect((await preset.hook('gemini-cli', read(preset.root))).stdout).toBe(
      `{"hookSpecificOutput":{"hookEventName":"AfterTool","additionalContext":"# AGENTS.md instructions for <root>/web\\n\\n<INSTRUCTIONS>\\nweb rules\\n</INSTRUCTIONS>"}}\n`,
    );
  });

  test("--preset: the preset applies (its files, its format); the host's own files only when asked to repeat them", async () => {
    const { root, stateDir } = setup({ 'GEMINI.md': 'root gemini', 'svc/GEMINI.md': 'svc gemini' });
    // The gemini-cli preset wants exactly what Gemini CLI shows itself: nothing is left to add.
    const own = await cli(['hook', 'gemini-cli', '--preset', 'gemini-cli'], {
      cwd: root,
      env: { CTXFILES_STATE_DIR: stateDir },
      stdin: Readable.from([JSON.stringify(tool(root, 'read_file', { file_path: 'svc/x.ts' }))]),
    });
    expect(own).toEqual({ code: 0, stdout: '{}\n', stderr: '' });
    // Asked to repeat them (a new session: the first one settled svc/GEMINI.md as the host's).
    writeTree(root, { 'ctxfiles.config.json': '{"contextDiscovery": {"repeatHostFiles": true}}' });
    const result = await cli(['hook', 'gemini-cli', '--preset', 'gemini-cli'], {
      cwd: root,
      env: { CTXFILES_STATE_DIR: `${stateDir}-repeat` },
      stdin: Readable.from([JSON.stringify(tool(root, 'read_file', { file_path: 'svc/x.ts' }))]),
    });
    expect({ ...result, stdout: result.stdout.split(root).join('<root>') }).toEqual({
      code: 0,
      stdout: `{"hookSpecificOutput":{"hookEventName":"AfterTool","additionalContext":"${jit(['svc/GEMINI.md', 'svc gemini'])}"}}\n`,
      stderr: '',
    });
  });

  test('events the hook does not handle get "{}"', async () => {
    const { root, hook } = setup();
    const result = await hook('gemini-cli', { ...base(root), hook_event_name: 'BeforeTool', tool_name: 'x' });
    expect(result).toEqual({ code: 0, stdout: '{}\n', stderr: '' });
  });
});

describe('the tool tables', () => {
  test.each([
    // agent, tool, input, events
    [
      'claude-code',
      'Read',
      { file_path: '/p/a.ts' },
      [{ tool: 'read', input: { file_path: '/p/a.ts' }, ok: true }],
    ],
    [
      'claude-code',
      'MultiEdit',
      { file_path: 'a.ts', edits: [] },
      [{ tool: 'edit', input: { file_path: 'a.ts' }, ok: true }],
    ],
    [
      'claude-code',
      'NotebookEdit',
      { notebook_path: 'n.ipynb' },
      [{ tool: 'edit', input: { file_path: 'n.ipynb' }, ok: true }],
    ],
    [
      'claude-code',
      'Grep',
      { pattern: 'x', path: 'src' },
      [{ tool: 'grep', input: { path: 'src' }, ok: true }],
    ],
    ['claude-code', 'Grep', { pattern: 'x' }, []], // no path: nothing
    [
      'claude-code',
      'Glob',
      { pattern: 'src/**/*.ts' },
      [{ tool: 'glob', input: { path: undefined, pattern: 'src/**/*.ts' }, ok: true }],
    ],
    ['claude-code', 'LS', { path: '/p/src' }, [{ tool: 'ls', input: { path: '/p/src' }, ok: true }]],
    ['claude-code', 'Bash', { command: 'cat a.ts' }, []],
    ['claude-code', 'read', { file_path: 'a.ts' }, []], // names are case-sensitive, as the agent's matchers
    ['claude-code', 'constructor', {}, []],
    [
      'gemini-cli',
      'read_file',
      { absolute_path: '/p/a.ts' },
      [{ tool: 'read', input: { file_path: '/p/a.ts' }, ok: true }],
    ],
    ['gemini-cli', 'list_directory', { dir_path: 'src' }, [{ tool: 'ls', input: { path: 'src' }, ok: true }]],
    [
      'gemini-cli',
      'grep_search',
      { pattern: 'x', dir_path: 'src' },
      [{ tool: 'grep', input: { path: 'src' }, ok: true }],
    ],
    [
      'gemini-cli',
      'search_file_content',
      { pattern: 'x', path: 'src' },
      [{ tool: 'grep', input: { path: 'src' }, ok: true }],
    ],
    [
      'gemini-cli',
      'glob',
      { pattern: '*.ts', dir_path: 'src' },
      [{ tool: 'glob', input: { path: 'src', pattern: '*.ts' }, ok: true }],
    ],
    [
      'gemini-cli',
      'read_many_files',
      { include: ['a/*.ts', 'b/c.md', 3] },
      [
        { tool: 'glob', input: { pattern: 'a/*.ts' }, ok: true },
        { tool: 'glob', input: { pattern: 'b/c.md' }, ok: true },
      ],
    ],
    ['gemini-cli', 'run_shell_command', { command: 'ls', dir_path: 'src' }, []],
    [
      'qwen-code',
      'read_file',
      { file_path: '/p/a.ts', offset: 3 },
      [{ tool: 'read', input: { file_path: '/p/a.ts' }, ok: true }],
    ],
    ['qwen-code', 'edit', { file_path: 'a.ts' }, [{ tool: 'edit', input: { file_path: 'a.ts' }, ok: true }]],
    ['qwen-code', 'list_directory', { path: 'src' }, [{ tool: 'ls', input: { path: 'src' }, ok: true }]],
    [
      'qwen-code',
      'glob',
      { pattern: '*.ts', path: 'src' },
      [{ tool: 'glob', input: { path: 'src', pattern: '*.ts' }, ok: true }],
    ],
    ['qwen-code', 'replace', { file_path: 'a.ts' }, []], // Gemini CLI's name, not Qwen Code's
    ['qwen-code', 'run_shell_command', { command: 'cat a.ts' }, []],
  ] as const)('%s %s %j', (agent, name, input, events) => {
    expect(toToolEvents(HOST_REGISTRY.hookProtocol(agent)!, name, input, true)).toEqual(events);
    expect(toToolEvents(HOST_REGISTRY.hookProtocol(agent)!, name, input, false)).toEqual([]);
  });
});

describe('faults never break the agent', () => {
  const read = (root: string, file: string, session = 's1') => ({
    session_id: session,
    cwd: root,
    hook_event_name: 'PostToolUse',
    tool_name: 'Read',
    tool_input: { file_path: `${root}/${file}` },
  });

  test.each([
    ['claude-code', 'not json', ''],
    ['gemini-cli', 'not json', '{}\n'],
    ['claude-code', '[1]', ''],
    ['claude-code', '{"hook_event_name":"PostToolUse"}', ''],
    // Terminal escapes and a newline in the input: never echoed, one line per warning.
    ['claude-code', 'x\u001b]0;T\u0007\u001b[2J', ''],
    ['claude-code', 'not\njson', ''],
  ])('%s, input %j: exit 0, %j, one stderr line without the input', async (agent, input, stdout) => {
    const root = tempTree(tree);
    const result = await cli(['hook', agent], { cwd: root, env: {}, stdin: Readable.from([input]) });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(stdout);
    expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(/^ctxfiles: warning: the hook input /);
    expect(result.stderr.trimEnd()).not.toMatch(/[\u0000-\u001f\u007f]/);
    if (input.startsWith('not') || input.startsWith('x')) {
      expect(result.stderr).toMatch(/the hook input is not valid JSON( at position \d+)?\n$/);
      expect(result.stderr).not.toContain('json');
    }
  });

  test.each([
    [
      ['cursor'],
      'expected one agent (codex, claude-code, gemini-cli, qwen-code or cline), got "cursor"; nothing added',
    ],
    [[], 'expected one agent (codex, claude-code, gemini-cli, qwen-code or cline), got ""; nothing added'],
    [['claude-code', '--nope'], 'unknown option "--nope" for ctxfiles hook; nothing added'],
    [['claude-code', '--cwd'], '--cwd needs a value; nothing added'],
    [
      ['gemini-cli', '--preset', 'vim'],
      '"vim" is not a preset (opencode, opencode-go, codex, claude-code, claude-code-2.1.197, cursor, copilot, gemini-cli, continue, qwen-code, kilo, pi, cline); nothing added',
    ],
  ])('arguments %j: exit 0, nothing, one line', async (args, message) => {
    const result = await cli(['hook', ...args], { cwd: tempTree(), env: {}, stdin: Readable.from(['{}']) });
    expect(result).toEqual({ code: 0, stdout: '', stderr: `ctxfiles: warning: ${message}\n` });
  });

  test('--cwd, --config and --state-dir (also as --flag=value) are honoured', async () => {
    const root = tempTree({
      ...tree,
      ...CLAUDE_PROJECT,
      'alt.json': '{"contextDiscovery": {"enabled": false}}',
    });
    const elsewhere = tempTree();
    const event = JSON.stringify({
      session_id: 's',
      cwd: '/nonexistent',
      hook_event_name: 'PostToolUse',
      tool_name: 'Read',
      tool_input: { file_path: `${root}/web/x.ts` },
    });
    const run = (...args: string[]) =>
      cli(['hook', 'claude-code', `--cwd=${root}`, ...args], {
        cwd: elsewhere,
        env: {},
        stdin: Readable.from([event]),
      });
    expect((await run('--state-dir', 'states', '--config', 'alt.json')).stdout).toBe('');
    expect((await run('--state-dir', 'states')).stdout).toContain('web rules');
    expect(fs.readdirSync(path.join(elsewhere, 'states'))).toHaveLength(1);
  });

  test('--help, -h and `ctxfiles help hook` print the help in the style of every command', async () => {
    const help = await cli(['hook', '--help'], { cwd: tempTree(), env: {} });
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: ctxfiles hook \[options\] <agent>\n/);
    expect(help.stdout).toContain('--user-config <file>');
    expect(help.stdout).toContain('\nExamples:\n');
    expect(await cli(['hook', 'claude-code', '-h'], { cwd: tempTree(), env: {} })).toEqual(help);
    expect(await cli(['help', 'hook'], { cwd: tempTree(), env: {} })).toEqual(help);
    // The built bin sends `hook --help` to the CLI bundle: the same text.
    expect(spawnBin(['hook', '--help'], { cwd: tempTree() }).stdout).toBe(help.stdout);
  });

  test('a --help that reaches the hook itself (after a `--` taken as a value) adds nothing and warns', async () => {
    // Help is commander's alone: the hook's parser has no help text of its own to print into the agent.
    const result = await cli(['hook', 'claude-code', '--cwd', '--', '--help'], {
      cwd: tempTree(),
      env: {},
      stdin: Readable.from(['{}']),
    });
    expect([result.code, result.stdout]).toEqual([0, '']);
    expect(result.stderr).toBe(
      'ctxfiles: warning: unknown option "--help" for ctxfiles hook; nothing added\n',
    );
  });

  test('--user-config is read', async () => {
    const root = tempTree(tree);
    const user = path.join(tempTree({ 'u.json': '{"contextDiscovery": {"maxDepth": "deep"}}' }), 'u.json');
    const event = { hook_event_name: 'SessionStart', session_id: 's1', cwd: root };
    const result = await cli(['hook', 'claude-code', '--user-config', user], {
      cwd: root,
      env: { CTXFILES_STATE_DIR: path.join(tempTree(), 'sessions') },
      stdin: Readable.from([JSON.stringify(event)]),
    });
    expect([result.code, result.stdout]).toEqual([0, '']);
    expect(result.stderr).toContain('u.json');
    expect(result.stderr).toContain('maxDepth');
  });

  test('a broken config: exit 0, nothing, one line', async () => {
    const { root, hook } = setup({ 'ctxfiles.config.json': '{"contextDiscovery": {"maxDepth": "deep"}}' });
    const result = await hook('claude-code', read(root, 'web/x.ts'));
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('');
    expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(result.stderr).toContain('maxDepth');
  });

  test('an unwritable state dir: no crash, manifest still shown, nothing injected (so never twice)', async () => {
    const { root, hook } = setup();
    const blocker = path.join(tempTree({ file: 'x' }), 'file');
    const env = { CTXFILES_STATE_DIR: path.join(blocker, 'sessions') };
    const start = await hook(
      'claude-code',
      { session_id: 's1', cwd: root, hook_event_name: 'SessionStart' },
      env,
    );
    expect(start.stdout).toContain('svc/AGENTS.md');
    expect(start.stderr).toMatch(/^ctxfiles: warning: the state dir .* cannot be used \(ENOTDIR\)\n$/);
    for (let round = 0; round < 2; round += 1) {
      const result = await hook('claude-code', read(root, 'web/x.ts'), env);
      expect(result.code).toBe(0);
      expect(result.stdout).toBe('');
      expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
    }
  });

  test('a corrupt state file: a fresh session with one warning, then a state that parses', async () => {
    const { root, stateDir, hook } = setup(CLAUDE_PROJECT);
    const file = path.join(stateDir, sessionFileName('claude-code', 's1', root));
    writeTree(stateDir, { [path.basename(file)]: '{"version": 1, "injected": [' });
    const result = await hook('claude-code', read(root, 'web/x.ts'));
    expect(result.stdout).toContain('web rules');
    expect(result.stderr).toMatch(
      /^ctxfiles: warning: the session state .* is ignored: it is not valid JSON at position 28 \(it ends too early\); a fresh session starts\n$/,
    );
    // Bytes of a corrupt state never reach the terminal.
    writeTree(stateDir, { [path.basename(file)]: '\u001b]0;TITLE\u0007\u001b[2J' });
    const escaped = await hook('claude-code', read(root, 'web/x.ts'));
    expect(escaped.stderr).toMatch(
      /is ignored: it is not valid JSON( at position \d+)?; a fresh session starts\n$/,
    );
    expect(escaped.stderr).not.toContain('TITLE');
    expect(escaped.stderr.trimEnd()).not.toMatch(/[\u0000-\u001f]/);
    const state = JSON.parse(fs.readFileSync(file, 'utf8')) as { disclosure: { injected: unknown[] } };
    expect(state.disclosure.injected).toEqual([
      { path: 'web/AGENTS.md', sha256: expect.any(String), bytes: 9 },
    ]);
    expect((await hook('claude-code', read(root, 'web/x.ts'))).stdout).toBe('');
  });

  test('a lock left by a process that died is taken over; a fresh one is waited for', async () => {
    const { root, stateDir, hook } = setup(CLAUDE_PROJECT);
    const lock = path.join(stateDir, `${sessionFileName('claude-code', 's1', root)}.lock`);
    fs.mkdirSync(stateDir, { recursive: true });
    fs.writeFileSync(lock, '2147483646 dead');
    const old = new Date(Date.now() - 20_000);
    fs.utimesSync(lock, old, old);
    const result = await hook('claude-code', read(root, 'web/x.ts'));
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toContain('web rules');
    expect(fs.existsSync(lock)).toBe(false);
    // A fresh lock: this hook waits until its owner releases it.
    fs.writeFileSync(lock, `${process.pid} alive`);
    setTimeout(() => fs.unlinkSync(lock), 300);
    const waited = await hook('claude-code', read(root, 'svc/x.ts'));
    expect(waited).toMatchObject({ code: 0, stderr: '' });
    expect(waited.stdout).toContain('svc rules');
  });

  test('a state file that is a symlink is refused: nothing injected, its target untouched', async () => {
    const { root, stateDir, hook } = setup();
    const elsewhere = path.join(tempTree({ 'target.json': 'keep' }), 'target.json');
    fs.mkdirSync(stateDir, { recursive: true });
    fs.symlinkSync(elsewhere, path.join(stateDir, sessionFileName('claude-code', 's1', root)));
    for (const event of [
      { session_id: 's1', cwd: root, hook_event_name: 'SessionStart', source: 'startup' },
      read(root, 'web/x.ts'),
    ]) {
      const result = await hook('claude-code', event);
      expect(result.code).toBe(0);
      expect(result.stdout).not.toContain('web rules');
      expect(result.stderr).toMatch(/is a symlink; it is not (used|replaced)/);
    }
    expect(fs.readFileSync(elsewhere, 'utf8')).toBe('keep');
    expect(
      fs.lstatSync(path.join(stateDir, sessionFileName('claude-code', 's1', root))).isSymbolicLink(),
    ).toBe(true);
  });

  test('a state dir that is a symlink is refused', async () => {
    const { root, hook } = setup();
    const real = tempTree();
    const link = path.join(tempTree(), 'sessions');
    fs.symlinkSync(real, link);
    const result = await hook('claude-code', read(root, 'web/x.ts'), { CTXFILES_STATE_DIR: link });
    expect(result).toMatchObject({ code: 0, stdout: '' });
    expect(result.stderr).toContain('is a symlink; it is not used');
    expect(fs.readdirSync(real)).toEqual([]);
  });

  test('a session id like ../../x names no path: the state stays inside the state dir', async () => {
    const { root, stateDir, hook } = setup(CLAUDE_PROJECT);
    const parent = path.dirname(stateDir);
    const before = [...fs.readdirSync(parent), 'sessions'];
    for (const id of ['../../x', '/etc/passwd', 'a/b\0c', '..']) {
      const result = await hook('claude-code', read(root, 'web/x.ts', id));
      expect(result).toMatchObject({ code: 0, stderr: '' });
      expect(result.stdout).toContain('web rules');
    }
    expect(fs.readdirSync(parent)).toEqual(before);
    const names = fs.readdirSync(stateDir);
    expect(names).toHaveLength(4);
    for (const name of names) expect(name).toMatch(/^claude-code-[0-9a-f]{32}\.json$/);
  });
});

describe('the state directory', () => {
  test.each([
    // env, expected (home is /home/u)
    [{ CTXFILES_STATE_DIR: '/s' }, '/s'],
    [{ CTXFILES_STATE_DIR: 'relative', XDG_STATE_HOME: '/x' }, '/x/ctxfiles/sessions'],
    [{ XDG_STATE_HOME: '/x' }, '/x/ctxfiles/sessions'],
    [{ XDG_STATE_HOME: 'relative' }, '/home/u/.local/state/ctxfiles/sessions'],
    [{}, '/home/u/.local/state/ctxfiles/sessions'],
  ])('%j → %s', (env, expected) => {
    expect(stateDirectory(env, '/home/u')).toBe(expected);
  });

  test('the sweep deletes sessions older than the documented age, and only those', () => {
    const dir = tempTree({
      'old.json': '{}',
      'new.json': '{}',
      'old.txt': 'not ours',
      'x.json.1.ab.tmp': '',
    });
    const now = Date.now();
    const ago = (ms: number) => new Date(now - ms);
    fs.utimesSync(path.join(dir, 'old.json'), ago(SESSION_MAX_AGE_MS + 1000), ago(SESSION_MAX_AGE_MS + 1000));
    fs.utimesSync(path.join(dir, 'old.txt'), ago(SESSION_MAX_AGE_MS * 2), ago(SESSION_MAX_AGE_MS * 2));
    fs.utimesSync(path.join(dir, 'x.json.1.ab.tmp'), ago(3_600_000), ago(3_600_000));
    sweepStateDirectory(dir, now);
    expect(fs.readdirSync(dir).sort()).toEqual(['new.json', 'old.txt']);
  });

  test('state file names are stable across versions (a changed hash would orphan every session)', () => {
    expect(hash128('')).toMatch(/^[0-9a-f]{32}$/);
    expect(sessionFileName('claude-code', 's1', '/w')).toBe(
      `claude-code-${hash128('claude-code\0s1\0/w')}.json`,
    );
    expect(hash128('claude-code\0s1\0/w')).toBe('dbc60bcd2dd03d7a02cd093236c27f74');
    expect(new Set(['a', 'b', 'ab', 'ba', '../../x', '..'].map(hash128)).size).toBe(6);
  });

  test('os.homedir() is the fallback base', () => {
    expect(stateDirectory({}, os.homedir())).toBe(path.join(os.homedir(), '.local/state/ctxfiles/sessions'));
  });
});

describe('the quick check and watched names', () => {
  test('a file with a watched name at any level between the work dir and the touched directory is due', () => {
    const workDir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'ctxfiles-due-')));
    try {
      fs.mkdirSync(path.join(workDir, 'a/b/c'), { recursive: true });
      fs.writeFileSync(path.join(workDir, 'a/AGENTS.md'), '# shown\n');
      const state = (files: string[], shown: string[]): HookState => ({
        version: 1,
        agent: 'claude-code',
        workDir,
        updated: '',
        fingerprint: [],
        index: { basenames: ['AGENTS.md', '.cursor/rules'], files, ignored: [], candidates: [] },
        disclosure: { injected: shown.map((p) => ({ path: p })), skipped: [], tracked: [] },
      });
      const dirs = [path.join(workDir, 'a/b/c')];
      // Known and shown: nothing due; known but not shown: due; on disk and unknown: due.
      expect(nothingDue(state(['a/AGENTS.md'], ['a/AGENTS.md']), dirs)).toBe(true);
      expect(nothingDue(state(['a/AGENTS.md'], []), dirs)).toBe(false);
      expect(nothingDue(state([], []), dirs)).toBe(false);
      for (const added of ['a/b/c/AGENTS.md', 'a/b/.cursor/rules']) {
        fs.mkdirSync(path.dirname(path.join(workDir, added)), { recursive: true });
        fs.writeFileSync(path.join(workDir, added), '');
        expect(nothingDue(state(['a/AGENTS.md'], ['a/AGENTS.md']), dirs), added).toBe(false);
        fs.rmSync(path.join(workDir, added));
      }
      // The work dir itself is never a touched level: its files come with the session's start.
      fs.writeFileSync(path.join(workDir, 'AGENTS.md'), '# root\n');
      expect(nothingDue(state(['a/AGENTS.md'], ['a/AGENTS.md']), dirs)).toBe(true);
    } finally {
      fs.rmSync(workDir, { recursive: true, force: true });
    }
  });
});

describe('the quick check and pending rules', () => {
  const state = (extra: Record<string, unknown>, injected: string[] = []): HookState => ({
    version: 1,
    agent: 'claude-code',
    workDir: '/nowhere/w',
    updated: '',
    fingerprint: [],
    index: { basenames: [], files: [], ignored: [], candidates: [], ...extra },
    disclosure: { injected: injected.map((p) => ({ path: p })), skipped: [], tracked: [] },
  });
  const sql = { pattern: '*.sql', nocase: false, basename: true, negated: false };
  const scopes = [
    { path: '.cursor/rules/sql.mdc', owner: '', globs: [sql] },
    { path: 'pkg/.claude/rules/p.md', owner: 'pkg', globs: [] },
  ];
  const rules = scopes.map((scope) => scope.path);

  test.each([
    // touched file, its directory, nothing due
    ['/nowhere/w/web/a.ts', '/nowhere/w/web', true],
    ['/nowhere/w/web/q.sql', '/nowhere/w/web', false], // the glob matches
    ['/nowhere/w/pkg/a.ts', '/nowhere/w/pkg', false], // inside a nested owner
  ])('%s: %s', (file, dir, quiet) => {
    expect(nothingDue(state({ rules, ruleScopes: scopes }), [dir], [file])).toBe(quiet);
  });

  test('shown rules are not pending; without scopes a pending rule means maybe', () => {
    expect(
      nothingDue(state({ rules, ruleScopes: scopes }, rules), ['/nowhere/w/pkg'], ['/nowhere/w/pkg/q.sql']),
    ).toBe(true);
    expect(nothingDue(state({ rules }), ['/nowhere/w/web'], ['/nowhere/w/web/a.ts'])).toBe(false);
  });

  test('the state written by the hook carries the pending rules and their scopes', async () => {
    const { root, stateDir, hook } = setup({
      'ctxfiles.config.json': '{"rules": {"sources": ["cursor"]}}',
      '.cursor/rules/sql.mdc': '---\nglobs: "*.sql"\n---\nsql rule',
    });
    await hook('claude-code', {
      session_id: 's',
      transcript_path: '/dev/null',
      cwd: root,
      hook_event_name: 'SessionStart',
      source: 'startup',
    });
    const [file] = fs.readdirSync(stateDir).filter((name) => name.endsWith('.json'));
    const stored = JSON.parse(fs.readFileSync(path.join(stateDir, file as string), 'utf8')) as HookState;
    expect(stored.index.rules).toEqual(['.cursor/rules/sql.mdc']);
    const [scope] = stored.index.ruleScopes ?? [];
    expect(scope).toMatchObject({ path: '.cursor/rules/sql.mdc', owner: '' });
    expect(scope?.globs).toEqual([{ pattern: '*.sql', nocase: false, basename: true, negated: false }]);
  });

  test('a state that keeps a regular expression (an older format) means maybe, never runs it', () => {
    const old = [
      { path: '.cursor/rules/sql.mdc', owner: '', globs: [{ source: '^(a+)+$', flags: '', basename: true }] },
    ];
    const stateOf = state({ rules: ['.cursor/rules/sql.mdc'], ruleScopes: old as never });
    expect(nothingDue(stateOf, ['/nowhere/w/web'], [`/nowhere/w/web/${'a'.repeat(40)}!`])).toBe(false);
  });
});
