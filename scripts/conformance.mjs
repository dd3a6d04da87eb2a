// `npm run conformance`: the conformance lab (docs/conformance.md). Installs each host at its
// pinned version into a cache outside the project, runs every case of each host inside a network
// namespace that has only loopback, compares what reached the model with what ctxfiles prints,
// checks the result against test/conformance/known-differences.json, prints host × version ×
// matched/total and writes docs/conformance.md. Exit 1 when a case differs and is not listed, a
// listed case matches, a case fails or times out (after one retry), or a host tried to reach an
// address off the machine. A host that cannot be installed is SKIPPED, never passed.
// Options: --host ID (repeatable), --case ID (repeatable), --no-docs, --verbose.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { minimalDiff } from '../test/conformance/diff.mjs';
import { HOSTS } from '../test/conformance/hosts/index.mjs';
import { CASES } from '../test/conformance/cases.mjs';
import { judge, summarize } from '../test/conformance/judge.mjs';
import { NOT_DRIVEN, writeReport } from '../test/conformance/report.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const lab = path.join(root, 'test/conformance');
const cacheRoot =
  process.env.CONFORMANCE_CACHE ??
  path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'ctxfiles-lab');
// A bound, not a budget: the slowest host, Kilo CLI 7.7.7, spends ~24 s of CPU starting each case
// (~37 s a case on the 2-core CI machine) over ~50 cases.
const HOST_TIMEOUT_MS = 45 * 60_000;
const INSTALL_TIMEOUT_MS = 10 * 60_000;

function options(argv) {
  const opts = { hosts: [], cases: [], docs: true, verbose: false };
  for (let i = 0; i < argv.length; i += 1) {
    if (argv[i] === '--host') opts.hosts.push(argv[++i]);
    else if (argv[i] === '--case') opts.cases.push(argv[++i]);
    else if (argv[i] === '--no-docs') opts.docs = false;
    else if (argv[i] === '--verbose') opts.verbose = true;
    else throw new Error(`unknown option ${argv[i]}`);
  }
  return opts;
}

/** Runs a command to its end or its time limit, output captured. */
function exec(command, args, { cwd, timeoutMs, env = process.env }) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.stderr.on('data', (chunk) => {
      out += chunk;
      if (process.env.CONFORMANCE_PROGRESS !== '0') process.stderr.write(chunk);
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', (error) => (out += String(error)));
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, out });
    });
  });
}

/** The host's install dir, installing its pinned packages first when the cache lacks them. */
async function install(host) {
  const dir = path.join(cacheRoot, host.packages[0].replaceAll('/', '+'));
  const marker = path.join(dir, '.lab-installed');
  const want = host.packages.join(' ');
  if (
    fs.existsSync(marker) &&
    fs.readFileSync(marker, 'utf8') === want &&
    fs.existsSync(path.join(dir, host.bin))
  ) {
    return { dir, cached: true };
  }
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'package.json'), '{"private":true}\n');
  // Run from the install dir itself: a spec like `name@1.2.3` must never match a folder of the cwd.
  const args = ['install', '--prefix', '.', '--no-audit', '--no-fund', '--ignore-scripts', ...host.packages];
  const result = await exec('npm', args, { cwd: dir, timeoutMs: INSTALL_TIMEOUT_MS });
  if (result.code !== 0 || !fs.existsSync(path.join(dir, host.bin))) {
    return {
      dir,
      error: `npm install ${want} failed (exit ${result.code}): ${result.out.trim().split('\n').slice(-3).join(' ')}`,
    };
  }
  fs.writeFileSync(marker, want);
  return { dir, cached: false };
}

/** Whether `unshare --net` works here: each host then runs with loopback only. */
function canIsolate() {
  const probe = spawnSync('unshare', ['--net', '--', 'sh', '-c', 'ip link set lo up'], { timeout: 10_000 });
  return probe.status === 0;
}

async function runHost(host, installDir, opts, isolated, work) {
  const out = path.join(work, `${host.id}.json`);
  const node = [path.join(lab, 'run-host.mjs'), host.id, installDir, out, ...opts.cases];
  const env = { ...process.env, CONFORMANCE_WORK: work };
  const result = isolated
    ? await exec(
        'unshare',
        ['--net', '--', 'sh', '-c', 'ip link set lo up && exec "$0" "$@"', process.execPath, ...node],
        {
          cwd: root,
          env,
          timeoutMs: HOST_TIMEOUT_MS,
        },
      )
    : await exec(process.execPath, node, { cwd: root, env, timeoutMs: HOST_TIMEOUT_MS });
  if (!fs.existsSync(out))
    return { error: `the host runner failed (exit ${result.code}): ${result.out.slice(-2000)}` };
  return JSON.parse(fs.readFileSync(out, 'utf8'));
}

