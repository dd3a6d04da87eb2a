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
import { judgeLayers, layerHookConfig, layerPlan } from './layer-rows.mjs';
import { initInto, judgeCount } from './count-rows.mjs';

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

/** The files a row's script reads, one per turn: `reads`, or the one `read` (or `write`). */
const readsOf = (row) => row.reads ?? (row.read ? [row.read] : row.write ? [row.write] : []);

/** Between what was added after each read of a `reads` row, on both sides of the comparison. */
const READ_SEPARATOR = '\n--- (the next read) ---\n';

/** In a `compact` row, where the host compacted, on both sides of the comparison. */
const COMPACTED = '(the host compacted the conversation)';

/** In a `resume` row, where the second run, resuming the first, starts. */
const RESUMED = '(a second run resumes the session)';

/** What the lab's model answers a host's request to summarize the conversation (`compact` rows). */
const SUMMARY_TEXT = 'The user asked to follow the instructions; files were read.';

/**
 * What the host added after each read of a `reads` row: the request after the k-th tool result
 * less what the one after the (k-1)-th already carried (a host may merge the turns of its history).
 * `base`: the tool results the requests carry from before (a resumed run's history), and what
 * the host had added there (`baseline`).
 */
function addedPerRead(host, main, count, { base = 0, baseline = '' } = {}) {
  const seen = [baseline];
  for (let k = 1; k <= count; k += 1) {
    const after = main.find((record) => host.toolResultCount(record.body) === base + k);
    seen.push(after ? addedBy(host, after.body) : `(the host sent no request after read ${k})`);
  }
  // A driver that joins the messages it extracts (`addedJoin`) puts that between the old and the new.
  const join = host.addedJoin ?? '';
  return seen.slice(1).map((text, k) => {
    const before = seen[k] === '' ? '' : `${seen[k]}${join}`;
    if (before !== '' && text.startsWith(before)) return text.slice(before.length);
    return text.startsWith(seen[k]) ? text.slice(seen[k].length) : text;
  });
}

/** What the host added to a request's tool results (a hook's answer where the driver tells it apart). */
const addedBy = (host, body) => (host.extractAdded ?? host.extractHook ?? host.extractLive)(body);

/**
 * The script of one case: a tool call per turn, one read while fewer tool results than reads
 * came back. It keeps two facts across requests, since a host's history no longer counts them:
 * how many reads a compacted conversation had (`compactedAt`), and which run of a `resume` row
 * is asking (`run`, with the tool results its history carries from the first, `base`).
 */
function scriptFor(host, row, dirs) {
  const runs = [readsOf(row), row.resume?.reads ?? []].map((files) =>
    files.map((file) => path.join(dirs.repo, file)),
  );
  const script = { run: 0, base: 0, asked: 0, compacted: false, compactions: [] };
  // A subagent or mode row (layer-rows.mjs) has a script of its own.
  if (row.subagent || row.mode) return { ...script, plan: layerPlan(host, row, FINAL_TEXT) };
  // `base`: the tool results a resumed run's history carries, counted at its first request;
  // `asked`: the reads this run asked for, which a compacted history no longer tells.
  script.plan = ({ body, record }) => {
    if (row.compact && host.isCompaction?.(record)) {
      script.compacted = true;
      script.compactions.push(record);
      // A host that checks the summary's form wraps it (`summary`, Qwen Code's `<state_snapshot>`),
      // and one that weighs it against the window reports the usage it expects (`summaryUsage`).
      return {
        text: host.summary?.(SUMMARY_TEXT) ?? SUMMARY_TEXT,
        ...(host.summaryUsage ? { usage: host.summaryUsage } : {}),
      };
    }
    // A row that searches first (`mcp.search`) leaves the steps to the driver.
    if (row.mcp && host.isMain(record) && (row.mcp.search || !host.hasToolResult(body))) {
      const call = host.mcpCall(body, row.mcp.path, row.mcp);
      if (call) {
        script.mcpAsked = true;
        return { call: row.reads ? { ...call, id: 'toolu_lab_mcp', callId: 'call_lab_mcp' } : call };
      }
    }
    const count = host.toolResultCount ? host.toolResultCount(body) : host.hasToolResult(body) ? 1 : 0;
    // A resumed run counts from what its first request carries (Gemini CLI repeats a result there).
    if (script.run > 0 && script.base === null && host.isMain(record)) script.base = count;
    // A row that calls the MCP tool before its reads (a `count` row) counts that result apart.
    const done = script.compacted ? script.asked : count - (script.base ?? 0) - (script.mcpAsked ? 1 : 0);
    const files = runs[script.run];
    if (files.length > done && host.isMain(record)) {
      const call = host.toolCall(body, files[done], row);
      if (!call) return { text: FINAL_TEXT };
      script.asked = done + 1;
      const many = files.length > 1 || script.run > 0;
      const id = `toolu_lab_${script.run === 0 ? '' : `r${script.run}_`}${done + 1}`;
      // `compact`: the answer that asks for read `after` of run `run` says the context window is full.
      const full =
        row.compact?.after === done + 1 && (row.compact.run ?? 0) === script.run && !script.compacted;
      return {
        call: many ? { ...call, id } : call,
        ...(full ? { usage: host.fullContextUsage } : {}),
      };
    }
    return { text: FINAL_TEXT };
  };
  return script;
}

