import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { parse as parseJsonc } from 'jsonc-parser';
import { parse as parseToml } from 'smol-toml';
import { describe, expect, test } from 'vitest';
import { initCommand, initSnippets } from '../src/cli/init-command.js';
import { BIN } from './helpers/cli.js';
import { tempTree } from './helpers/disk.js';

const launch = { node: process.execPath, bin: BIN };

/** Runs `ctxfiles init` in-process on a real directory. */
function init(
  root: string,
  host: string,
  extra: { dryRun?: boolean; remove?: boolean; user?: boolean; home?: string } = {},
) {
  let stdout = '';
  let stderr = '';
  const io = {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
    env: {},
    cwd: root,
  };
  let code: number;
  try {
    code = initCommand(
      {
        host,
        scope: extra.user === true ? 'user' : 'project',
        dryRun: extra.dryRun === true,
        remove: extra.remove === true,
        launch,
        homeDir: extra.home ?? path.join(root, 'home'),
      },
      io,
    );
  } catch (error) {
    return { code: -1, stdout, stderr: (error as Error).message };
  }
  return { code, stdout, stderr };
}

/** Every file under `root` with its bytes. */
function snapshot(root: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const entry of fs.readdirSync(root, { recursive: true, withFileTypes: true }))
    if (entry.isFile()) {
      const file = path.join(entry.parentPath, entry.name);
      files[path.relative(root, file)] = fs.readFileSync(file, 'utf8');
    }
  return files;
}

const settingsWithComments = `{
  // my own settings
  "model": "opus",
  /* keep */ "hooks": {
    "PostToolUse": [
      { "matcher": "Bash", "hooks": [{ "type": "command", "command": "echo hi" }] }
    ]
  },
}
`;

const codexWithComments = `# my codex config
model = "o3" # the model

[mcp_servers.other]
command = "x" # another server
`;

