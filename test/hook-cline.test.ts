import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, test } from 'vitest';
import { initCommand } from '../src/cli/init-command.js';
import { formatHookOutput, parseHookEvent } from '../src/hooks/hook-event.js';
import { toToolEvents } from '../src/hooks/tool-names.js';
import { clineHook, clineHookInput } from '../src/hosts/cline/hook.js';
import { BIN, cli, spawnBin } from './helpers/cli.js';
import { tempTree } from './helpers/disk.js';

// Cline CLI 3.0.65's command hooks (docs/hooks.md, "Cline CLI"): its input recast, its tools, its
// answer, the start's text with the first tool call, and the scripts `ctxfiles init cline` writes.

/** A payload as Cline CLI's hook runner writes it (@cline/core 0.0.86 dist/index.js). */
function payload(
  hookName: string,
  extra: Record<string, unknown> = {},
  root = '/w',
): Record<string, unknown> {
  return {
    clineVersion: '',
    hookName,
    timestamp: '2026-01-01T00:00:00.000Z',
    taskId: 'task-1',
    sessionContext: { rootSessionId: 'task-1' },
    workspaceRoots: [root],
    userId: 'you',
    agent_id: 'agent-main',
    parent_agent_id: null,
    ...extra,
  };
}

/** A tool_result payload: the tool's input as Cline hands it, and the stringified parameters beside it. */
function toolResult(name: string, input: unknown, root = '/w', success = true) {
  const parameters =
    typeof input === 'object' && input !== null && !Array.isArray(input)
      ? Object.fromEntries(
          Object.entries(input).map(([key, value]) => [
            key,
            typeof value === 'string' ? value : JSON.stringify(value),
          ]),
        )
      : {};
  return payload(
    'tool_result',
    {
      iteration: 1,
      tool_result: { id: 'call-1', name, input, output: 'ok', ...(success ? {} : { error: 'boom' }) },
      postToolUse: { toolName: name, parameters, result: 'ok', success, executionTimeMs: 3 },
    },
    root,
  );
}

describe('clineHookInput: Cline CLI events in the fields ctxfiles hook reads', () => {
  test.each([
    // A new task: the start event, which Cline runs detached (its answer is never read).
    [
      'agent_start',
      payload('agent_start', { taskStart: { taskMetadata: {} } }),
      { hook_event_name: 'TaskStart' },
    ],
    // CLINE_HOOK_AGENT_RESUME=1: the same files get agent_resume, a start that keeps the history.
    ['agent_resume', payload('agent_resume'), { hook_event_name: 'TaskResume', source: 'resume' }],
    ['prompt_submit', payload('prompt_submit'), { hook_event_name: 'UserPromptSubmit' }],
    // Inside a subagent parent_agent_id is set: agent_id names its context.
    [
      'a subagent',
      payload('tool_result', { parent_agent_id: 'agent-main', agent_id: 'agent-sub' }),
      { hook_event_name: 'PostToolUse', agent_id: 'agent-sub' },
    ],
  ])('%s', (_name, input, expected) => {
    const record = clineHookInput(input);
    expect(record).toMatchObject({ session_id: 'task-1', cwd: '/w', ...expected });
    if (!('agent_id' in expected)) expect(record).not.toHaveProperty('agent_id');
  });

  test.each([
    [
      'the tool input as the tool got it',
      toolResult('read_files', { files: [{ path: '/w/a.ts' }] }),
      { files: [{ path: '/w/a.ts' }] },
    ],
    // A bare string or list (Cline's schemas accept them) is kept under `value`.
    ['a bare string', toolResult('apply_patch', '*** Begin Patch'), { value: '*** Begin Patch' }],
    ['a bare list', toolResult('read_files', ['/w/a.ts']), { value: ['/w/a.ts'] }],
  ])('a tool result: %s', (_name, input, toolInput) => {
    expect(clineHookInput(input)).toMatchObject({
      hook_event_name: 'PostToolUse',
      tool_name: (input.tool_result as { name: string }).name,
      tool_input: toolInput,
      tool_response: {},
    });
  });

  test('without tool_result.input, postToolUse.parameters with its JSON text read back', () => {
    const input = toolResult('read_files', { files: [{ path: '/w/a.ts' }] });
    delete (input.tool_result as Record<string, unknown>)['input'];
    expect(clineHookInput(input)['tool_input']).toEqual({ files: [{ path: '/w/a.ts' }] });
  });

  test('a failed tool reports its error, so it touches nothing', () => {
    const event = parseHookEvent(
      clineHook,
      JSON.stringify(toolResult('read_files', { files: [{ path: '/w/a.ts' }] }, '/w', false)),
    );
    expect(event).toMatchObject({ kind: 'after-tool', toolName: 'read_files', ok: false });
  });

  test('an input without hookName is left as it is, and fails with the usual reason', () => {
    expect(clineHookInput({ taskId: 'x' })).toEqual({ taskId: 'x' });
    expect(parseHookEvent(clineHook, '{"taskId":"x"}')).toEqual({
      error: 'the hook input has no "hook_event_name"',
    });
    expect(parseHookEvent(clineHook, JSON.stringify({ hookName: 'tool_result' }))).toEqual({
      error: 'the hook input has no "session_id"',
    });
  });

  test.each([
    ['agent_start', 'session-start'],
    // TaskResume is not a start ctxfiles needs: a resumed task keeps its state.
    ['agent_resume', 'other'],
    ['tool_result', 'after-tool'],
    ['tool_call', 'other'],
    ['prompt_submit', 'other'],
    ['agent_end', 'other'],
  ])('%s is a %s event', (hookName, kind) => {
    const input = hookName === 'tool_result' ? toolResult('editor', { path: '/w/a.ts' }) : payload(hookName);
    expect(parseHookEvent(clineHook, JSON.stringify(input))).toMatchObject({ kind });
  });
});

