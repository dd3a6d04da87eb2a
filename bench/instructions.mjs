// Instruction counts of whole processes under `valgrind --tool=callgrind`, for the start-up rows of
// the bench (docs/performance.md, "Start-up"): deterministic where wall time is not (a shared,
// loaded machine), and the figure a change to start-up is judged by. `NODE_EXTRA_CA_CERTS` is
// unset in the measured processes: Node reads the certificates it names at start (~416 M
// instructions here, four times Node's own start), which would hide ctxfiles' share. Node runs with
// `--hash-seed=1` so that two runs of one build count the same. Skipped (null) when valgrind is
// not installed; the bench installs nothing.
import { spawnSync } from 'node:child_process';
import { withoutExtraCerts } from './measure.mjs';

/** True when `valgrind` runs here. */
export function haveValgrind() {
  return spawnSync('valgrind', ['--version'], { encoding: 'utf8' }).status === 0;
}

/**
 * The instructions one run of `node [...nodeArgs]` executes (every thread), with `options` for
 * spawnSync (cwd, env, input). Throws unless the process ends with status 0.
 */
export function countInstructions(nodeArgs, options = {}) {
  const result = spawnSync(
    'valgrind',
    ['--tool=callgrind', '--callgrind-out-file=/dev/null', process.execPath, '--hash-seed=1', ...nodeArgs],
    { encoding: 'utf8', maxBuffer: 1 << 28, ...options, env: withoutExtraCerts(options.env ?? process.env) },
  );
  const collected = /Collected\s*:\s*(\d+)/.exec(result.stderr ?? '');
  if (result.status !== 0 || collected === null)
    throw new Error(`valgrind node ${nodeArgs.join(' ')} failed (status ${result.status}): ${result.stderr}`);
  return Number(collected[1]);
}

/** `count` in millions, one decimal. */
export function millions(count) {
  return `${(count / 1e6).toFixed(1)} M`;
}
