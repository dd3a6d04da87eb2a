import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, test } from 'vitest';
import { MAX_HOOK_INPUT_BYTES } from '../src/cli/hook-command.js';
import { MAX_SESSION_LINE_BYTES } from '../src/cli/session.js';
import { readLines } from '../src/fs/bounded-input.js';
import {
  LOCK_STALE_MS,
  LOCK_TIMEOUT_MS,
  stateFile,
  sweepStateDirectory,
  withStateLock,
} from '../src/hooks/state-store.js';
import { cli } from './helpers/cli.js';
import { tempTree } from './helpers/disk.js';

const posixOnly = test.skipIf(process.platform === 'win32');

/** `count` bytes of `byte` in chunks of 1 MiB, as a pipe delivers them. */
function* filler(count: number, byte = 'x'): Generator<Buffer> {
  const chunk = Buffer.alloc(1 << 20, byte);
  for (let left = count; left > 0; left -= chunk.length)
    yield left >= chunk.length ? chunk : chunk.subarray(0, left);
}

/** The pid of a process that has exited: a child run to its end. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
  return Number(child.stdout.toString());
}

describe('a session lock dated in the future (the clock was stepped back)', () => {
  test('with its owner gone, the next hook takes it over at once instead of waiting', async () => {
    const dir = tempTree();
    const state = stateFile(dir, 's.json');
    const lock = `${state.file}.lock`;
    fs.writeFileSync(lock, `${deadPid()} abc`);
    const future = new Date(Date.now() + 3_600_000);
    fs.utimesSync(lock, future, future);
    const started = Date.now();
    const result = await withStateLock(state, () => 'ran');
    expect(result).toBe('ran');
    expect(Date.now() - started).toBeLessThan(LOCK_TIMEOUT_MS / 4);
    expect(fs.existsSync(lock)).toBe(false);
  });

  test('with its owner alive and the date near, it is still respected', async () => {
    const dir = tempTree();
    const state = stateFile(dir, 's.json');
    const lock = `${state.file}.lock`;
    fs.writeFileSync(lock, `${process.pid} abc`);
    const future = new Date(Date.now() + LOCK_STALE_MS * 2);
    fs.utimesSync(lock, future, future);
    await expect(withStateLock(state, () => 'ran')).rejects.toThrow(/held .* for too long/);
    expect(fs.readFileSync(lock, 'utf8')).toBe(`${process.pid} abc`);
  }, 20_000);

  test('the sweep removes it, and keeps a session state dated a little ahead', () => {
    const dir = tempTree({ 'a.json.lock': '1 x', 'a.json': '{}' });
    const future = new Date(Date.now() + 3_600_000);
    for (const name of ['a.json.lock', 'a.json']) fs.utimesSync(path.join(dir, name), future, future);
    sweepStateDirectory(dir, Date.now());
    expect(fs.readdirSync(dir)).toEqual(['a.json']);
  });
});

describe('ctxfiles session: a line over the cap', () => {
  test('is answered with an error, and the valid line after it still is', async () => {
    const root = tempTree({ 'AGENTS.md': 'root', 'svc/AGENTS.md': 'svc rules' });
    const input = Readable.from(
      (function* () {
        yield Buffer.from('{"op":"nope"}\n');
        yield* filler(MAX_SESSION_LINE_BYTES + 5);
        yield Buffer.from('\n{"tool":"read","input":{"file_path":"svc/x.ts"},"ok":true}\n');
      })(),
    );
    const result = await cli(['session'], { cwd: root, stdin: input });
    expect(result.code).toBe(0);
    const answers = result.stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, string>);
    expect(answers).toHaveLength(3);
    expect(answers[1]).toEqual({
      error: `the line is ${MAX_SESSION_LINE_BYTES + 5} bytes, over the ${MAX_SESSION_LINE_BYTES} read; it is skipped`,
    });
    expect(answers[2]?.['inject']).toContain('svc rules');
  });

  test.each([
    ['a\nb\r\n\nc', ['a', 'b', '', 'c']],
    ['a\n', ['a']],
    ['', []],
    ['ab\ncdefgh\nij\n', ['ab', { overBytes: 6 }, 'ij']],
  ])('the line reader splits %j (cap 5 bytes)', async (text, expected) => {
    // Every split of the input into two chunks gives the same lines.
    for (let cut = 0; cut <= text.length; cut += 1) {
      const lines = [];
      for await (const line of readLines([text.slice(0, cut), text.slice(cut)], 5))
        lines.push('text' in line ? line.text : line);
      expect(lines).toEqual(expected);
    }
  });
});

describe('ctxfiles session --state on something that is not a regular file', () => {
  posixOnly('a FIFO is refused without blocking', async () => {
    const dir = tempTree({ 'AGENTS.md': 'root' });
    const fifo = path.join(dir, 'state.fifo');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    const result = await cli(['session', '--state', fifo], { cwd: dir, stdin: Readable.from([]) });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain('state.fifo: cannot read the session state (it is not a regular file)');
  });

  posixOnly('/dev/zero is refused without being read', async () => {
    const dir = tempTree({ 'AGENTS.md': 'root' });
    const result = await cli(['session', '--state', '/dev/zero'], { cwd: dir, stdin: Readable.from([]) });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain('/dev/zero: cannot read the session state (it is not a regular file)');
  });
});

describe('a hook input over the cap', () => {
  test('is read to its end and dropped with a warning that says so', async () => {
    const root = tempTree({ 'AGENTS.md': 'root', 'svc/AGENTS.md': 'svc rules' });
    const head = JSON.stringify({
      session_id: 's',
      cwd: root,
      hook_event_name: 'PostToolUse',
      tool_name: 'Read',
      tool_input: { file_path: `${root}/svc/x.ts` },
    }).slice(0, -1);
    const padding = MAX_HOOK_INPUT_BYTES;
    const stdin = Readable.from(
      (function* () {
        yield Buffer.from(`${head},"tool_response":"`);
        yield* filler(padding);
        yield Buffer.from('"}');
      })(),
    );
    const stateDir = path.join(tempTree(), 'sessions');
    const result = await cli(['hook', 'claude-code'], {
      cwd: root,
      env: { CTXFILES_STATE_DIR: stateDir },
      stdin,
    });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(
      new RegExp(
        `^ctxfiles: warning: the hook input is \\d+ bytes, over the ${MAX_HOOK_INPUT_BYTES} read; nothing added\n$`,
      ),
    );
  });
});