describe("Cline CLI's tools and the paths they touch", () => {
  const events = (name: string, input: Record<string, unknown>) => toToolEvents(clineHook, name, input, true);
  test.each([
    [
      'read_files',
      { files: [{ path: '/w/a.ts' }, { path: '/w/pkg/b.ts', start_line: 1 }] },
      [
        { tool: 'read', input: { file_path: '/w/a.ts' }, ok: true },
        { tool: 'read', input: { file_path: '/w/pkg/b.ts' }, ok: true },
      ],
    ],
    [
      'read_files',
      { files: ['/w/a.ts', 7, null] },
      [{ tool: 'read', input: { file_path: '/w/a.ts' }, ok: true }],
    ],
    [
      'read_files',
      { file_paths: ['/w/a.ts'] },
      [{ tool: 'read', input: { file_path: '/w/a.ts' }, ok: true }],
    ],
    ['read_files', { value: '/w/a.ts' }, [{ tool: 'read', input: { file_path: '/w/a.ts' }, ok: true }]],
    [
      'editor',
      { path: '/w/pkg/a.ts', new_text: 'x' },
      [{ tool: 'edit', input: { file_path: '/w/pkg/a.ts' }, ok: true }],
    ],
    [
      'apply_patch',
      { input: '*** Begin Patch' },
      [{ tool: 'apply_patch', input: { patch: '*** Begin Patch' }, ok: true }],
    ],
    // A shell command touches nothing without --shell-paths.
    ['run_commands', { commands: ['cat pkg/a.ts'] }, []],
    // Regex queries over the workspace and web fetches name no path.
    ['search_codebase', { queries: ['x'] }, []],
    ['fetch_web_content', { requests: [{ url: 'https://example.com', prompt: 'xx' }] }, []],
  ])('%s %j', (name, input, expected) => {
    expect(events(name, input)).toEqual(expected);
  });
});

describe('the answer Cline CLI reads', () => {
  test('contextModification, one JSON line; nothing at all when there is nothing to add', () => {
    expect(formatHookOutput(clineHook, 'after-tool', 'Use <b>tabs</b> & "quotes".')).toBe(
      '{"contextModification":"Use <b>tabs</b> & \\"quotes\\"."}\n',
    );
    expect(formatHookOutput(clineHook, 'after-tool', '')).toBe('');
    expect(formatHookOutput(clineHook, 'session-start', '')).toBe('');
  });
});

