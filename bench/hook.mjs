// `node bench/hook.mjs [small|medium|large…]` (after `npm run build`): the cost of one whole
// `ctxfiles hook claude-code` process when nothing is due, against `node -e 0`, on the generated
// trees of bench/generate.mjs. Target: ≤ 1.5× `node -e 0`. A benchmark, not a test. Runs each pair
// BENCH_RUNS times (default 15), interleaved after one warm-up round, and prints medians. The
// measured processes keep their compile cache in bench/.work/cache (bench/measure.mjs).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { generate, SIZES } from './generate.mjs';
import { cacheEnv, runCommand, timeCommands } from './measure.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const bin = path.join(here, '..', 'dist/bin/ctxfiles.cjs');
const work = path.join(here, '.work');
const runs = Number(process.env.BENCH_RUNS ?? 15);
const sizes = process.argv.slice(2).filter((arg) => arg in SIZES);

for (const size of sizes.length > 0 ? sizes : ['small', 'large']) {
  const tree = generate(path.join(work, size), size);
  const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ctxfiles-hook-bench-'));
  const env = { ...cacheEnv, CTXFILES_STATE_DIR: stateDir };
  const event = (extra) =>
    JSON.stringify({ session_id: 'bench', transcript_path: '/dev/null', cwd: tree.root, ...extra });
  const nested = tree.expected[0];
  const touched = path.join(tree.root, path.dirname(nested), 'f0.ts');
  const read = event({
    hook_event_name: 'PostToolUse',
    tool_name: 'Read',
    tool_input: { file_path: touched },
  });
  // `ctxfiles hook claude-code` reading `input`, as a command of bench/measure.mjs.
  const hookOn = (input) => [process.execPath, [bin, 'hook', 'claude-code'], { input, env }];
  // Session start, then the first read injects the file's owners; every later read has nothing due.
  runCommand(hookOn(event({ hook_event_name: 'SessionStart', source: 'startup' })));
  const first = runCommand(hookOn(read));
  if (!first.stdout.includes('additionalContext')) throw new Error(`nothing injected for ${touched}`);
  const [node, hook] = timeCommands(
    [[process.execPath, ['-e', '0'], { input: read, env }], hookOn(read)],
    runs,
    {
      check: (result, index) => {
        if (index === 1 && (result.stdout !== '' || result.stderr !== ''))
          throw new Error(`the hook answered: ${result.stdout}${result.stderr}`);
      },
    },
  );
  const ratio = hook / node;
  console.log(
    `${`hook, nothing due (${size}: ${tree.files} files, ${tree.expected.length} nested)`.padEnd(60)} ` +
      `${hook.toFixed(1)} ms vs node -e 0 ${node.toFixed(1)} ms = ${ratio.toFixed(2)}×, target ≤ 1.5×: ${ratio <= 1.5 ? 'ok' : 'MISSED'}`,
  );
  // Codex as `ctxfiles init codex` writes it: its shell tool, read for paths (--shell-paths).
  const bash = event({
    hook_event_name: 'PostToolUse',
    tool_name: 'Bash',
    tool_input: { command: `ls -la ${path.dirname(touched)} | head -20` },
  });
  const codexOn = (input) => [process.execPath, [bin, 'hook', 'codex', '--shell-paths'], { input, env }];
  runCommand(codexOn(event({ hook_event_name: 'SessionStart', source: 'startup' })));
  if (!runCommand(codexOn(bash)).stdout.includes('additionalContext'))
    throw new Error('nothing injected for codex');
  const [node2, codex] = timeCommands(
    [[process.execPath, ['-e', '0'], { input: bash, env }], codexOn(bash)],
    runs,
    {
      check: (result, index) => {
        if (index === 1 && result.stdout !== '') throw new Error(`the codex hook answered: ${result.stdout}`);
      },
    },
  );
  console.log(
    `${`codex hook --shell-paths, nothing due (${size})`.padEnd(60)} ${codex.toFixed(1)} ms vs node -e 0 ${node2.toFixed(1)} ms = ${(codex / node2).toFixed(2)}×`,
  );
  fs.rmSync(stateDir, { recursive: true, force: true });
}
