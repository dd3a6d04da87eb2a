import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterEach, describe, expect, test } from 'vitest';
import { BIN, spawnBin } from './helpers/cli.js';
import { tempTree } from './helpers/disk.js';

// The real server: the built bin spawned by the SDK's own client over stdio.

const tree = {
  'AGENTS.md': 'root rules',
  'svc/AGENTS.md': '# Service\nsvc rules',
  'svc/auth/AGENTS.md': 'auth rules',
};

const clients: Client[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
});

async function start(root: string, ...extra: string[]) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'mcp', '--cwd', root, ...extra],
    env: { PATH: process.env['PATH'] ?? '', HOME: root },
    stderr: 'pipe',
  });
  const client = new Client({ name: 'ctxfiles-test', version: '1.0.0' });
  await client.connect(transport);
  clients.push(client);
  return client;
}

const textOf = (result: Awaited<ReturnType<Client['callTool']>>) =>
  (result.content as Array<{ type: string; text: string }>).map((part) => part.text).join('\n');

describe('ctxfiles mcp (spawned, SDK client over stdio)', () => {
  // The preset's files (GEMINI.md) and its session frame for nested files; the project-wide files
  // of the first call come in the reminder frame the MCP tool describes.
  test('--preset reaches the server: the files and frames of the preset', async () => {
    const root = tempTree({
      ...tree,
      '.git/HEAD': 'x',
      'GEMINI.md': 'root gemini',
      'svc/GEMINI.md': 'svc gemini',
    });
    const client = await start(root, '--preset', 'gemini-cli');
    const result = await client.callTool({ name: 'instructions_for_path', arguments: { path: 'svc/a.ts' } });
    expect(result.isError).toBeFalsy();
    const block = (file: string, text: string) =>
      `--- Context from: ${root}/${file} ---\n${text}\n--- End of Context from: ${root}/${file} ---`;
    // One frame style for the whole answer: Gemini CLI's own, never a <system-reminder>.
    expect(textOf(result)).toBe(
      [
        `--- Newly Discovered Project Context ---\n${block('GEMINI.md', 'root gemini')}\n--- End Project Context ---`,
        `--- Newly Discovered Project Context ---\n${block('svc/GEMINI.md', 'svc gemini')}\n--- End Project Context ---`,
      ].join('\n'),
    );
  });

  test('initializes, lists the tools, and answers each one', async () => {
    const root = tempTree(tree);
    const client = await start(root);
    expect(client.getServerVersion()?.name).toBe('ctxfiles');
    expect(client.getInstructions()).toContain('instructions_for_path');
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual([
      'instructions_for_path',
      'list_rules',
      'get_rule',
      'explain_instructions',
    ]);
    expect(tools[0]?.inputSchema).toMatchObject({ type: 'object', required: ['path'] });

    const first = await client.callTool({
      name: 'instructions_for_path',
      arguments: { path: 'svc/auth/a.ts' },
    });
    expect(first.isError).toBeFalsy();
    expect(textOf(first)).toBe(
      [
        `<system-reminder>\n# From:${root}/AGENTS.md\nroot rules\n</system-reminder>`,
        `<system-reminder>\n# From:${root}/svc/AGENTS.md\n# Service\nsvc rules\n</system-reminder>`,
        `<system-reminder>\n# From:${root}/svc/auth/AGENTS.md\nauth rules\n</system-reminder>`,
      ].join('\n'),
    );
    // A nested file comes once, not twice.
    const second = await client.callTool({
      name: 'instructions_for_path',
      arguments: { path: 'svc/auth/b.ts' },
    });
    expect(textOf(second)).toMatch(/^Nothing new applies to svc\/auth\/b\.ts: /);

    const rules = await client.callTool({ name: 'list_rules', arguments: {} });
    // Rules are on by default; this tree has no rule files.
    expect(textOf(rules)).toMatch(/^No rule files were found for rules\.sources \(cursor, /);
    const rule = await client.callTool({ name: 'get_rule', arguments: { name: 'testing' } });
    expect(rule.isError).toBe(true);
    expect(textOf(rule)).toMatch(/^No rule named "testing"\./);
    const explained = await client.callTool({ name: 'explain_instructions', arguments: { path: 'svc' } });
    expect(textOf(explained)).toContain('  returned         svc/AGENTS.md (nested: governs svc/)');

    const { resources } = await client.listResources();
    expect(resources.map((resource) => resource.uri)).toEqual([
      'ctxfiles://workdir/AGENTS.md',
      'ctxfiles://workdir/svc/AGENTS.md',
      'ctxfiles://workdir/svc/auth/AGENTS.md',
    ]);
    const read = await client.readResource({ uri: 'ctxfiles://workdir/svc/auth/AGENTS.md' });
    expect(read.contents[0]).toMatchObject({ text: 'auth rules' });
  });

  test('paths outside the work dir are error results; bad calls never stop the server', async () => {
    const outside = tempTree({ 'AGENTS.md': 'secret' });
    const root = tempTree({ ...tree, 'escape/link': { symlink: outside } });
    const client = await start(root);
    for (const given of ['../outside', outside, `${outside}/AGENTS.md`, 'escape/link/AGENTS.md']) {
      const result = await client.callTool({ name: 'instructions_for_path', arguments: { path: given } });
      expect(result.isError, given).toBe(true);
      expect(textOf(result)).not.toContain('secret');
    }
    const unknown = await client.callTool({ name: 'rm_rf', arguments: {} });
    expect(unknown.isError).toBe(true);
    expect(textOf(unknown)).toMatch(/^Unknown tool "rm_rf"/);
    const huge = await client.callTool({
      name: 'instructions_for_path',
      arguments: { path: 'a/'.repeat(500_000) },
    });
    expect(huge.isError).toBe(true);
    expect(textOf(huge)).toBe('path is longer than 4096 characters');
    // Still answering.
    const after = await client.callTool({ name: 'instructions_for_path', arguments: { path: 'svc/x' } });
    expect(textOf(after)).toContain('svc rules');
  });

  test('a malformed request gets an error or is skipped; stdin closing ends the process cleanly', async () => {
    const root = tempTree(tree);
    const child = spawn(process.execPath, [BIN, 'mcp', '--cwd', root], { stdio: ['pipe', 'pipe', 'pipe'] });
    const replies = createInterface({ input: child.stdout });
    const lines: Array<Record<string, unknown>> = [];
    const waiting = new Map<number, (reply: Record<string, unknown>) => void>();
    replies.on('line', (line) => {
      const reply = JSON.parse(line) as Record<string, unknown>;
      lines.push(reply);
      waiting.get(reply['id'] as number)?.(reply);
    });
    const reply = (id: number) => new Promise<Record<string, unknown>>((resolve) => waiting.set(id, resolve));
    const send = (message: unknown) =>
      child.stdin.write(`${typeof message === 'string' ? message : JSON.stringify(message)}\n`);
    const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
      child.on('exit', (code, signal) => resolve({ code, signal })),
    );

    send({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    });
    expect(await reply(1)).toMatchObject({ result: { serverInfo: { name: 'ctxfiles' } } });
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    send('this is not JSON');
    send('{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"arguments":{}}}');
    // Not JSON: a parse error with id null. A tools/call without a name: invalid params.
    const second = await reply(2);
    expect(lines[1]).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32700, message: expect.any(String) },
    });
    expect(second).toMatchObject({ error: { code: -32602 } });
    expect(second).not.toHaveProperty('result');
    send({ jsonrpc: '2.0', id: 3, method: 'no/such/method' });
    expect(await reply(3)).toMatchObject({ error: { code: -32601 } });
    send({
      jsonrpc: '2.0',
      id: 4,
      method: 'tools/call',
      params: { name: 'instructions_for_path', arguments: { path: 'svc/a' } },
    });
    // Close stdin right behind the last request: its answer still comes, then the process exits 0.
    child.stdin.end();
    const fourth = await reply(4);
    expect(JSON.stringify(fourth)).toContain('svc rules');
    expect(await exited).toEqual({ code: 0, signal: null });
    expect(lines.map((line) => line['id'])).toEqual([1, null, 2, 3, 4]);
  });
});