describe('ctxfiles hook cline', () => {
  const tree = {
    'AGENTS.md': 'Root agents, which Cline loads itself.',
    'CLAUDE.md': 'Root claude.',
    '.clinerules/style.md': 'Cline rule.',
    '.cursor/rules/always.mdc': '---\nalwaysApply: true\n---\nAlways use tabs.\n',
    'pkg/AGENTS.md': 'Package agents.',
    'pkg/a.ts': '',
    'pkg/b.ts': '',
    'lib/c.ts': '',
  };
  function setup() {
    const root = fs.realpathSync(tempTree(tree));
    const stateDir = path.join(tempTree(), 'sessions');
    const hook = async (event: Record<string, unknown>) => {
      const result = await cli(['hook', 'cline'], {
        cwd: root,
        env: { CTXFILES_STATE_DIR: stateDir, HOME: path.join(root, 'home') },
        stdin: Readable.from([JSON.stringify(event)]),
      });
      return { ...result, stdout: result.stdout.split(root).join('<root>') };
    };
    const read = (file: string) =>
      toolResult('read_files', { files: [{ path: path.join(root, file) }] }, root);
    return { root, hook, read };
  }
  const textOf = (stdout: string) =>
    (JSON.parse(stdout) as { contextModification: string }).contextModification;

  test('TaskStart answers nothing; the first tool call brings what Cline does not load, then each nested file once', async () => {
    const { hook, read, root } = setup();
    expect(await hook(payload('agent_start', {}, root))).toEqual({ code: 0, stdout: '', stderr: '' });
    const first = await hook(read('lib/c.ts'));
    expect(first.stderr).toBe('');
    const start = textOf(first.stdout);
    expect(start).toContain('Root claude.');
    expect(start).toContain('Always use tabs.');
    expect(start).toContain('- pkg/AGENTS.md');
    // Cline's own: its work dir's AGENTS.md and its .clinerules.
    expect(start).not.toContain('Root agents');
    expect(start).not.toContain('Cline rule.');
    const nested = await hook(read('pkg/a.ts'));
    expect(textOf(nested.stdout)).toBe(
      '<system-reminder>\nAdditional instructions from: pkg/AGENTS.md\n\nThese apply to work under `pkg`. Follow them where relevant; a more specific file wins over a broader one, and none of them outranks system, developer or direct user instructions.\n\nPackage agents.\n</system-reminder>',
    );
    expect(await hook(read('pkg/b.ts'))).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(await hook(read('lib/c.ts'))).toEqual({ code: 0, stdout: '', stderr: '' });
  });

  test('without TaskStart (a hook folder with PostToolUse only) the first tool call still brings the start', async () => {
    const { hook, read } = setup();
    const first = await hook(read('pkg/a.ts'));
    const text = textOf(first.stdout);
    expect(text.split('Always use tabs.')).toHaveLength(2);
    expect(text.split('Package agents.')).toHaveLength(2);
    expect(await hook(read('pkg/b.ts'))).toEqual({ code: 0, stdout: '', stderr: '' });
  });

  test('another task starts over; a resumed one keeps what it was given', async () => {
    const { hook, read, root } = setup();
    await hook(read('pkg/a.ts'));
    expect(await hook({ ...payload('agent_resume', {}, root) })).toEqual({ code: 0, stdout: '', stderr: '' });
    expect((await hook(read('pkg/b.ts'))).stdout).toBe('');
    const other = await hook({ ...read('pkg/b.ts'), taskId: 'task-2' });
    expect(textOf(other.stdout)).toContain('Package agents.');
  });

  test('a broken input is a warning and no answer, exit 0', async () => {
    const { root } = setup();
    const result = await cli(['hook', 'cline'], { cwd: root, stdin: Readable.from(['{"hookName":']) });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^ctxfiles: warning: the hook input is /);
  });

  test('the built bin answers a tool call the same way (its quick path first)', () => {
    const { root, read } = setup();
    const env = { CTXFILES_STATE_DIR: path.join(tempTree(), 'sessions') };
    const first = spawnBin(['hook', 'cline'], { cwd: root, input: JSON.stringify(read('pkg/a.ts')), env });
    expect(first.code).toBe(0);
    expect(textOf(first.stdout)).toContain('Package agents.');
    const again = spawnBin(['hook', 'cline'], { cwd: root, input: JSON.stringify(read('pkg/b.ts')), env });
    expect(again.stdout).toBe('');
  });
});

