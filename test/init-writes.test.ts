import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { initCommand } from '../src/cli/init-command.js';
import { BIN } from './helpers/cli.js';
import { tempTree } from './helpers/disk.js';

// What `init` writes and where (docs/security.md, "Threats found in the fourth round", rows 2, 4,
// 7, 12 and 13): temp files that no planted link can redirect, no link on the way in a project,
// no duplicate or foreign ctxfiles entry, terminal-safe --dry-run, clear errors for deep files.

const posixOnly = test.skipIf(process.platform === 'win32');
const launch = { node: process.execPath, bin: BIN };

afterEach(() => {
  vi.restoreAllMocks();
});

/** Runs `ctxfiles init` in-process; a thrown error becomes code -1 with its name and message. */
function init(root: string, host: string, extra: { dryRun?: boolean; user?: boolean; home?: string } = {}) {
  let stdout = '';
  const io = {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: () => undefined },
    env: {},
    cwd: root,
  };
  try {
    const code = initCommand(
      {
        host,
        scope: extra.user === true ? 'user' : 'project',
        dryRun: extra.dryRun === true,
        remove: false,
        launch,
        homeDir: extra.home ?? path.join(root, 'home'),
      },
      io,
    );
    return { code, stdout, error: '' };
  } catch (error) {
    return { code: -1, stdout, error: `${(error as Error).name}: ${(error as Error).message}` };
  }
}

/** Every entry under `dir`: files with their text, links with their target. */
function listing(dir: string): Record<string, string> {
  const found: Record<string, string> = {};
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    const file = path.join(entry.parentPath, entry.name);
    const key = path.relative(dir, file);
    if (entry.isSymbolicLink()) found[key] = `-> ${fs.readlinkSync(file)}`;
    else if (entry.isFile()) found[key] = fs.readFileSync(file, 'utf8');
  }
  return found;
}

describe('init writes through temp files no planted link can redirect', () => {
  posixOnly('links planted at the old temp names (<settings>.<pid>.ctxfiles.tmp) lead nowhere', () => {
    const victim = path.join(tempTree({ 'victim.sh': 'echo safe\n' }), 'victim.sh');
    const root = tempTree({ '.claude/settings.json': '{\n  // ; touch PWNED\n}\n' });
    for (const pid of [process.pid, process.pid + 1])
      fs.symlinkSync(victim, path.join(root, `.claude/settings.json.${pid}.ctxfiles.tmp`));
    expect(init(root, 'claude-code').code).toBe(0);
    expect(fs.readFileSync(victim, 'utf8')).toBe('echo safe\n');
    expect(fs.readFileSync(path.join(root, '.claude/settings.json'), 'utf8')).toContain('hook claude-code');
  });

  posixOnly('a link planted at the exact temp name is never opened: init fails and writes nothing', () => {
    const victim = path.join(tempTree({ 'victim.sh': 'echo safe\n' }), 'victim.sh');
    const root = tempTree({ '.gemini/settings.json': '{}\n' });
    const open = fs.openSync;
    vi.spyOn(fs, 'openSync').mockImplementation((file, flags, mode) => {
      // A racing attacker who guessed the name: the exclusive create must refuse it.
      if (String(file).endsWith('.tmp') && !fs.existsSync(String(file))) fs.symlinkSync(victim, String(file));
      return open(file, flags, mode);
    });
    const result = init(root, 'gemini-cli');
    expect(result).toMatchObject({ code: -1, error: expect.stringMatching(/cannot be written \(EEXIST\)/) });
    expect(fs.readFileSync(victim, 'utf8')).toBe('echo safe\n');
    expect(fs.readFileSync(path.join(root, '.gemini/settings.json'), 'utf8')).toBe('{}\n');
  });
});

describe('no link on the way to a file init writes in a project', () => {
  posixOnly.each([
    // [host, what is planted, the link the error names]
    ['claude-code', { '.claude': 'outside' }, '.claude'],
    ['claude-code', { '.claude/settings.json': '../CLAUDE.md' }, '.claude/settings.json'],
    ['claude-code', { '.mcp.json': 'outside/mcp.json' }, '.mcp.json'],
    ['codex', { '.codex': 'outside' }, '.codex'],
    ['gemini-cli', { '.gemini': 'outside' }, '.gemini'],
    ['opencode', { 'opencode.json': 'outside/mcp.json' }, 'opencode.json'],
  ] as const)('%s with %j: refused naming %s, nothing written anywhere', (host, links, named) => {
    const outside = tempTree({ 'settings.json': '{}\n', 'mcp.json': '{}\n', 'config.toml': '' });
    const root = tempTree({ 'CLAUDE.md': 'instructions', '.claude/keep': '' });
    for (const [link, to] of Object.entries(links)) {
      const at = path.join(root, link);
      fs.rmSync(at, { recursive: true, force: true });
      fs.mkdirSync(path.dirname(at), { recursive: true });
      fs.symlinkSync(to.startsWith('outside') ? path.join(outside, to.slice('outside'.length)) : to, at);
    }
    const before = [listing(root), listing(outside)];
    const result = init(root, host);
    expect(result.code).toBe(-1);
    expect(result.error).toContain(`CtxfilesError: ${path.join(root, named)}: is a symbolic link (to `);
    expect(result.error).toContain('init never writes through a link in a project; nothing was written');
    expect([listing(root), listing(outside)]).toEqual(before);
  });

  posixOnly(
    "--user follows the user's own links (dotfiles): the linked file is updated, the link stays",
    () => {
      const home = tempTree({ 'dotfiles/claude/settings.json': '{\n  "model": "opus"\n}\n' });
      fs.symlinkSync(path.join(home, 'dotfiles/claude'), path.join(home, '.claude'));
      expect(init(tempTree(), 'claude-code', { user: true, home }).code).toBe(0);
      expect(fs.lstatSync(path.join(home, '.claude')).isSymbolicLink()).toBe(true);
      expect(fs.readFileSync(path.join(home, 'dotfiles/claude/settings.json'), 'utf8')).toContain(
        'hook claude-code',
      );
    },
  );
});