/** Runs `jobs` with at most `limit` at once. */
async function pool(jobs, limit) {
  const results = new Array(jobs.length);
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, jobs.length) }, async () => {
    while (next < jobs.length) {
      const index = next++;
      results[index] = await jobs[index]();
    }
  });
  await Promise.all(workers);
  return results;
}

function printFailures(host, judged, verbose) {
  for (const item of judged) {
    if (item.pass && !verbose) continue;
    if (item.pass && item.outcome === 'match') continue;
    console.log(
      `\n${item.pass ? 'listed' : 'FAIL'} ${host.id} ${item.case}: ${item.outcome}${item.problem ? ` — ${item.problem}` : ''}`,
    );
    if (item.result.egress?.length)
      console.log(`  connect attempts off the machine:\n    ${item.result.egress.join('\n    ')}`);
    if (item.outcome === 'timeout' || item.outcome === 'error') console.log(item.result.log);
    else if (item.result.expected !== undefined && (!item.pass || verbose)) {
      console.log(minimalDiff(item.result.expected, item.result.actual).replace(/^/gm, '  '));
      if (!item.pass) console.log(`  (case files and recorded requests: ${item.result.dir})`);
    }
  }
}

async function main() {
  const opts = options(process.argv.slice(2));
  const started = Date.now();
  const hosts = HOSTS.filter((host) => opts.hosts.length === 0 || opts.hosts.includes(host.id));
  const isolated = canIsolate();
  if (!isolated) {
    console.log(
      'conformance: unshare --net is not available here: hosts run WITHOUT network isolation; connect attempts off the machine are still detected and fail the run.',
    );
  }
  fs.mkdirSync(cacheRoot, { recursive: true });
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'ctxfiles-lab-'));
  const known = JSON.parse(fs.readFileSync(path.join(lab, 'known-differences.json'), 'utf8'));
  const installs = [];
  for (const host of hosts) installs.push(await install(host));
  const runs = await pool(
    hosts.map(
      (host, index) => async () =>
        installs[index].error
          ? { skipped: installs[index].error }
          : runHost(host, installs[index].dir, opts, isolated, work),
    ),
    2,
  );
  const rows = [];
  let failed = false;
  hosts.forEach((host, index) => {
    const outcome = runs[index];
    if (outcome.skipped || outcome.error) {
      rows.push({ host, skipped: outcome.skipped ?? outcome.error, judged: [] });
      if (outcome.error) failed = true;
      return;
    }
    const judged = judge(host.id, outcome.results, known, { partial: opts.cases.length > 0 });
    printFailures(host, judged, opts.verbose);
    if (judged.some((item) => !item.pass)) failed = true;
    rows.push({ host, judged, summary: summarize(judged) });
  });
  console.log('\nhost          version   matched/total  deliberate  open  failed');
  for (const row of rows) {
    const name = row.host.label.padEnd(13);
    if (row.skipped) console.log(`${name} ${row.host.version.padEnd(9)} SKIPPED: ${row.skipped}`);
    else {
      const s = row.summary;
      console.log(
        `${name} ${row.host.version.padEnd(9)} ${`${s.matched}/${s.total}`.padEnd(14)} ${String(s.deliberate).padEnd(11)} ${String(s.open).padEnd(5)} ${s.failed}`,
      );
    }
  }
  const seconds = Math.round((Date.now() - started) / 1000);
  console.log(
    `\n${isolated ? 'network: loopback-only namespace per host' : 'network: NOT isolated (detection only)'}; ${seconds} s; cache ${cacheRoot}`,
  );
  if (opts.docs && opts.hosts.length === 0 && opts.cases.length === 0) {
    writeReport(path.join(root, 'docs/conformance.md'), {
      rows,
      known,
      cases: CASES,
      notDriven: NOT_DRIVEN,
      isolated,
      seconds,
    });
    console.log('wrote docs/conformance.md');
  }
  if (!failed) fs.rmSync(work, { recursive: true, force: true });
  process.exitCode = failed ? 1 : 0;
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
