// Runs every case of one host and writes the results as JSON. Started by scripts/conformance.mjs
// inside a network namespace that has only loopback (so no packet can leave); it starts the
// model server itself, in the same namespace. Usage:
//   node test/conformance/run-host.mjs HOST INSTALL_DIR OUT.json [CASE_ID…]
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CASES, caseFor } from './cases.mjs';
import { claudeIntro } from './extract.mjs';
import { HOSTS } from './hosts/index.mjs';
import { FINAL_TEXT, startModelServer } from './model-server.mjs';
import { outsideConnects } from './egress.mjs';
import { callMcpTool } from './mcp-client.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const bin = path.resolve(here, '../../dist/bin/ctxfiles.cjs');
const CASE_TIMEOUT_MS = Number(process.env.CONFORMANCE_CASE_TIMEOUT_MS ?? 60_000);
const PROMPT = 'Follow the instructions, then reply with one word.';

/** Runs a command with a time limit; resolves to { code, stdout, stderr, timedOut }. */
export function run(command, args, { cwd, env, input = null, timeoutMs = CASE_TIMEOUT_MS }) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd, env, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    }, timeoutMs);
    child.on('error', (error) => (stderr += String(error)));
    // A host that exits before reading its stdin must not crash the runner.
    child.stdin.on('error', () => {});
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, timedOut });
    });
    child.stdin.end(input ?? '');
  });
}

function writeTree(root, tree) {
  fs.mkdirSync(root, { recursive: true });
  for (const [file, value] of Object.entries(tree)) {
    const target = path.join(root, file);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    if (typeof value === 'string') fs.writeFileSync(target, value);
    else if (value.link) fs.symlinkSync(value.link, target);
    else if (value.dir) fs.mkdirSync(target, { recursive: true });
  }
}

function baseEnv(home, cwd) {
  return {
    PATH: process.env.PATH,
    HOME: home,
    PWD: cwd,
    USER: 'lab',
    LANG: 'C.UTF-8',
    TERM: 'dumb',
    TMPDIR: path.join(home, '.tmp'),
  };
}

async function layOut(dir, row) {
  const home = path.join(dir, 'home');
  const repo = path.join(dir, 'repo');
  writeTree(home, row.home);
  fs.mkdirSync(path.join(home, '.tmp'), { recursive: true });
  writeTree(path.join(dir, 'outside'), row.outside);
  writeTree(repo, row.repo);
  for (const sub of row.git ?? ['']) {
    const at = path.join(repo, sub);
    fs.mkdirSync(at, { recursive: true });
    await run('git', ['-c', 'init.defaultBranch=main', 'init', '-q', at], {
      cwd: repo,
      env: baseEnv(home, repo),
    });
  }
  return { home, repo, cwd: path.join(repo, row.cwd ?? '') };
}

/** The files a row's script reads, one per turn: `reads`, or the one `read`. */
const readsOf = (row) => row.reads ?? (row.read ? [row.read] : []);

/** Between what was added after each read of a `reads` row, on both sides of the comparison. */
const READ_SEPARATOR = '\n--- (the next read) ---\n';

/**
 * What the host added after each read of a `reads` row: the request after the k-th tool result
 * less what the one after the (k-1)-th already carried (a host may merge the turns of its history).
 */
function addedPerRead(host, main, count) {
  const seen = [''];
  for (let k = 1; k <= count; k += 1) {
    const after = main.find((record) => host.toolResultCount(record.body) === k);
    seen.push(after ? host.extractLive(after.body) : `(the host sent no request after read ${k})`);
  }
  return seen.slice(1).map((text, k) => (text.startsWith(seen[k]) ? text.slice(seen[k].length) : text));
}

/** One run of the host on a laid-out case; resolves to its requests and log. */
async function runHost(host, installDir, row, dirs, traceFile) {
  const readFiles = readsOf(row).map((file) => path.join(dirs.repo, file));
  const server = await startModelServer({
    timeoutMs: CASE_TIMEOUT_MS + 5_000,
    plan: ({ body, record }) => {
      // A row that searches first (`mcp.search`) leaves the steps to the driver.
      if (row.mcp && host.isMain(record) && (row.mcp.search || !host.hasToolResult(body))) {
        const call = host.mcpCall(body, row.mcp.path, row.mcp);
        if (call) return { call };
      }
      // One read per turn: the next file while fewer tool results than reads came back.
      const done = host.toolResultCount ? host.toolResultCount(body) : host.hasToolResult(body) ? 1 : 0;
      if (readFiles.length > done && host.isMain(record)) {
        const call = host.toolCall(body, readFiles[done]);
        if (call) return { call: readFiles.length > 1 ? { ...call, id: `toolu_lab_${done + 1}` } : call };
      }
      return { text: FINAL_TEXT };
    },
  });
  try {
    const hookCommand = row.hook ? hookCommandFor(host, dirs, row) : null;
    const mcpServer = row.mcp ? { command: process.execPath, args: [bin, 'mcp', '--cwd', dirs.cwd] } : null;
    const setup = host.prepare({ ...dirs, port: server.port, row, prompt: PROMPT, hookCommand, mcpServer });
    const env = { ...baseEnv(dirs.home, dirs.cwd), ...setup.env };
    const exe = path.join(installDir, host.bin);
    const strace = [
      '-f',
      '--seccomp-bpf',
      '-qq',
      '-e',
      'trace=connect',
      '-o',
      traceFile,
      '--',
      exe,
      ...setup.args,
    ];
    const result = await run('strace', strace, { cwd: dirs.cwd, env });
    return { ...result, setup, requests: server.requests };
  } finally {
    await server.close();
  }
}

