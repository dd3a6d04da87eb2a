// Timing helpers shared by the bench scripts (bench/run.mjs, rules.mjs, hook.mjs, import.mjs):
// medians, commands timed round by round with a warm-up round and an exit-status check, and the
// environment that keeps the measured processes' compile cache in bench/.work/cache.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));

/**
 * The compile cache (docs/performance.md, "Start-up") of the measured processes goes in the
 * bench's own cache dir, not the user's: the warm-up round of each command writes it, as a user's
 * first run would.
 */
export const cacheHome = path.join(here, '.work', 'cache');

/** `process.env` with XDG_CACHE_HOME at {@link cacheHome}: pass it (or a spread of it) to every measured process. */
export const cacheEnv = { ...withoutExtraCerts(process.env), XDG_CACHE_HOME: cacheHome };

/**
 * `env` without NODE_EXTRA_CA_CERTS: Node reads the certificates it names at start, which costs
 * four times Node's own start here (~416 M instructions) and would hide what ctxfiles adds to it.
 * Every measured process, `node -e 0` included, starts without it.
 */
export function withoutExtraCerts(env) {
  const { NODE_EXTRA_CA_CERTS: _unset, ...rest } = env;
  return rest;
}

/** The median; the mean of the two middle values for an even count. */
export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/**
 * Runs one command (`[command, args, spawnSync options]`), throws unless it exits with status 0,
 * and returns its wall time in ms with its output.
 */
export function runCommand([command, args, options = {}]) {
  const start = process.hrtime.bigint();
  const result = spawnSync(command, args, {
    encoding: 'utf8',
    maxBuffer: 1 << 28,
    ...options,
    env: withoutExtraCerts(options.env ?? process.env),
  });
  const elapsed = Number(process.hrtime.bigint() - start) / 1e6;
  if (result.status !== 0)
    throw new Error(
      `${command} ${args.join(' ')} failed (${result.error?.message ?? `status ${result.status}, signal ${result.signal}`}): ${result.stderr ?? ''}`,
    );
  return { elapsed, stdout: result.stdout, stderr: result.stderr };
}

/**
 * Samples of several commands measured pair by pair: each round runs every command once, in turn,
 * so that they share the same machine conditions. One warm-up round first, not kept; then `runs`
 * rounds. `check(result, index)` may throw on a wrong answer (every round, the warm-up too);
 * `sample(result, index)` picks the figure kept (default: the wall time in ms) and must give a
 * finite number.
 */
export function sampleCommands(commands, runs, { check, sample = (result) => result.elapsed } = {}) {
  const samples = commands.map(() => []);
  for (let round = 0; round <= runs; round += 1) {
    commands.forEach((command, index) => {
      const result = runCommand(command);
      check?.(result, index);
      const value = sample(result, index);
      if (!Number.isFinite(value))
        throw new Error(`${command[0]} ${command[1].join(' ')} gave no figure: ${result.stdout}`);
      if (round > 0) samples[index].push(value);
    });
  }
  return samples;
}

/** Median wall times in ms of several commands, measured like {@link sampleCommands}. */
export function timeCommands(commands, runs, options) {
  return sampleCommands(commands, runs, options).map(median);
}

/**
 * GNU find's arguments for the baseline of the manifest rows: every AGENTS.md below `root`, not
 * entering dot directories or the directories the nested walk prunes (`pruned`, its
 * PRUNED_DIRECTORIES), so that find and ctxfiles look at the same tree.
 */
export function findArgs(pruned, root) {
  const prune = ['-name', '.*'];
  for (const dir of pruned) prune.push('-o', '-name', dir);
  return [
    root,
    '-mindepth',
    '1',
    '(',
    ...prune,
    ')',
    '-prune',
    '-o',
    '-type',
    'f',
    '-name',
    'AGENTS.md',
    '-print',
  ];
}
