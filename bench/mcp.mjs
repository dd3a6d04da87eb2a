// `node bench/mcp.mjs [calls]` (after `npm run build`): one `ctxfiles mcp` server over a pipe on
// examples/monorepo. Times the first `instructions_for_path` call (it resolves, opens the session and
// answers with the project's files) and then warm calls: paths whose instructions were already
// returned, so each answers "nothing new", round trip from the write of the request to the end of
// its answer, against a JSON-RPC `ping` round trip on the same pipe. Target: a warm call ≤ 150 µs
// (issue 42). A benchmark, not a test. Also a row of `npm run bench`, through {@link measureMcp}.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { cacheEnv, median } from './measure.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.join(here, '..');
// BENCH_BIN: another build's bin (a before/after comparison).
const bin = process.env.BENCH_BIN ?? path.join(repo, 'dist/bin/ctxfiles.cjs');

/** A client on the server's stdin and stdout: `request` resolves with the answer and its round trip in µs. */
function client(child) {
  let buffer = '';
  const waiting = [];
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk) => {
    buffer += chunk;
    for (let end = buffer.indexOf('\n'); end !== -1; end = buffer.indexOf('\n')) {
      const line = buffer.slice(0, end);
      buffer = buffer.slice(end + 1);
      const next = waiting.shift();
      next?.(line);
    }
  });
  let id = 0;
  return (method, params) =>
    new Promise((resolve, reject) => {
      id += 1;
      const start = process.hrtime.bigint();
      waiting.push((line) => {
        const elapsed = Number(process.hrtime.bigint() - start) / 1e3;
        const message = JSON.parse(line);
        if (message.error !== undefined) reject(new Error(JSON.stringify(message.error)));
        else resolve({ result: message.result, micros: elapsed });
      });
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
    });
}

/**
 * The input of a whole `ctxfiles mcp` process that answers one call: `initialize`, the
 * `initialized` notification, the first `instructions_for_path` call (the one {@link measureMcp}
 * times), then the end of stdin, which ends the server. For the instruction count of the first call
 * (bench/run.mjs), start-up included.
 */
export const FIRST_CALL_INPUT = [
  {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1' } },
  },
  { jsonrpc: '2.0', method: 'notifications/initialized' },
  {
    jsonrpc: '2.0',
    id: 2,
    method: 'tools/call',
    params: { name: 'instructions_for_path', arguments: { path: 'packages/api/src/server.ts' } },
  },
]
  .map((message) => `${JSON.stringify(message)}\n`)
  .join('');

/**
 * Starts the server, times the first call, then `calls` warm calls and `calls` pings. Returns µs:
 * `{ first, warm: { wall, cpu }, ping: { wall, cpu } }` (wall: median round trip; cpu: the server's
 * CPU time per call, user and system).
 */
export async function measureMcp(calls = 5000) {
  const cwd = path.join(repo, 'examples/monorepo');
  const child = spawn(process.execPath, [bin, 'mcp'], {
    cwd,
    env: cacheEnv,
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  try {
    const request = client(child);
    await request('initialize', {
      protocolVersion: '2025-06-18',
      capabilities: {},
      clientInfo: { name: 'bench', version: '1' },
    });
    const call = (file) =>
      request('tools/call', { name: 'instructions_for_path', arguments: { path: file } });
    const first = await call('packages/api/src/server.ts');
    if (!JSON.stringify(first.result).includes('AGENTS.md'))
      throw new Error(`the first call returned no instructions: ${JSON.stringify(first.result)}`);
    const files = ['packages/api/src/server.ts', 'packages/api/src', 'packages/api/src/new-file.ts'];
    for (const file of files) await call(file);
    // Wall time per round trip (medians), and the server's CPU time per call over each batch (from
    // /proc: on a loaded machine the round trip also measures the other processes).
    const cpu = () => {
      const fields = fs.readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1].split(' ');
      return (Number(fields[11]) + Number(fields[12])) * 10_000; // clock ticks (100 Hz) → µs
    };
    const batch = async (send) => {
      const times = [];
      const before = cpu();
      for (let index = 0; index < calls; index += 1) times.push((await send(index)).micros);
      return { wall: median(times), cpu: (cpu() - before) / calls };
    };
    const warm = await batch(async (index) => {
      const answer = await call(files[index % files.length]);
      if (answer.result.isError === true) throw new Error(JSON.stringify(answer.result));
      return answer;
    });
    const ping = await batch(() => request('ping', {}));
    return { first: first.micros, warm, ping };
  } finally {
    child.stdin.end();
    child.kill();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const calls = Number(process.argv[2] ?? 5000);
  const { first, warm, ping } = await measureMcp(calls);
  const line = (label, value) => console.log(`${label.padEnd(60)} ${value}`);
  line('MCP instructions_for_path, first call (resolve, session)', `${(first / 1000).toFixed(1)} ms`);
  line(
    'MCP instructions_for_path, warm call (nothing new)',
    `${warm.wall.toFixed(0)} µs (server CPU ${warm.cpu.toFixed(0)} µs)  JSON-RPC ping ${ping.wall.toFixed(0)} µs (CPU ${ping.cpu.toFixed(0)} µs); target ≤ 150 µs: ${warm.wall <= 150 ? 'ok' : 'MISSED'}`,
  );
}
