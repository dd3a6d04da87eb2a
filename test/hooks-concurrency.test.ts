import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';
import { sessionFileName } from '../src/hooks/state-store.js';
import { BIN } from './helpers/cli.js';
import { tempTree } from './helpers/disk.js';

const COUNT = 20;

/** Runs the built bin as an agent would: one event on stdin, stdout and stderr captured. */
function hookProcess(args: readonly string[], input: string, env: Record<string, string>, cwd: string) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, 'hook', ...args], { cwd, env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(input);
  });
}

test(`${COUNT} hook processes of one session at once: every nested file injected exactly once`, async () => {
  // Every process touches its own directory, and all of them share the parent's file.
  // The root CLAUDE.md: Claude Code loads no AGENTS.md itself then, so its hook delivers them all.
  const files: Record<string, string> = {
    'AGENTS.md': 'root',
    'CLAUDE.md': 'claude root',
    'pkgs/AGENTS.md': 'marker-parent',
  };
  for (let index = 0; index < COUNT; index += 1) {
    files[`pkgs/d${index}/AGENTS.md`] = `marker-${index}-end`;
    files[`pkgs/d${index}/src/x.ts`] = '';
  }
  const root = tempTree(files);
  const stateDir = path.join(tempTree(), 'sessions');
  const env = { PATH: process.env['PATH'] ?? '', HOME: root, CTXFILES_STATE_DIR: stateDir };
  const event = (index: number) =>
    JSON.stringify({
      session_id: 'parallel',
      transcript_path: '/dev/null',
      cwd: root,
      hook_event_name: 'PostToolUse',
      tool_name: 'Edit',
      tool_input: { file_path: `${root}/pkgs/d${index}/src/x.ts`, old_string: 'a', new_string: 'b' },
    });
  const results = await Promise.all(
    Array.from({ length: COUNT }, (_, index) => hookProcess(['claude-code'], event(index), env, root)),
  );
  const context = results.map((result) => {
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    return result.stdout === ''
      ? ''
      : (JSON.parse(result.stdout) as { hookSpecificOutput: { additionalContext: string } })
          .hookSpecificOutput.additionalContext;
  });
  const all = context.join('\n');
  const count = (marker: string) => all.split(marker).length - 1;
  expect(count('marker-parent')).toBe(1);
  for (let index = 0; index < COUNT; index += 1) {
    expect(count(`marker-${index}-end`)).toBe(1);
    // Each process injected its own directory's file.
    expect(context[index]).toContain(`marker-${index}-end`);
  }
  const state = JSON.parse(
    fs.readFileSync(path.join(stateDir, sessionFileName('claude-code', 'parallel', root)), 'utf8'),
  ) as { disclosure: { injected: Array<{ path: string }> } };
  expect(state.disclosure.injected.map((record) => record.path).sort()).toEqual(
    ['pkgs/AGENTS.md', ...Array.from({ length: COUNT }, (_, index) => `pkgs/d${index}/AGENTS.md`)].sort(),
  );
  // No lock or temp file is left behind.
  expect(fs.readdirSync(stateDir)).toEqual([sessionFileName('claude-code', 'parallel', root)]);
}, 60_000);