/** The built bin's server over raw pipes: `next()` is the next line it writes. */
function rawServer(root: string) {
  const child = spawn(process.execPath, [BIN, 'mcp', '--cwd', root], { stdio: ['pipe', 'pipe', 'pipe'] });
  const queue: string[] = [];
  const waiting: Array<(line: string) => void> = [];
  createInterface({ input: child.stdout }).on('line', (line) => {
    const take = waiting.shift();
    if (take === undefined) queue.push(line);
    else take(line);
  });
  const next = () =>
    new Promise<Record<string, unknown>>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no answer within 5 s')), 5_000);
      const take = (line: string) => {
        clearTimeout(timer);
        resolve(JSON.parse(line) as Record<string, unknown>);
      };
      const queued = queue.shift();
      if (queued === undefined) waiting.push(take);
      else take(queued);
    });
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  return { child, next, exited };
}

describe('ctxfiles mcp: invalid requests and a client that does not read', () => {
  test.each([
    ['an object id', '{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}', null, -32600],
    ['a null id', '{"jsonrpc":"2.0","id":null,"method":"ping"}', null, -32600],
    ['a fractional id', '{"jsonrpc":"2.0","id":1.5,"method":"ping"}', null, -32600],
    ['params: 5', '{"jsonrpc":"2.0","id":7,"method":"tools/list","params":5}', 7, -32602],
    ['no jsonrpc', '{"id":8,"method":"ping"}', 8, -32600],
    ['a batch', '[{"jsonrpc":"2.0","id":9,"method":"ping"}]', null, -32600],
    ['an empty batch', '[]', null, -32600],
    ['a bare number', '5', null, -32600],
    ['no method', '{"jsonrpc":"2.0","id":10}', 10, -32600],
  ])('%s gets an error answer, and the server goes on', async (_name, message, id, code) => {
    const root = tempTree(tree);
    const server = rawServer(root);
    server.child.stdin.write(`${message}\n`);
    expect(await server.next()).toEqual({ jsonrpc: '2.0', id, error: { code, message: expect.any(String) } });
    server.child.stdin.end('{"jsonrpc":"2.0","id":11,"method":"ping"}\n');
    expect(await server.next()).toEqual({ jsonrpc: '2.0', id: 11, result: {} });
    expect(await server.exited).toBe(0);
  });

  test('a client that stops reading stops the server reading: answers never pile up', async () => {
    const root = tempTree(tree);
    const server = rawServer(root);
    server.child.stdout.pause();
    const request = `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' })}\n`;
    // Keep writing until the pipe to the server stays full for a second: the server stopped reading.
    let blocked = false;
    for (let sent = 0; sent < 200_000 && !blocked; sent += 1) {
      if (server.child.stdin.write(request)) continue;
      blocked = !(await new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => resolve(false), 1_000);
        server.child.stdin.once('drain', () => {
          clearTimeout(timer);
          resolve(true);
        });
      }));
    }
    expect(blocked).toBe(true);
    // Reading again lets it go on; closing its input ends it.
    server.child.stdout.resume();
    server.child.stdout.on('data', () => {});
    server.child.stdin.end();
    expect(await server.exited).toBe(0);
  }, 60_000);
});

