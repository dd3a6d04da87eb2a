// What Claude Code's subagents and plan mode get from `ctxfiles hook claude-code` in this project
// (docs/subagents.md): the events Claude Code sends, one by one, to the built bin, with a fresh
// state dir. Run with `npm run demo:subagents` from the repository root.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const bin = path.resolve(here, '../../dist/bin/ctxfiles.cjs');
const state = fs.mkdtempSync(path.join(os.tmpdir(), 'ctxfiles-demo-'));

/** Sends one event of session `demo` (the main agent's id, which Claude Code puts on a subagent's events too). */
function send(title, event) {
  const input = JSON.stringify({ session_id: 'demo', cwd: here, ...event });
  const run = spawnSync(process.execPath, [bin, 'hook', 'claude-code', '--cwd', here], {
    input,
    encoding: 'utf8',
    env: { ...process.env, CTXFILES_STATE_DIR: state },
  });
  const text = run.stdout.trim() === '' ? '(nothing)' : JSON.parse(run.stdout).hookSpecificOutput.additionalContext;
  console.log(`\n=== ${title}\n${text.replaceAll(here, '.')}${run.stderr ? `\n(stderr: ${run.stderr.trim()})` : ''}`);
}

const read = (file, extra = {}) => ({
  hook_event_name: 'PostToolUse',
  tool_name: 'Read',
  tool_input: { file_path: path.join(here, file) },
  tool_response: {},
  permission_mode: 'default',
  ...extra,
});

send('the session starts: the global layer (RULES.md), then the manifest', {
  hook_event_name: 'SessionStart',
  source: 'startup',
});
send('the main agent reads src/index.ts: src/RULES.md, once', read('src/index.ts'));
send('the custom reviewer subagent starts: its own rules appended to the project rules', {
  hook_event_name: 'SubagentStart',
  agent_id: 'r1',
  agent_type: 'reviewer',
});
send(
  'the reviewer reads src/index.ts: src/RULES.md again, in its own context',
  read('src/index.ts', { agent_id: 'r1', agent_type: 'reviewer' }),
);
send('the built-in Explore subagent starts: mapped to the explorer, a trimmed set (replace)', {
  hook_event_name: 'SubagentStart',
  agent_id: 'e1',
  agent_type: 'Explore',
});
send('the user switches to plan mode: the plan step', {
  hook_event_name: 'UserPromptSubmit',
  prompt: 'Plan the change.',
  permission_mode: 'plan',
});
send('back to the default mode: nothing more', {
  hook_event_name: 'UserPromptSubmit',
  prompt: 'Do it.',
  permission_mode: 'default',
});
fs.rmSync(state, { recursive: true, force: true });
