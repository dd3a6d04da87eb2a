import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import { describe, expect, test } from 'vitest';
import { DEFAULT_CONFIG } from '../src/config/defaults.js';
import { BIN, cli, spawnBin } from './helpers/cli.js';
import { tempTree } from './helpers/disk.js';

const tree = {
  'AGENTS.md': 'root',
  'svc/AGENTS.md': '# Service\nsvc rules',
  'svc/auth/AGENTS.md': 'auth rules',
};

describe('ctxfiles manifest', () => {
  test('prints the manifest exactly', async () => {
    const root = tempTree(tree);
    const result = await cli(['manifest'], { cwd: root });
    expect(result.code).toBe(0);
    expect(result.stdout.split('\n').slice(2)).toEqual(['- svc/AGENTS.md: Service', '- svc/auth/AGENTS.md']);
    expect(result.stdout.endsWith('\n')).toBe(false);
  });

  test('the built bin on the example', () => {
    const result = spawnBin(['manifest', '--cwd', 'examples/monorepo'], { cwd: path.resolve('.') });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      '- packages/web/AGENTS.md: Web client rules (React, accessibility, no inline styles)',
    );
    // The reviewer turns nested disclosure off; the work dir's rules on request stay listed (rules
    // are on by default).
    expect(
      spawnBin(['manifest', '--cwd', 'examples/monorepo', '--agent', 'reviewer'], { cwd: path.resolve('.') })
        .stdout,
    ).toBe(
      '# Rules on Request\n' +
        `${DEFAULT_CONFIG.wording.ruleCatalogIntro}\n` +
        '- testing (.cursor/rules/testing.mdc): Testing conventions',
    );
  });
});