/** One run of the host on a laid-out case (two for a `resume` row); resolves to its requests and log. */
async function runHost(host, installDir, row, dirs, traceFile) {
  const script = scriptFor(host, row, dirs);
  const server = await startModelServer({ timeoutMs: CASE_TIMEOUT_MS * 2 + 5_000, plan: script.plan });
  try {
    const hookCommand = row.hook ? hookCommandFor(host, dirs, row) : null;
    // A `count` row registers nothing itself: `ctxfiles init` writes the hooks and the server.
    const mcpServer =
      row.mcp && !row.count ? { command: process.execPath, args: [bin, 'mcp', '--cwd', dirs.cwd] } : null;
    const setup = host.prepare({
      ...dirs,
      installDir,
      port: server.port,
      row,
      prompt: PROMPT,
      hookCommand,
      mcpServer,
    });
    const env = { ...baseEnv(dirs.home, dirs.cwd), ...setup.env };
    const init = row.count
      ? await initInto(host, dirs, setup, { bin, run, env: baseEnv(dirs.home, dirs.repo) })
      : '';
    const exe = path.join(installDir, host.bin);
    const traced = (args, file) => [
      '-f',
      '--seccomp-bpf',
      '-qq',
      '-e',
      'trace=connect',
      '-o',
      file,
      '--',
      exe,
      ...args,
    ];
    let result = await run('strace', traced(setup.args, traceFile), { cwd: dirs.cwd, env });
    let resumedAt = null;
    if (row.resume && !result.timedOut) {
      // The second run resumes the first one's session in the same HOME (the driver's `resumeArgs`).
      script.run = 1;
      script.base = null;
      script.asked = 0;
      resumedAt = server.requests.length;
      const second = await run('strace', traced(setup.resumeArgs, `${traceFile}.resume`), {
        cwd: dirs.cwd,
        env,
      });
      result = {
        ...second,
        stdout: `${result.stdout}\n${second.stdout}`,
        stderr: `${result.stderr}\n${second.stderr}`,
      };
    }
    return {
      ...result,
      stderr: `${init}${result.stderr}`,
      setup,
      requests: server.requests,
      compactions: script.compactions,
      resumedAt,
    };
  } finally {
    await server.close();
  }
}

/** The hook config: RULES.md, a name no host reads itself (docs/hooks.md, "Avoiding double injection"). */
const hookConfig = (dirs) => path.join(dirs.home, '..', 'ctxfiles-hook.json');

function hookCommandFor(host, dirs, row) {
  // `hookConfig`: a row's own config for the hook (a preset, rule sources); default RULES.md only.
  fs.writeFileSync(hookConfig(dirs), JSON.stringify(layerHookConfig(row)));
  const args = [process.execPath, bin, 'hook', host.hookAgent, '--config', hookConfig(dirs)];
  return args.map((arg) => `'${arg.replaceAll("'", "'\\''")}'`).join(' ');
}

/**
 * The hook's own answer to the event the host sends after the scripted read, or to its session
 * start when `file` is null.
 */
