import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterEach, describe, expect, test } from 'vitest';
import { MISSING_SDK_MESSAGE } from '../src/cli/mcp-command.js';
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
      'explain',
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
    const explained = await client.callTool({ name: 'explain', arguments: { path: 'svc' } });
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
    // The SDK answers a request that fails its own schema with a JSON-RPC error (code -32603 in 1.32).
    const second = await reply(2);
    expect(second).toMatchObject({ error: { code: expect.any(Number) } });
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
    expect(lines.map((line) => line['id'])).toEqual([1, 2, 3, 4]);
  });
});

describe('ctxfiles mcp: options and a missing SDK', () => {
  test('takes only --cwd, --config and --preset; a bad preset or work dir fails', () => {
    const root = tempTree(tree);
    const help = spawnBin(['mcp', '--help'], { cwd: root });
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('--cwd <dir>');
    expect(help.stdout).toContain('--config <file>');
    expect(help.stdout).toContain('--preset <name>');
    expect(help.stdout).not.toContain('--agent');
    expect(spawnBin(['mcp', '--preset', 'vim'], { cwd: root }).code).toBe(2);
    const missing = spawnBin(['mcp', '--cwd', 'nope'], { cwd: root });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('ctxfiles: error: the work dir');
  });

  test('without the SDK installed it says how to install it and exits 1', () => {
    // The bundled CLI copied where no node_modules can be found.
    const root = tempTree({ 'package.json': '{"version":"0.0.0","type":"module"}' });
    fs.cpSync(path.dirname(BIN), path.join(root, 'dist/bin'), { recursive: true });
    const result = spawnSync(process.execPath, [path.join(root, 'dist/bin/ctxfiles.cjs'), 'mcp'], {
      cwd: root,
      input: '',
      encoding: 'utf8',
      env: { PATH: process.env['PATH'] ?? '', HOME: root },
      timeout: 20_000,
    });
    expect(result.stderr).toBe(MISSING_SDK_MESSAGE);
    expect(result.status).toBe(1);
  });
});