describe('ctxfiles init on real files', () => {
  test('Claude Code: JSONC with comments is merged, untouched around, idempotent, and --remove restores it', () => {
    const root = tempTree({
      '.claude/settings.json': settingsWithComments,
      'AGENTS.md': 'rules',
      'CLAUDE.md': 'more',
    });
    expect(init(root, 'claude-code')).toMatchObject({ code: 0, stderr: '' });
    const written = fs.readFileSync(path.join(root, '.claude/settings.json'), 'utf8');
    // Everything before the new entries is byte for byte the same.
    expect(written.startsWith(settingsWithComments.slice(0, settingsWithComments.indexOf('}] }') + 4))).toBe(
      true,
    );
    expect(written).toContain('// my own settings');
    expect(written).toContain('/* keep */');
    expect(written).toContain(`"command": "${process.execPath} ${BIN} hook claude-code"`);
    const mcp = JSON.parse(fs.readFileSync(path.join(root, '.mcp.json'), 'utf8')) as Record<string, unknown>;
    expect(mcp).toEqual({
      mcpServers: {
        ctxfiles: { type: 'stdio', command: process.execPath, args: [BIN, 'mcp', '--host', 'claude-code'] },
      },
    });
    const before = snapshot(root);
    expect(init(root, 'claude-code').stdout).toBe(
      '.claude/settings.json: nothing to change\n.mcp.json: nothing to change\n',
    );
    expect(snapshot(root)).toEqual(before);
    expect(init(root, 'claude-code', { remove: true }).code).toBe(0);
    expect(fs.readFileSync(path.join(root, '.claude/settings.json'), 'utf8')).toBe(settingsWithComments);
    // Instruction files are never touched.
    expect(fs.readFileSync(path.join(root, 'AGENTS.md'), 'utf8')).toBe('rules');
    expect(fs.readFileSync(path.join(root, 'CLAUDE.md'), 'utf8')).toBe('more');
  });

  test('Codex: TOML comments kept, one block appended, idempotent, --remove restores the file', () => {
    const root = tempTree({ '.codex/config.toml': codexWithComments });
    const result = init(root, 'codex');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Codex runs a new or changed hook only once you trust it');
    const written = fs.readFileSync(path.join(root, '.codex/config.toml'), 'utf8');
    expect(written.startsWith(codexWithComments)).toBe(true);
    const parsed = parseToml(written) as {
      mcp_servers: Record<string, { command: string; args: string[] }>;
      hooks: Record<string, Array<{ matcher?: string; hooks: Array<{ type: string; command: string }> }>>;
    };
    expect(parsed.mcp_servers['ctxfiles']).toEqual({
      command: process.execPath,
      args: [BIN, 'mcp', '--host', 'codex'],
    });
    expect(parsed.mcp_servers['other']).toEqual({ command: 'x' });
    expect(Object.keys(parsed.hooks)).toEqual(['SessionStart', 'PostToolUse', 'PreCompact', 'SubagentStart']);
    expect(parsed.hooks['PostToolUse']?.[0]?.hooks[0]?.command).toBe(
      `${process.execPath} ${BIN} hook codex --shell-paths`,
    );
    expect(init(root, 'codex').stdout).toContain('.codex/config.toml: nothing to change');
    expect(fs.readFileSync(path.join(root, '.codex/config.toml'), 'utf8')).toBe(written);
    init(root, 'codex', { remove: true });
    expect(fs.readFileSync(path.join(root, '.codex/config.toml'), 'utf8')).toBe(codexWithComments);
  });

  test('Kilo CLI: kilo.json keeps its comments, gets mcp.ctxfiles once, and --remove restores it', () => {
    const text =
      '{\n  // the lab model\n  "model": "lab/lab-model",\n  "mcp": { "other": { "type": "remote", "url": "x" } },\n}\n';
    const root = tempTree({ 'kilo.json': text });
    expect(init(root, 'kilo', { dryRun: true })).toMatchObject({
      code: 0,
      stdout: expect.stringContaining('+++ b/kilo.json'),
    });
    expect(snapshot(root)).toEqual({ 'kilo.json': text });
    expect(init(root, 'kilo').code).toBe(0);
    const after = snapshot(root)['kilo.json'] as string;
    expect(after).toContain('// the lab model');
    expect(after).toContain('"other": { "type": "remote", "url": "x" }');
    const entry = parseJsonc(after) as { mcp: Record<string, unknown> };
    expect(entry.mcp['ctxfiles']).toEqual({
      type: 'local',
      command: [launch.node, launch.bin, 'mcp', '--host', 'kilo'],
      enabled: true,
    });
    expect(init(root, 'kilo')).toMatchObject({ code: 0, stdout: 'kilo.json: nothing to change\n' });
    expect(snapshot(root)['kilo.json']).toBe(after);
    expect(init(root, 'kilo', { remove: true }).code).toBe(0);
    expect(snapshot(root)).toEqual({ 'kilo.json': text });
  });

  test('Qwen Code: .qwen/settings.json keeps its comments, gets the hooks and mcpServers once, --remove restores it', () => {
    const text = '{\n  // my model\n  "model": { "name": "qwen3" },\n}\n';
    const root = tempTree({ '.qwen/settings.json': text });
    expect(init(root, 'qwen-code', { dryRun: true })).toMatchObject({
      code: 0,
      stdout: expect.stringContaining('+++ b/.qwen/settings.json'),
    });
    expect(snapshot(root)).toEqual({ '.qwen/settings.json': text });
    expect(init(root, 'qwen-code')).toMatchObject({ code: 0, stderr: '' });
    const after = snapshot(root)['.qwen/settings.json'] as string;
    expect(after.startsWith('{\n  // my model\n  "model": { "name": "qwen3" },')).toBe(true);
    const parsed = parseJsonc(after) as {
      hooks: Record<string, Array<{ matcher?: string; hooks: Array<{ command: string; timeout: number }> }>>;
      mcpServers: Record<string, unknown>;
    };
    expect(Object.keys(parsed.hooks)).toEqual(['SessionStart', 'PostToolUse', 'PreCompact', 'SubagentStart']);
    expect(parsed.hooks['PostToolUse']?.[0]?.matcher).toBe(
      '^(read_file|write_file|edit|list_directory|glob|grep_search)$',
    );
    expect(parsed.hooks['PreCompact']?.[0]?.hooks[0]).toEqual({
      type: 'command',
      command: `${process.execPath} ${BIN} hook qwen-code`,
      timeout: 30,
    });
    expect(parsed.mcpServers['ctxfiles']).toEqual({
      command: process.execPath,
      args: [BIN, 'mcp', '--host', 'qwen-code'],
    });
    expect(init(root, 'qwen-code')).toMatchObject({
      code: 0,
      stdout: '.qwen/settings.json: nothing to change\n',
    });
    expect(snapshot(root)['.qwen/settings.json']).toBe(after);
    expect(init(root, 'qwen-code', { remove: true }).code).toBe(0);
    expect(snapshot(root)).toEqual({ '.qwen/settings.json': text });
  });

  test('--dry-run prints a unified diff and writes nothing', () => {
    const root = tempTree({ '.gemini/settings.json': '{\n  "theme": "dark"\n}\n' });
    const before = snapshot(root);
    const result = init(root, 'gemini-cli', { dryRun: true });
    expect(result.code).toBe(0);
    expect(
      result.stdout.startsWith('--- a/.gemini/settings.json\n+++ b/.gemini/settings.json\n@@ -1,3 +1,'),
    ).toBe(true);
    expect(result.stdout).toContain(' {\n-  "theme": "dark"\n+  "theme": "dark",\n+  "hooks": {\n');
    expect(
      result.stdout.startsWith('--- a/.gemini/settings.json\n+++ b/.gemini/settings.json\n@@ -1,3 +1,'),
    ).toBe(true);
    expect(result.stdout).toContain('-  "theme": "dark"\n+  "theme": "dark",\n');
    expect(result.stdout).toContain('+  "mcpServers": {');
    expect(snapshot(root)).toEqual(before);
  });

  test.each([
    [
      'claude-code',
      '.claude/settings.json',
      '{"hooks": {"PostToolUse": [}',
      /not valid JSON at 1:28 \(ValueExpected\)/,
    ],
    [
      'claude-code',
      '.claude/settings.json',
      '{"hooks": {"PostToolUse": {"a": 1}}}',
      /hooks\.PostToolUse is not a list \(1:27\)/,
    ],
    ['claude-code', '.claude/settings.json', '[1, 2]', /not a JSON object/],
    ['gemini-cli', '.gemini/settings.json', '{"mcpServers": 5}', /mcpServers is not an object/],
    ['codex', '.codex/config.toml', 'model = \n', /not valid TOML at 1:\d+/],
    [
      'codex',
      '.codex/config.toml',
      '[mcp_servers.ctxfiles]\ncommand = "npx"\n',
      /\[mcp_servers\.ctxfiles\] is already defined outside ctxfiles' block/,
    ],
    ['opencode', 'opencode.json', '{"mcp": [] // x\n}', /mcp is not an object/],
    ['kilo', 'kilo.json', '{"mcp": {"ctxfiles": 1,}', /not valid JSON at/],
    ['qwen-code', '.qwen/settings.json', '{"hooks": {"PreCompact": 3}}', /hooks\.PreCompact is not a list/],
  ])('%s with a malformed %s: a clear error, and no file is written', (host, file, text, message) => {
    const root = tempTree({ [file]: text });
    const before = snapshot(root);
    const result = init(root, host);
    expect(result.code).toBe(-1);
    expect(result.stderr).toMatch(message);
    expect(result.stderr).toContain(path.join(root, file));
    expect(result.stderr).toContain('the file is left as it is');
    expect(snapshot(root)).toEqual(before);
  });

  test('--user writes under the home directory, and nothing in the project', () => {
    const root = tempTree({ 'AGENTS.md': 'x' });
    const home = tempTree();
    expect(init(root, 'claude-code', { user: true, home }).code).toBe(0);
    expect(Object.keys(snapshot(home)).sort()).toEqual(['.claude.json', '.claude/settings.json']);
    expect(Object.keys(snapshot(root))).toEqual(['AGENTS.md']);
    expect(init(root, 'opencode', { user: true, home }).code).toBe(0);
    expect(snapshot(home)).toHaveProperty(['.config/opencode/opencode.json']);
    expect(init(root, 'kilo', { user: true, home }).code).toBe(0);
    expect(snapshot(home)).toHaveProperty(['.config/kilo/kilo.json']);
    expect(init(root, 'qwen-code', { user: true, home }).code).toBe(0);
    expect(snapshot(home)).toHaveProperty(['.qwen/settings.json']);
  });

  test('an unknown host is a usage error', () => {
    const root = tempTree();
    expect(init(root, 'cursor')).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('unknown host "cursor"'),
    });
  });

  test('the hook command it writes runs as the agent runs it (through a shell) and answers', () => {
    // A Claude project: Claude Code loads CLAUDE.md itself, the hook the nested AGENTS.md it does not.
    const root = tempTree({ 'CLAUDE.md': 'root', 'svc/AGENTS.md': 'svc rules', 'svc/a.ts': '' });
    init(root, 'claude-code');
    const settings = JSON.parse(fs.readFileSync(path.join(root, '.claude/settings.json'), 'utf8')) as {
      hooks: { PostToolUse: Array<{ hooks: Array<{ command: string }> }> };
    };
    const command = settings.hooks.PostToolUse[0]?.hooks[0]?.command as string;
    const event = {
      session_id: 's',
      cwd: root,
      hook_event_name: 'PostToolUse',
      tool_name: 'Read',
      tool_input: { file_path: `${root}/svc/a.ts` },
    };
    const result = spawnSync('sh', ['-c', command], {
      cwd: root,
      input: JSON.stringify(event),
      encoding: 'utf8',
      env: { HOME: root, CTXFILES_STATE_DIR: path.join(tempTree(), 's') },
      timeout: 20_000,
    });
    expect(result.stderr).toBe('');
    expect(result.stdout).toContain('svc rules');
  });
});

describe('the snippets of docs/hooks.md and docs/mcp.md are what init writes', () => {
  const docs = ['docs/hooks.md', 'docs/mcp.md'].map((file) => fs.readFileSync(file, 'utf8')).join('\n');
  const snippets = initSnippets();
  test.each(Object.keys(snippets))('%s', (key) => {
    const at = docs.indexOf(`<!-- ctxfiles init: ${key} -->`);
    expect(at).toBeGreaterThan(-1);
    const fence = /```(\w+)\n([\s\S]*?)```/.exec(docs.slice(at)) as RegExpExecArray;
    const expected = snippets[key] as string;
    // JSON fences are formatted by prettier: compared as data. TOML exactly.
    if (fence[1] === 'json') expect(JSON.parse(fence[2] as string)).toEqual(JSON.parse(expected));
    else expect(fence[2]).toBe(expected);
  });
});
