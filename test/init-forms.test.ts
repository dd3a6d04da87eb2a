import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { initCommand } from '../src/cli/init-command.js';
import { INIT_HOSTS } from '../src/cli/init-hosts.js';
import { BIN } from './helpers/cli.js';
import { tempTree } from './helpers/disk.js';

// The form of what `init` writes (docs/hooks.md, "Setting it up"): a command relative to the
// project where ctxfiles is installed in it, which a team can commit, checked byte for byte against
// golden files (test/fixtures/init/<host>/); this machine's paths only where nothing else works,
// with a line saying so; and --remove gives back exactly what was there, absence included.
// `CTXFILES_UPDATE_GOLDEN=1 npx vitest run test/init-forms.test.ts` rewrites the golden files.

const GOLDEN = path.resolve('test/fixtures/init');
const posixOnly = test.skipIf(process.platform === 'win32');
const launch = { node: '/opt/node/bin/node', bin: '/opt/ctxfiles/dist/bin/ctxfiles.cjs' };

function init(root: string, host: string, extra: { remove?: boolean; dryRun?: boolean } = {}) {
  let stdout = '';
  const code = initCommand(
    {
      host,
      scope: 'project',
      dryRun: extra.dryRun === true,
      remove: extra.remove === true,
      launch,
      homeDir: path.join(root, 'home'),
    },
    { stdout: { write: (text: string) => (stdout += text) }, stderr: { write: () => 0 }, env: {}, cwd: root },
  );
  return { code, stdout: stdout.split(root).join('<root>') };
}

/** Every file under `dir` with its text, and every folder (`<name>/`). */
function listing(dir: string): Record<string, string> {
  const found: Record<string, string> = {};
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    const key = path.relative(dir, path.join(entry.parentPath, entry.name));
    found[entry.isDirectory() ? `${key}/` : key] = entry.isFile()
      ? fs.readFileSync(path.join(entry.parentPath, entry.name), 'utf8')
      : '';
  }
  return found;
}

/** A repository with ctxfiles installed (a stub bin: these tests do not run it). */
const installed = () =>
  tempTree({ '.git/HEAD': 'ref: refs/heads/main\n', 'node_modules/ctxfiles/dist/bin/ctxfiles.cjs': '' });

describe('the committed form, per host (golden files)', () => {
  posixOnly.each(INIT_HOSTS)('%s', (host) => {
    const root = installed();
    const before = listing(root);
    const result = init(root, host);
    expect(result.code).toBe(0);
    const written = Object.fromEntries(
      Object.entries(listing(root)).filter(([name, text]) => before[name] !== text && !name.endsWith('/')),
    );
    const golden = { ...written, 'stdout.txt': result.stdout };
    const dir = path.join(GOLDEN, host);
    if (process.env['CTXFILES_UPDATE_GOLDEN'] === '1')
      for (const [name, text] of Object.entries(golden)) {
        fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
        fs.writeFileSync(path.join(dir, name), text);
      }
    const expected = Object.fromEntries(Object.entries(listing(dir)).filter(([name]) => !name.endsWith('/')));
    expect(golden).toEqual(expected);
    // Nothing in what a team commits names this machine.
    for (const text of Object.values(written)) {
      expect(text).not.toContain(root);
      expect(text).not.toContain('/opt/');
    }
  });
});

describe('absolute paths only where nothing else works, said in a line', () => {
  test.each([
    [
      'ctxfiles is not installed',
      () => tempTree({ '.git/HEAD': '' }),
      'claude-code',
      /ctxfiles is not installed in this project/,
    ],
    [
      'no git repository (Codex finds its config up to the repository root)',
      () => tempTree({ 'node_modules/ctxfiles/dist/bin/ctxfiles.cjs': '' }),
      'codex',
      /outside a git repository, codex has no way to find the project's ctxfiles from a sub-folder/,
    ],
  ])('%s', (_, tree, host, why) => {
    const root = tree();
    const result = init(root, host);
    expect(result.stdout).toMatch(why);
    expect(result.stdout).toContain("Written with this machine's absolute paths to node and ctxfiles: ");
    const text = Object.values(listing(root)).join('\n');
    expect(text).toContain(launch.bin);
  });

  test('a project-relative command is found in a workspace of a monorepo (node_modules at the root)', () => {
    const root = installed();
    fs.mkdirSync(path.join(root, 'packages/app'), { recursive: true });
    const result = init(path.join(root, 'packages/app'), 'claude-code');
    expect(result.stdout).toContain(
      'Written with a command relative to the project ($CLAUDE_PROJECT_DIR/../../node_modules/ctxfiles/dist/bin/ctxfiles.cjs)',
    );
  });
});

describe('--remove gives back exactly what was there', () => {
  test.each(INIT_HOSTS)('%s in an empty project: every file and folder init created is gone', (host) => {
    const root = installed();
    const before = listing(root);
    init(root, host);
    expect(listing(root)).not.toEqual(before);
    const removed = init(root, host, { remove: true });
    expect(removed.stdout).toContain('deleted (init had created it)');
    expect(listing(root)).toEqual(before);
  });

  test('a file that held something else keeps it, byte for byte', () => {
    const root = installed();
    const text = '{\n  "mcpServers": { "other": { "command": "x" } }\n}\n';
    fs.writeFileSync(path.join(root, '.mcp.json'), text);
    init(root, 'claude-code');
    init(root, 'claude-code', { remove: true });
    expect(fs.readFileSync(path.join(root, '.mcp.json'), 'utf8')).toBe(text);
    expect(fs.existsSync(path.join(root, '.claude'))).toBe(false);
  });

  test('--dry-run --remove says the file would be deleted, and deletes nothing', () => {
    const root = installed();
    init(root, 'gemini-cli');
    const before = listing(root);
    expect(init(root, 'gemini-cli', { remove: true, dryRun: true }).stdout).toContain(
      '.gemini/settings.json: would be deleted (init had created it)',
    );
    expect(listing(root)).toEqual(before);
  });
});