describe('ctxfiles init cline', () => {
  const launch = { node: '/usr/bin/node', bin: BIN };
  function init(
    root: string,
    options: { remove?: boolean; user?: boolean; env?: Record<string, string> } = {},
  ) {
    let stdout = '';
    const io = {
      stdout: { write: (text: string) => (stdout += text) },
      stderr: { write: () => undefined },
      env: options.env ?? {},
      cwd: root,
    };
    const code = initCommand(
      {
        host: 'cline',
        scope: options.user === true ? 'user' : 'project',
        dryRun: false,
        remove: options.remove === true,
        launch,
        homeDir: path.join(root, 'home'),
      },
      io,
    );
    return { code, stdout };
  }
  const script = `#!/bin/sh\n# Written by \`ctxfiles init cline\`; \`ctxfiles init cline --remove\` deletes it.\nexec /usr/bin/node ${BIN} hook cline\n`;

  test('writes one executable PostToolUse script in .cline/hooks, and nothing else', () => {
    const root = tempTree({ 'AGENTS.md': 'Rules.\n' });
    expect(init(root).code).toBe(0);
    const file = path.join(root, '.cline/hooks/PostToolUse');
    expect(fs.readFileSync(file, 'utf8')).toBe(script);
    if (process.platform !== 'win32') expect(fs.statSync(file).mode & 0o777).toBe(0o755);
    expect(fs.readdirSync(path.join(root, '.cline/hooks'))).toEqual(['PostToolUse']);
    expect(fs.readFileSync(path.join(root, 'AGENTS.md'), 'utf8')).toBe('Rules.\n');
    expect(init(root).stdout).toBe('.cline/hooks/PostToolUse: nothing to change\n');
  });

  test("never replaces a hook of the user's own, and names it", () => {
    const root = tempTree({ '.cline/hooks/PostToolUse': '#!/bin/sh\necho mine\n' });
    expect(() => init(root)).toThrow(
      `${path.join(root, '.cline/hooks/PostToolUse')}: is a hook of your own (it lacks the line init writes), which init never replaces: move it away or merge it by hand, then run init again; the file is left as it is`,
    );
    expect(fs.readFileSync(path.join(root, '.cline/hooks/PostToolUse'), 'utf8')).toBe(
      '#!/bin/sh\necho mine\n',
    );
    // --remove leaves it too.
    expect(init(root, { remove: true }).stdout).toBe('.cline/hooks/PostToolUse: nothing to change\n');
    expect(fs.existsSync(path.join(root, '.cline/hooks/PostToolUse'))).toBe(true);
  });

  test('replaces its own script of another form; --remove deletes it and the folders it leaves empty', () => {
    const root = tempTree({
      '.cline/hooks/PostToolUse': script.replace('/usr/bin/node', '/old/node'),
    });
    expect(init(root).stdout).toContain('.cline/hooks/PostToolUse: updated\n');
    expect(fs.readFileSync(path.join(root, '.cline/hooks/PostToolUse'), 'utf8')).toBe(script);
    expect(init(root, { remove: true }).stdout).toBe(
      '.cline/hooks/PostToolUse: deleted (init had created it)\n',
    );
    expect(fs.existsSync(path.join(root, '.cline'))).toBe(false);
  });

  test('--user writes into ~/.cline/hooks, or $CLINE_DIR/hooks', () => {
    const root = tempTree();
    init(root, { user: true });
    expect(fs.readFileSync(path.join(root, 'home/.cline/hooks/PostToolUse'), 'utf8')).toBe(script);
    const clineDir = path.join(root, 'home', 'cline-dir');
    init(root, { user: true, env: { CLINE_DIR: clineDir } });
    expect(fs.readFileSync(path.join(clineDir, 'hooks/PostToolUse'), 'utf8')).toBe(script);
  });
});
