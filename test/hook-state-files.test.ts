import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, test } from 'vitest';
import { sessionFileName } from '../src/hooks/state-store.js';
import { cli, spawnBin } from './helpers/cli.js';
import { tempTree } from './helpers/disk.js';

// Every file a hook writes beside a session's state (docs/security.md, "Threats found in the fourth
// round", rows 10 and 11): written through a new temp file and a rename, never through a link
// planted at its name; a lock that is not a regular file never makes the hook spin.

const posixOnly = test.skipIf(process.platform === 'win32');

function setup() {
  // Claude Code reads svc/AGENTS.md itself; the Cursor rule is what its hook delivers on a Read there.
  const root = tempTree({
    'AGENTS.md': 'root',
    'svc/AGENTS.md': 'svc rules',
    'svc/x.ts': '',
    '.cursor/rules/svc.mdc': '---\nglobs: svc/**\n---\nsvc cursor rule\n',
  });
  const stateDir = path.join(tempTree(), 'sessions');
  fs.mkdirSync(stateDir, { recursive: true });
  const victim = path.join(tempTree({ 'victim.txt': 'keep me' }), 'victim.txt');
  const hook = (agent: string, event: Record<string, unknown>) =>
    cli(['hook', agent], {
      cwd: root,
      env: { CTXFILES_STATE_DIR: stateDir },
      stdin: Readable.from([JSON.stringify({ session_id: 's1', cwd: root, ...event })]),
    });
  const stateOf = (agent: string) => path.join(stateDir, sessionFileName(agent, 's1', root));
  return { root, stateDir, victim, hook, stateOf };
}

describe("a hook's .due and .seen files are never written through a link", () => {
  posixOnly('PreCompact replaces a link planted at .json.due; its target keeps its text', async () => {
    const { victim, hook, stateOf } = setup();
    expect((await hook('claude-code', { hook_event_name: 'SessionStart', source: 'startup' })).code).toBe(0);
    const due = `${stateOf('claude-code')}.due`;
    fs.symlinkSync(victim, due);
    const result = await hook('claude-code', { hook_event_name: 'PreCompact', trigger: 'auto' });
    expect(result.code).toBe(0);
    expect(fs.readFileSync(victim, 'utf8')).toBe('keep me');
    expect(fs.lstatSync(due).isFile()).toBe(true);
    // The re-armed start is still delivered on the next tool call.
    const next = await hook('claude-code', {
      hook_event_name: 'PostToolUse',
      tool_name: 'Read',
      tool_input: { file_path: 'svc/x.ts' },
    });
    expect(next.stdout).toContain('svc cursor rule');
  });

  posixOnly("Gemini CLI's BeforeModel replaces a link planted at .json.seen", async () => {
    const { victim, hook, stateOf } = setup();
    await hook('gemini-cli', { hook_event_name: 'SessionStart', source: 'startup' });
    const seen = `${stateOf('gemini-cli')}.seen`;
    fs.symlinkSync(victim, seen);
    const result = await hook('gemini-cli', {
      hook_event_name: 'BeforeModel',
      llm_request: {
        model: 'gemini-2.5-flash',
        messages: [
          { role: 'user', content: '<state_snapshot>one</state_snapshot>' },
          { role: 'model', content: 'Got it. Thanks for the additional context!' },
        ],
      },
    });
    expect(result.code).toBe(0);
    expect(fs.readFileSync(victim, 'utf8')).toBe('keep me');
    expect(fs.lstatSync(seen).isFile()).toBe(true);
    expect(fs.statSync(seen).mode & 0o777).toBe(0o600);
  });
});

describe('a stale lock that is not a regular file', () => {
  // Spawned: on the old code the hook spun at full CPU and never returned (killed after 20 s).
  posixOnly.each([
    ['a symlink', (lock: string) => fs.symlinkSync('/nonexistent/ctxfiles-lock-target', lock), true],
    ['a directory', (lock: string) => fs.mkdirSync(lock), false],
  ])('%s: the hook returns at once, exit 0, with a warning for a directory', (_, plant, answers) => {
    const { root, stateDir, stateOf } = setup();
    const lock = `${stateOf('claude-code')}.lock`;
    plant(lock);
    const old = new Date(Date.now() - 120_000);
    fs.lutimesSync(lock, old, old);
    const started = Date.now();
    const result = spawnBin(['hook', 'claude-code'], {
      cwd: root,
      env: { CTXFILES_STATE_DIR: stateDir },
      input: JSON.stringify({
        session_id: 's1',
        cwd: root,
        hook_event_name: 'PostToolUse',
        tool_name: 'Read',
        tool_input: { file_path: 'svc/x.ts' },
      }),
    });
    expect(result.code).toBe(0);
    expect(Date.now() - started).toBeLessThan(10_000);
    if (answers) {
      // A link is no hook's lock: removed (never its target), and the call goes on.
      expect(result.stdout).toContain('svc cursor rule');
      expect(fs.existsSync(lock)).toBe(false);
    } else expect(result.stderr).toContain('is not a regular file; it is not used');
  });
});