async function hookAnswer(host, dirs, file, { session = 'lab-expected', row, fields } = {}) {
  const event = {
    session_id: session,
    cwd: dirs.cwd,
    // `fields`: a whole event of a layer row (SubagentStart, UserPromptSubmit, ...).
    ...(fields !== undefined
      ? fields
      : file === null
        ? { hook_event_name: 'SessionStart', source: 'startup' }
        : {
            hook_event_name:
              host.hookEventName ?? (host.hookAgent === 'claude-code' ? 'PostToolUse' : 'AfterTool'),
            ...host.sessionEvent(file, row).hookFields,
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
    const parsed = JSON.parse(answer.stdout);
    // A driver whose host reads another answer shape says where the text is (Cline CLI's).
    return (
      (host.hookAnswerText ? host.hookAnswerText(parsed) : parsed.hookSpecificOutput?.additionalContext) ?? ''
    );
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
    // A start row always resolves something the host does not load itself: nothing is a difference.
    out.live = host.wrapHookStart(mustAdd(await hookAnswer(host, dirs, null)));
  } else if (row.hook && row.compact) {
    out.live = await expectedCompacted(host, row, dirs);
  } else if (row.hook && row.resume) {
    out.live = await expectedResumed(host, row, dirs);
  } else if (row.hook) {
    // The hook's answer to the first read; a later read in the same places adds nothing (once).
    const [first, ...later] = readsOf(row);
    const answer = host.wrapHook(mustAdd(await hookAnswer(host, dirs, path.join(dirs.repo, first), { row })));
    out.live = [answer, ...later.map(() => '')].join(READ_SEPARATOR);
  } else if (row.read) {
    const { hookFields, ...sessionEvent } = host.sessionEvent(path.join(dirs.repo, row.read), row);
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

/**
 * A hook row is about what the hook adds: were its own answer to a first touch empty (a tool the
 * hook does not map, a broken protocol), the host would add nothing too and both sides would agree
 * on nothing; so an empty answer is a difference.
 */
const mustAdd = (text) => (text === '' ? '(the hook adds nothing to a first touch of this place)' : text);

/**
 * What a `compact` row must show: the first read's answer once before the compaction; after it,
 * what the model lost comes back once: the start's text (a session start's answer) and what the
 * next read brings a fresh session, each taken from a fresh session of the hook, never from the
 * run's own state.
 * A host whose compaction ends in a session start (`compactStart: 'session-start'`, Claude Code)
 * shows the start's text there; the others with the next tool call, before what it touched
 * (docs/hooks.md, "/clear and compaction").
 */
async function expectedCompacted(host, row, dirs) {
  const run = row.compact.run ?? 0;
  const reads = run === 0 ? row.reads : row.resume.reads;
  const answer = async (file, session) =>
    mustAdd(await hookAnswer(host, dirs, path.join(dirs.repo, file), { session, row }));
  // A compaction in a resumed run: the reads before it as `expectedResumed` has them.
  const before =
    run === 0
      ? [host.wrapHook(await answer(reads[0], 'lab-expected')), ...Array(row.compact.after - 2).fill('')]
      : await expectedResumed(host, row, dirs, row.compact.after - 1);
  // The first read after the compaction, as a fresh session's first read.
  const read = await answer(reads[row.compact.after], 'lab-expected-after');
  const start = await hookAnswer(host, dirs, null, { session: 'lab-expected-start' });
  const rest = Array(reads.length - row.compact.after - 1).fill('');
  const after =
    host.compactStart === 'session-start'
      ? [host.wrapCompactStart(start), host.wrapHook(read), ...rest]
      : [host.wrapHook([start, read].filter((text) => text !== '').join('\n\n')), ...rest];
  return [...before, COMPACTED, ...after].join(READ_SEPARATOR);
}

/**
 * What a `resume` row must show: each read's answer from a fresh session of the hook when no
 * earlier read of either run was in its directory, else nothing (the state survived the resume).
 */
async function expectedResumed(host, row, dirs, upTo = row.resume.reads.length) {
  const files = [...readsOf(row), RESUMED, ...row.resume.reads.slice(0, upTo)];
  const seen = new Set();
  const parts = [];
  for (const [index, file] of files.entries()) {
    if (file === RESUMED) {
      parts.push(RESUMED);
      continue;
    }
    const dir = path.posix.dirname(file);
    const fresh = seen.has(dir)
      ? ''
      : host.wrapHook(
          mustAdd(
            await hookAnswer(host, dirs, path.join(dirs.repo, file), { session: `lab-fresh-${index}`, row }),
          ),
        );
    seen.add(dir);
    parts.push(fresh);
  }
  return upTo === row.resume.reads.length ? parts.join(READ_SEPARATOR) : parts;
}

/** The main requests between two positions of the recorded ones, a compaction's own left out. */
function mainBetween(host, attempt, from, to) {
  return attempt.requests
    .slice(from, to)
    .filter((record) => host.isMain(record) && !attempt.compactions.includes(record));
}

/** What reached the model in a `compact` row, in the shape of {@link expectedCompacted}. */
function actualCompacted(host, attempt, row) {
  const at = attempt.requests.indexOf(attempt.compactions[0]);
  if (at < 0) return '(the host did not ask for a summary: it never compacted)';
  const run = row.compact.run ?? 0;
  const reads = run === 0 ? row.reads : row.resume.reads;
  const before =
    run === 0
      ? addedPerRead(host, mainBetween(host, attempt, 0, at), row.compact.after - 1)
      : actualResumed(host, attempt, row, { to: at, upTo: row.compact.after - 1 });
  // After the compaction, reads count from what the first request carries (a host keeps some).
  const after = mainBetween(host, attempt, at + 1);
  const parts = [...before, COMPACTED];
  if (host.compactStart === 'session-start') parts.push(host.extractCompactStart(after[0]?.body));
  const base = after[0] ? host.toolResultCount(after[0].body) : 0;
  const baseline = after[0] ? addedBy(host, after[0].body) : '';
  parts.push(...addedPerRead(host, after, reads.length - row.compact.after, { base, baseline }));
  return parts.join(READ_SEPARATOR);
}

/** What reached the model in a `resume` row, in the shape of {@link expectedResumed}. */
function actualResumed(host, attempt, row, { to = attempt.requests.length, upTo } = {}) {
  const first = mainBetween(host, attempt, 0, attempt.resumedAt ?? to);
  const second = mainBetween(host, attempt, attempt.resumedAt ?? to, to);
  const base = second[0] ? host.toolResultCount(second[0].body) : 0;
  const baseline = second[0] ? addedBy(host, second[0].body) : '';
  const parts = [
    ...addedPerRead(host, first, readsOf(row).length),
    RESUMED,
    ...addedPerRead(host, second, upTo ?? row.resume.reads.length, { base, baseline }),
  ];
  return upTo === undefined ? parts.join(READ_SEPARATOR) : parts;
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
  if (row.resume && fs.existsSync(`${traceFile}.resume`))
    egress.push(...outsideConnects(fs.readFileSync(`${traceFile}.resume`, 'utf8')));
  const main = attempt.requests.filter((record) => host.isMain(record));
  const result = {
    host: host.id,
    case: row.id,
    retried,
    egress,
    requests: attempt.requests.map((r) => `${r.method} ${r.url}`),
  };
  fs.writeFileSync(path.join(dir, 'requests.json'), JSON.stringify(attempt.requests, null, 1));
  if (attempt.timedOut || main.length === 0) {
    return { ...result, status: attempt.timedOut ? 'timeout' : 'error', log };
  }
  if (row.count) return { ...result, ...judgeCount(host, row, attempt), log, dir };
  if (row.subagent || row.mode) {
    const answer = (fields) => hookAnswer(host, dirs, null, { session: 'lab-expected', row, fields });
    return { ...result, ...(await judgeLayers(host, row, attempt.requests, answer)), log, dir };
  }
  const actual = { static: host.extractStatic(main[0].body, row) };
  if (row.hookStart) {
    actual.live = host.extractHookStart(main[0].body);
  } else if (row.compact) {
    actual.live = actualCompacted(host, attempt, row);
  } else if (row.resume) {
    actual.live = actualResumed(host, attempt, row);
  } else if (row.reads) {
    actual.live = addedPerRead(host, main, row.reads.length).join(READ_SEPARATOR);
  } else if (row.read || row.write || row.mcp) {
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
    host.hookAgent === 'claude-code' && actual.static
      ? { claudeCodeIntro: claudeIntro(actual.static) }
      : (host.wording?.(main[0].body, row) ?? null);
  const expected = await ctxfiles(host, row, dirs, attempt.setup, { wording });
  const part = row.read || row.reads || row.write || row.mcp || row.hookStart ? 'live' : 'static';
  const same = expected[part] === actual[part];
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
    .filter((row) => !row.compact || host.isCompaction)
    .filter((row) => !row.resume || host.resumes)
    .filter((row) => !row.mcp || host.mcpCall)
    .filter((row) => !row.subagent || host.subagentCall)
    .filter((row) => !row.mode || host.modeArgs)
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