describe('the project-relative commands run as each host runs them', () => {
  /** A repository whose node_modules/ctxfiles is this checkout (built), with nested instructions. */
  function project(): string {
    const root = tempTree({
      'AGENTS.md': 'root',
      'svc/AGENTS.md': 'svc rules',
      'svc/a.ts': '',
      '.cursor/rules/svc.mdc': '---\nglobs: svc/**\n---\nsvc cursor rule\n',
    });
    fs.mkdirSync(path.join(root, 'node_modules'));
    fs.symlinkSync(path.resolve(BIN, '../../..'), path.join(root, 'node_modules/ctxfiles'));
    spawnSync('git', ['init', '-q', root]);
    return root;
  }

  const event = (root: string, name: string, tool: string, key: string) =>
    JSON.stringify({
      session_id: 's',
      cwd: root,
      hook_event_name: name,
      tool_name: tool,
      tool_input: { [key]: `${root}/svc/a.ts` },
    });

  posixOnly.each([
    // [host, its hook event and tool, the settings file, how the host runs the command, a text the
    // hook delivers there]. Claude Code reads svc/AGENTS.md itself on Read (no CLAUDE.md there), so
    // its hook delivers only the Cursor rule it does not show.
    ['claude-code', 'PostToolUse', 'Read', 'file_path', '.claude/settings.json', 'env', 'svc cursor rule'],
    // Gemini CLI replaces $GEMINI_PROJECT_DIR with the quoted project dir itself.
    ['gemini-cli', 'AfterTool', 'read_file', 'file_path', '.gemini/settings.json', 'replace', 'svc rules'],
    ['qwen-code', 'PostToolUse', 'read_file', 'file_path', '.qwen/settings.json', 'env', 'svc rules'],
  ] as const)('%s, from a sub-folder', (host, name, tool, key, file, how, expected) => {
    const root = project();
    expect(init(root, host).stdout).toContain('Written with a command relative to the project');
    const settings = JSON.parse(fs.readFileSync(path.join(root, file), 'utf8')) as {
      hooks: Record<string, Array<{ hooks: Array<{ command: string }> }>>;
    };
    let command = settings.hooks[name]?.[0]?.hooks[0]?.command as string;
    if (how === 'replace') command = command.replace('$GEMINI_PROJECT_DIR', `'${root}'`);
    const result = spawnSync('sh', ['-c', command], {
      cwd: path.join(root, 'svc'),
      input: event(root, name, tool, key),
      encoding: 'utf8',
      env: {
        PATH: process.env['PATH'] ?? '',
        HOME: root,
        CLAUDE_PROJECT_DIR: root,
        QWEN_PROJECT_DIR: root,
        CTXFILES_STATE_DIR: path.join(tempTree(), 's'),
      },
      timeout: 20_000,
    });
    expect(result.stderr).toBe('');
    expect(result.stdout).toContain(expected);
    // Exactly once: what Claude Code shows itself is not sent again.
    if (host === 'claude-code') expect(result.stdout).not.toContain('svc rules');
  });

  posixOnly('codex: the hook finds the repository root by git from a sub-folder', () => {
    const root = project();
    init(root, 'codex');
    const toml = fs.readFileSync(path.join(root, '.codex/config.toml'), 'utf8');
    const command = JSON.parse(
      /\[\[hooks\.PostToolUse\.hooks\]\][^]*?command = (".*")/.exec(toml)?.[1] ?? '""',
    ) as string;
    const result = spawnSync('sh', ['-c', command], {
      cwd: path.join(root, 'svc'),
      input: JSON.stringify({
        session_id: 's',
        cwd: root,
        hook_event_name: 'PostToolUse',
        tool_name: 'Bash',
        tool_input: { command: 'cat svc/a.ts' },
      }),
      encoding: 'utf8',
      env: { PATH: process.env['PATH'] ?? '', HOME: root, CTXFILES_STATE_DIR: path.join(tempTree(), 's') },
      timeout: 20_000,
    });
    expect(result.stderr).toBe('');
    expect(result.stdout).toContain('svc rules');
  });

  posixOnly('opencode: the MCP command starts the server from a sub-folder', () => {
    const root = project();
    init(root, 'opencode');
    const config = JSON.parse(fs.readFileSync(path.join(root, 'opencode.json'), 'utf8')) as {
      mcp: { ctxfiles: { command: string[] } };
    };
    const [program, ...args] = config.mcp.ctxfiles.command;
    const request = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
    };
    const result = spawnSync(program as string, args, {
      cwd: path.join(root, 'svc'),
      input: `${JSON.stringify(request)}\n`,
      encoding: 'utf8',
      env: { PATH: process.env['PATH'] ?? '', HOME: root },
      timeout: 20_000,
    });
    expect(result.stdout).toContain('"serverInfo"');
  });
});