/** The hook config: RULES.md, a name no host reads itself (docs/hooks.md, "Avoiding double injection"). */
const hookConfig = (dirs) => path.join(dirs.home, '..', 'ctxfiles-hook.json');

function hookCommandFor(host, dirs, row) {
  // `hookConfig`: a row's own config for the hook (a preset, rule sources); default RULES.md only.
  fs.writeFileSync(hookConfig(dirs), JSON.stringify(row.hookConfig ?? { contextPaths: ['RULES.md'] }));
  const args = [process.execPath, bin, 'hook', host.hookAgent, '--config', hookConfig(dirs)];
  return args.map((arg) => `'${arg.replaceAll("'", "'\\''")}'`).join(' ');
}

/**
 * The hook's own answer to the event the host sends after the scripted read, or to its session
 * start when `file` is null.
 */
async function hookAnswer(host, dirs, file) {
  const event = {
    session_id: 'lab-expected',
    cwd: dirs.cwd,
    ...(file === null
      ? { hook_event_name: 'SessionStart', source: 'startup' }
      : {
          hook_event_name:
            host.hookEventName ?? (host.hookAgent === 'claude-code' ? 'PostToolUse' : 'AfterTool'),
          ...host.sessionEvent(file).hookFields,
        }),
  };
  const env = {
    ...baseEnv(dirs.home, dirs.cwd),
    XDG_STATE_HOME: path.join(dirs.home, '.lab-expected-state'),
  };
  const args = [
    bin,
    'hook',
    host.hookAgent,
    ...(host.hookArgs ?? []),
    '--config',
    hookConfig(dirs),
    '--cwd',
    dirs.cwd,
  ];
  const answer = await run(process.execPath, args, {
    cwd: dirs.cwd,
    env,
    input: JSON.stringify(event),
    timeoutMs: 20_000,
  });
  // Nothing due: the hook exits 0 and prints nothing.
  if (answer.code === 0 && answer.stdout.trim() === '') return '';
  try {
    return JSON.parse(answer.stdout).hookSpecificOutput?.additionalContext ?? '';
  } catch {
    return `(ctxfiles hook failed: ${answer.stdout}${answer.stderr})`;
  }
}

async function ctxfiles(host, row, dirs, setup, captured) {
  const env = {
    ...baseEnv(dirs.home, dirs.cwd),
    XDG_CONFIG_HOME: path.join(dirs.home, '.config'),
    CTXFILES_NO_CACHE: '1',
    ...(setup.ctxfilesEnv ?? {}),
  };
  // A driver may name the cwd ctxfiles is given as its host sees it (`setup.ctxfilesCwd`).
  const args = [
    '--preset',
    host.preset,
    '--cwd',
    setup.ctxfilesCwd ?? dirs.cwd,
    ...(setup.ctxfilesArgs ?? []),
  ];
  if (captured.wording) {
    // Our own explanatory sentences are a listed difference; the comparison uses the ones captured.
    const config = path.join(dirs.home, '..', 'ctxfiles-wording.json');
    fs.writeFileSync(config, JSON.stringify({ wording: captured.wording }));
    args.push('--config', config);
  }
  const resolve = await run(process.execPath, [bin, 'resolve', ...args], {
    cwd: dirs.cwd,
    env,
    timeoutMs: 20_000,
  });
  const out = { static: resolve.stdout, stderr: resolve.stderr, code: resolve.code };
  if (row.mcp) {
    out.live = await callMcpTool({
      command: process.execPath,
      args: [bin, 'mcp', '--cwd', dirs.cwd],
      cwd: dirs.cwd,
      env: { ...env, CTXFILES_NO_CACHE: '1' },
      tool: 'instructions_for_path',
      toolArgs: { path: row.mcp.path },
    });
  } else if (row.hook && row.hookStart) {
    out.live = host.wrapHookStart(await hookAnswer(host, dirs, null));
  } else if (row.hook) {
    // The hook's answer to the first read; a later read in the same places adds nothing (once).
    const [first, ...later] = readsOf(row);
    const answer = host.wrapHook(await hookAnswer(host, dirs, path.join(dirs.repo, first)));
    out.live = [answer, ...later.map(() => '')].join(READ_SEPARATOR);
  } else if (row.read) {
    const { hookFields, ...sessionEvent } = host.sessionEvent(path.join(dirs.repo, row.read));
    const event = JSON.stringify(sessionEvent);
    const session = await run(process.execPath, [bin, 'session', ...args], {
      cwd: dirs.cwd,
      env,
      input: `${event}\n`,
      timeoutMs: 20_000,
    });
    try {
      out.live = JSON.parse(session.stdout.split('\n')[0]).inject ?? '';
    } catch {
      out.live = `(ctxfiles session failed: ${session.stdout}${session.stderr})`;
    }
  }
  return out;
}

