// `node bench/hook.mjs [small|medium|large…]` (after `npm run build`): the cost of one whole
// `ctxfiles hook claude-code` process when nothing is due, against `node -e 0`, on the generated
// trees of bench/generate.mjs. Target: ≤ 1.5× `node -e 0`. A benchmark, not a test. Runs each pair
// BENCH_RUNS times (default 15), interleaved, and prints medians.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { generate, SIZES } from './generate.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const bin = path.join(here, '..', 'dist/bin/ctxfiles.cjs');
const work = path.join(here, '.work');
const runs = Number(process.env.BENCH_RUNS ?? 15);
const sizes = process.argv.slice(2).filter((arg) => arg in SIZES);

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

function spawn(args, input, env) {
  const start = process.hrtime.bigint();
  const result = spawnSync(process.execPath, args, { input, encoding: 'utf8', env });
  const elapsed = Number(process.hrtime.bigint() - start) / 1e6;
  if (result.status !== 0) throw new Error(`node ${args.join(' ')} failed: ${result.stderr}`);
  return { elapsed, stdout: result.stdout, stderr: result.stderr };
}

for (const size of sizes.length > 0 ? sizes : ['small', 'large']) {
  const tree = generate(path.join(work, size), size);
  const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ctxfiles-hook-bench-'));
  const env = { ...process.env, CTXFILES_STATE_DIR: stateDir };
  const event = (extra) =>
    JSON.stringify({ session_id: 'bench', transcript_path: '/dev/null', cwd: tree.root, ...extra });
  const nested = tree.expected[0];
  const touched = path.join(tree.root, path.dirname(nested), 'f0.ts');
  const read = event({
    hook_event_name: 'PostToolUse',
    tool_name: 'Read',
    tool_input: { file_path: touched },
  });
  // Session start, then the first read injects the file's owners; every later read has nothing due.
  spawn([bin, 'hook', 'claude-code'], event({ hook_event_name: 'SessionStart', source: 'startup' }), env);
  const first = spawn([bin, 'hook', 'claude-code'], read, env);
  if (!first.stdout.includes('additionalContext')) throw new Error(`nothing injected for ${touched}`);
  const samples = { node: [], hook: [] };
  for (let round = 0; round <= runs; round += 1) {
    const node = spawn(['-e', '0'], read, env);
    const hook = spawn([bin, 'hook', 'claude-code'], read, env);
    if (hook.stdout !== '' || hook.stderr !== '')
      throw new Error(`the hook answered: ${hook.stdout}${hook.stderr}`);
    if (round > 0) {
      samples.node.push(node.elapsed);
      samples.hook.push(hook.elapsed);
    }
  }
  const node = median(samples.node);
  const hook = median(samples.hook);
  const ratio = hook / node;
  console.log(
    `${`hook, nothing due (${size}: ${tree.files} files, ${tree.expected.length} nested)`.padEnd(60)} ` +
      `${hook.toFixed(1)} ms vs node -e 0 ${node.toFixed(1)} ms = ${ratio.toFixed(2)}×, target ≤ 1.5×: ${ratio <= 1.5 ? 'ok' : 'MISSED'}`,
  );
  fs.rmSync(stateDir, { recursive: true, force: true });
}