describe('ctxfiles session (JSON Lines)', () => {
  test('a line without "ok" or with an unknown tool is answered with an info diagnostic, once per tool name', async () => {
    const root = tempTree(tree);
    const input = [
      '{"tool":"read","input":{"file_path":"svc/x.ts"}}',
      '{"tool":"read","input":{"file_path":"svc/x.ts"}}',
      '{"tool":"open_file","input":{"path":"svc/x.ts"},"ok":true}',
    ].join('\n');
    const result = await cli(['session'], { cwd: root, stdin: Readable.from([`${input}\n`]) });
    const lines = result.stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as { inject: string; diagnostics?: { level: string; code: string }[] });
    expect(lines.map((line) => [line.inject, line.diagnostics?.map((d) => `${d.level} ${d.code}`)])).toEqual([
      ['', ['info tool-ok-missing']],
      ['', undefined],
      ['', ['info unknown-tool']],
    ]);
  });

  test('each line gets its own diagnostics, also after the session has kept its most recent 1,000', async () => {
    const root = tempTree(tree);
    const patch = '{"tool":"apply_patch","input":{"input":"no headers"},"ok":true}';
    const input = `${Array.from({ length: 1_002 }, () => patch).join('\n')}\n`;
    const result = await cli(['session'], { cwd: root, stdin: Readable.from([input]) });
    const lines = result.stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as { diagnostics?: { code: string }[] });
    expect(lines).toHaveLength(1_002);
    expect(lines.map((line) => line.diagnostics?.map((d) => d.code))).toEqual(
      Array.from({ length: 1_002 }, () => ['malformed-patch']),
    );
  });

  test('one output line per input line, in order; malformed lines get an error and the session goes on', async () => {
    const root = tempTree(tree);
    const input = [
      '{"tool":"read","input":{"file_path":"svc/auth/x.ts"},"ok":true}',
      'not json',
      '[1]',
      '{"tool":"read","input":{"file_path":"svc/x.ts"},"ok":true}',
      '{"tool": 3}',
      '{"tool":"read","input":"x","ok":true}',
      '{"op":"state"}',
    ].join('\n');
    const result = await cli(['session'], { cwd: root, stdin: Readable.from([`${input}\n`]) });
    expect(result.code).toBe(0);
    const lines = result.stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines).toHaveLength(7);
    expect(lines[0]).toEqual({
      inject: `<system-reminder>\n# From:${root}/svc/AGENTS.md\n# Service\nsvc rules\n</system-reminder>\n<system-reminder>\n# From:${root}/svc/auth/AGENTS.md\nauth rules\n</system-reminder>`,
    });
    expect(lines[1]).toMatchObject({ error: expect.stringMatching(/^not valid JSON( at position \d+)?$/) });
    expect(lines[2]).toEqual({ error: 'expected a JSON object' });
    expect(lines[3]).toEqual({ inject: '' });
    expect(lines[4]).toEqual({ error: 'expected "tool" (a string) or "op": "state"' });
    expect(lines[5]).toEqual({ error: '"input" must be an object' });
    expect(lines[6]).toMatchObject({
      state: { version: 1, injected: [{ path: 'svc/AGENTS.md' }, { path: 'svc/auth/AGENTS.md' }] },
    });
  });

  test('diagnostics ride along with the line that caused them', async () => {
    const root = tempTree({
      ...tree,
      '.opencode.json': '{"contextPaths": ["AGENTS.md"], "contextDiscovery": {"maxFileBytes": 5}}',
    });
    const result = await cli(['session'], {
      cwd: root,
      stdin: Readable.from(['{"tool":"ls","input":{"path":"svc"},"ok":true}\n']),
    });
    expect(JSON.parse(result.stdout)).toEqual({
      inject: '',
      diagnostics: [
        {
          level: 'warn',
          code: 'too-large',
          message: 'svc/AGENTS.md is larger than maxFileBytes (5) and is never injected',
          path: `${root}/svc/AGENTS.md`,
        },
      ],
    });
  });

  test('--state resumes a saved session', async () => {
    const root = tempTree(tree);
    fs.writeFileSync(
      path.join(root, 'state.json'),
      JSON.stringify({
        version: 1,
        injected: [{ path: 'svc/AGENTS.md', sha256: 'a'.repeat(64), bytes: 1 }],
        skipped: [],
        bytes: 10,
        exhausted: false,
      }),
    );
    const result = await cli(['session', '--state', 'state.json'], {
      cwd: root,
      stdin: Readable.from(['{"tool":"read","input":{"file_path":"svc/auth/x"},"ok":true}\n']),
    });
    expect((JSON.parse(result.stdout) as { inject: string }).inject).not.toContain(
      '# From:' + root + '/svc/AGENTS.md',
    );
    const bad = await cli(['session', '--state', 'missing.json'], { cwd: root, stdin: Readable.from([]) });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/^ctxfiles: error: .*missing\.json: cannot read the session state/);
    // A file that is not JSON: the error says where, never what it holds.
    fs.writeFileSync(path.join(root, 'vm.json'), 'vm SECRET-BYTES');
    const garbled = await cli(['session', '--state', 'vm.json'], { cwd: root, stdin: Readable.from([]) });
    expect(garbled.code).toBe(1);
    expect(garbled.stderr).toMatch(
      /vm\.json: cannot read the session state \(it is not valid JSON( at position \d+)?\)/,
    );
    expect(garbled.stderr).not.toContain('SECRET');
    expect(garbled.stderr).not.toContain('"vm');
  });

  test('the built bin answers each line before the next one is sent (flushed)', async () => {
    const root = tempTree(tree);
    const child = spawn(process.execPath, [BIN, 'session'], { cwd: root, stdio: ['pipe', 'pipe', 'pipe'] });
    const replies = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
    const ask = async (line: string) => {
      child.stdin.write(`${line}\n`);
      const reply = await replies.next();
      return JSON.parse(reply.value as string) as Record<string, unknown>;
    };
    try {
      expect(await ask('{"tool":"read","input":{"file_path":"svc/x"},"ok":true}')).toMatchObject({
        inject: expect.stringContaining('svc rules'),
      });
      expect(await ask('{"tool":"read","input":{"file_path":"svc/x"},"ok":true}')).toEqual({ inject: '' });
      expect(await ask('oops')).toMatchObject({ error: expect.any(String) });
      expect(await ask('{"tool":"grep","input":{"path":"svc/auth"},"ok":true}')).toMatchObject({
        inject: expect.stringContaining('auth rules'),
      });
    } finally {
      child.stdin.end();
    }
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(code).toBe(0);
  }, 20_000);
});