describe('ctxfiles mcp: options, install, stderr', () => {
  test('takes only --cwd, --config, --preset and --agent; a bad preset, agent or work dir fails', () => {
    const root = tempTree(tree);
    const help = spawnBin(['mcp', '--help'], { cwd: root });
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('--cwd <dir>');
    expect(help.stdout).toContain('--config <file>');
    expect(help.stdout).toContain('--preset <name>');
    expect(help.stdout).toContain('--agent <id>');
    expect(help.stdout).not.toContain('--flow');
    expect(spawnBin(['mcp', '--preset', 'vim'], { cwd: root }).code).toBe(2);
    const missing = spawnBin(['mcp', '--cwd', 'nope'], { cwd: root });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('ctxfiles: error: the work dir');
  });

  test('the bundle with only the package dependencies beside it (no MCP SDK) serves MCP', () => {
    // The bundled CLI copied where no package can be found: `npx -y ctxfiles mcp` on first use.
    const root = tempTree({ ...tree, 'package.json': '{"version":"0.0.0","type":"module"}' });
    fs.cpSync(path.dirname(BIN), path.join(root, 'dist/bin'), { recursive: true });
    // What an install brings: the package's dependencies, and nothing else (no MCP SDK).
    const manifest = JSON.parse(fs.readFileSync('package.json', 'utf8')) as {
      dependencies: Record<string, string>;
    };
    for (const name of Object.keys(manifest.dependencies)) {
      fs.mkdirSync(path.dirname(path.join(root, 'node_modules', name)), { recursive: true });
      fs.symlinkSync(path.resolve('node_modules', name), path.join(root, 'node_modules', name));
    }
    expect(fs.readFileSync(path.join(root, 'dist/bin/cli.cjs'), 'utf8')).not.toContain(
      '@modelcontextprotocol',
    );
    const messages = [
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {} },
      },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      {
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { name: 'instructions_for_path', arguments: { path: 'svc/a' } },
      },
    ];
    const result = spawnSync(process.execPath, [path.join(root, 'dist/bin/ctxfiles.cjs'), 'mcp'], {
      cwd: root,
      input: messages.map((message) => `${JSON.stringify(message)}\n`).join(''),
      encoding: 'utf8',
      env: { PATH: process.env['PATH'] ?? '', HOME: root },
      timeout: 20_000,
    });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    const replies = result.stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(replies.map((reply) => reply['id'])).toEqual([1, 2]);
    expect(replies[0]).toMatchObject({
      result: { protocolVersion: '2025-06-18', serverInfo: { name: 'ctxfiles' } },
    });
    expect(JSON.stringify(replies[1])).toContain('svc rules');
  });

  test('config warnings on stderr have their control characters escaped, as resolve prints them', () => {
    const root = tempTree({ ...tree, 'ctxfiles.config.json': '{"\\u001b]0;owned\\u0007": 1}' });
    const result = spawnBin(['mcp'], { cwd: root });
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('ctxfiles: warning:');
    expect(result.stderr).toContain('\\u001b]0;owned\\u0007');
    expect(result.stderr).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f]/);
  });
});