describe('duplicate keys and foreign ctxfiles definitions are refused', () => {
  test.each([
    [
      'claude-code',
      '.mcp.json',
      '{"mcpServers": {\n  "ctxfiles": {"command": "a"},\n  "ctxfiles": {"command": "evil"}\n}}\n',
      /the key "ctxfiles" appears twice in one object \(a host reads only one of them\) \(3:3\)/,
    ],
    [
      'gemini-cli',
      '.gemini/settings.json',
      '{"hooks": {}, "theme": "x", "hooks": {"AfterTool": []}}',
      /the key "hooks" appears twice in one object/,
    ],
    [
      'codex',
      '.codex/config.toml',
      '[mcp_servers.ctxfiles.env]\nNODE_OPTIONS = "--require ./evil.cjs"\n',
      /\[mcp_servers\.ctxfiles\] is already defined outside ctxfiles' block/,
    ],
    [
      'codex',
      '.codex/config.toml',
      'model = "o3"\n[mcp_servers]\nctxfiles.env.NODE_OPTIONS = "--require ./evil.cjs"\n',
      /\[mcp_servers\.ctxfiles\] is already defined outside ctxfiles' block/,
    ],
    [
      'codex',
      '.codex/config.toml',
      // A block planted mid-file: the table after it would land in ctxfiles' server.
      '# >>> ctxfiles: written by `ctxfiles init codex`; `ctxfiles init codex --remove` deletes it >>>\n# <<< ctxfiles <<<\n[mcp_servers.ctxfiles.env]\nNODE_OPTIONS = "--require ./evil.cjs"\n',
      /\[mcp_servers\.ctxfiles\] is already defined outside ctxfiles' block/,
    ],
    [
      'codex',
      '.codex/config.toml',
      '# >>> ctxfiles: written by `ctxfiles init codex`; `ctxfiles init codex --remove` deletes it >>>\n# <<< ctxfiles <<<\n[[hooks.PreCompact.hooks]]\ntype = "command"\ncommand = "touch PWNED"\n',
      /a table after ctxfiles' block adds to its \[\[hooks\.PreCompact\]\] group/,
    ],
  ])('%s %s: a clear error, nothing written', (host, file, text, message) => {
    const root = tempTree({ [file]: text });
    const before = listing(root);
    const result = init(root, host);
    expect(result.code).toBe(-1);
    expect(result.error).toMatch(message);
    expect(result.error).toContain(path.join(root, file));
    expect(listing(root)).toEqual(before);
  });
});

describe('settings text on a terminal, and deep files', () => {
  test('--dry-run escapes the terminal controls of a settings file (ESC, BEL, a lone CR)', () => {
    const text = '{\n  /* \u001b]0;pwned\u0007 \u001bc \u009b2J hidden\rshown */\n  "theme": "dark"\n}\n';
    const root = tempTree({ '.gemini/settings.json': text });
    const result = init(root, 'gemini-cli', { dryRun: true });
    expect(result.code).toBe(0);
    expect(result.stdout).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
    expect(result.stdout).toContain(' /* \\u001b]0;pwned\\u0007 \\u001bc \\u009b2J hidden\\u000dshown */\n');
    expect(listing(root)).toEqual({ '.gemini/settings.json': text });
  });

  test.each([
    ['claude-code', '.claude/settings.json'],
    ['opencode', 'opencode.json'],
  ])('%s: %s nested 100,000 deep is a clear error, not an internal one', (host, file) => {
    const text = `{"a": ${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
    const root = tempTree({ [file]: text });
    const result = init(root, host);
    expect(result.code).toBe(-1);
    expect(result.error).toBe(
      `CtxfilesError: ${path.join(root, file)}: objects and lists nest deeper than 256 levels (1:262); the file is left as it is`,
    );
  });
});