async function runCase(host, installDir, row, work) {
  const dir = fs.mkdtempSync(path.join(work, `${row.id}-`));
  const dirs = await layOut(dir, row);
  const traceFile = path.join(dir, 'connect.trace');
  let attempt = await runHost(host, installDir, row, dirs, traceFile);
  let retried = false;
  if (attempt.timedOut) {
    retried = true;
    fs.rmSync(dir, { recursive: true, force: true });
    Object.assign(dirs, await layOut(dir, row));
    attempt = await runHost(host, installDir, row, dirs, traceFile);
  }
  const log = `exit ${attempt.code}${attempt.timedOut ? ' (timed out)' : ''}\n${attempt.stdout.slice(-2000)}\n${attempt.stderr.slice(-4000)}`;
  const egress = fs.existsSync(traceFile)
    ? outsideConnects(fs.readFileSync(traceFile, 'utf8'))
    : ['(no connect trace written)'];
  const main = attempt.requests.filter((record) => host.isMain(record));
  const result = {
    host: host.id,
    case: row.id,
    retried,
    egress,
    requests: attempt.requests.map((r) => `${r.method} ${r.url}`),
  };
  if (attempt.timedOut || main.length === 0) {
    return { ...result, status: attempt.timedOut ? 'timeout' : 'error', log };
  }
  const actual = { static: host.extractStatic(main[0].body, row) };
  if (row.hookStart) {
    actual.live = host.extractHookStart(main[0].body);
  } else if (row.reads) {
    actual.live = addedPerRead(host, main, row.reads.length).join(READ_SEPARATOR);
  } else if (row.read || row.mcp) {
    // After a search first (`mcp.search`), the last request: the one with the tool's answer.
    const withResult = main.filter((record) => host.hasToolResult(record.body));
    const after = row.mcp?.search ? withResult.at(-1) : withResult[0];
    const extract = row.mcp
      ? host.extractMcp
      : row.hook && host.extractHook
        ? host.extractHook
        : host.extractLive;
    actual.live = after ? extract(after.body) : '(the host sent no request after the tool call)';
  }
  const wording =
    host.id === 'claude-code' && actual.static
      ? { claudeCodeIntro: claudeIntro(actual.static) }
      : (host.wording?.(main[0].body, row) ?? null);
  const expected = await ctxfiles(host, row, dirs, attempt.setup, { wording });
  const part = row.read || row.reads || row.mcp || row.hookStart ? 'live' : 'static';
  const same = expected[part] === actual[part];
  fs.writeFileSync(path.join(dir, 'requests.json'), JSON.stringify(attempt.requests, null, 1));
  return {
    ...result,
    part,
    status: same ? 'match' : 'differ',
    expected: expected[part],
    actual: actual[part],
    ctxfilesStderr: expected.stderr,
    log,
    dir,
  };
}

async function main() {
  const [hostId, installDir, outFile, ...only] = process.argv.slice(2);
  const host = HOSTS.find((candidate) => candidate.id === hostId);
  if (!host) throw new Error(`unknown host ${hostId}`);
  const work = fs.mkdtempSync(
    path.join(process.env.CONFORMANCE_WORK ?? os.tmpdir(), `ctxfiles-lab-${host.id}-`),
  );
  const rows = CASES.filter((row) => !row.hosts || row.hosts.includes(host.id))
    .filter((row) => !row.hook || host.hookAgent)
    .filter((row) => !row.hookStart || host.extractHookStart)
    .filter((row) => !row.reads || host.toolResultCount)
    .filter((row) => !row.mcp || host.mcpCall)
    .filter((row) => only.length === 0 || only.includes(row.id))
    .map((row) => caseFor(row, host.names));
  const results = [];
  for (const row of rows) {
    const started = Date.now();
    const result = await runCase(host, installDir, row, work);
    result.ms = Date.now() - started;
    results.push(result);
    process.stderr.write(
      `${host.id} ${row.id}: ${result.status}${result.egress.length ? ' EGRESS' : ''} (${result.ms} ms)\n`,
    );
  }
  fs.writeFileSync(outFile, JSON.stringify({ host: host.id, work, results }, null, 1));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
