// `node bench/manifest-cpu.mjs [medium] [large]` (after `npm run build`): `ctxfiles manifest` against
// GNU find in CPU time (user + system, GNU time), rules on (the default) and off, on the trees of
// bench/generate.mjs (written under bench/.work on first use), paired round by round with
// `node -e 0`, find with the walk's pruning and a minimal Node walk (one `readdirSync` with file
// types per directory, the same pruning, no sorting, no labels): the floor a Node process that
// lists the tree can reach. Goals (issue 42): large ≤ 0.6× find, medium ≤ 1.3× find. CPU time is
// the figure on a shared machine, where wall time measures the other processes. Each
// configuration keeps a compile cache of its own (written by the warm-up round), and both
// configurations must print the same bytes. `BENCH_BIN` measures another build's bin. A benchmark,
// not a test.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { generate } from './generate.mjs';
import { findArgs, median, withoutExtraCerts } from './measure.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '..');
const bin = process.env.BENCH_BIN ?? path.join(repo, 'dist/bin/ctxfiles.cjs');
const work = path.join(here, '.work');
const runs = Number(process.env.BENCH_RUNS ?? 9);
const GOALS = { medium: 1.3, large: 0.6 };
const sizes = process.argv.slice(2).filter((arg) => arg in GOALS);
const { PRUNED_DIRECTORIES } = await import(path.join(repo, 'dist/discover/nested-walk.js'));

/** A user config (the walk's caps at their most, rules on or off) in its own XDG_CONFIG_HOME. */
function configHome(name, config) {
  const home = path.join(work, name);
  fs.mkdirSync(path.join(home, 'ctxfiles'), { recursive: true });
  fs.writeFileSync(path.join(home, 'ctxfiles/config.json'), JSON.stringify(config));
  return home;
}

const caps = { maxDepth: 64, maxFiles: 10_000, maxManifestBytes: 1_048_576 };
const configs = {
  on: configHome('xdg-cpu-on', { contextDiscovery: caps }),
  off: configHome('xdg-cpu-off', { contextDiscovery: caps, rules: { sources: [] } }),
};
const envOf = (name) => ({
  ...withoutExtraCerts(process.env),
  XDG_CONFIG_HOME: configs[name],
  XDG_CACHE_HOME: path.join(work, `cache-cpu-${name}`),
});

const minimalWalk = `const fs = require('fs');
const pruned = new Set(${JSON.stringify([...PRUNED_DIRECTORIES])});
const found = []; const stack = [process.cwd()];
while (stack.length > 0) {
  const dir = stack.pop();
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const name = entry.name;
    if (name.charCodeAt(0) === 46) continue;
    if (entry.isDirectory()) { if (!pruned.has(name)) stack.push(dir + '/' + name); }
    else if (name === 'AGENTS.md') found.push(dir + '/' + name);
  }
}
process.stdout.write(found.join('\\n'));`;

/** One command under GNU time: CPU (user + system) and user time in ms, peak RSS in MB, its output. */
function timed(command, args, options = {}) {
  const result = spawnSync('/usr/bin/time', ['-f', '%U %S %M', command, ...args], {
    encoding: 'utf8',
    maxBuffer: 1 << 28,
    ...options,
    env: options.env ?? withoutExtraCerts(process.env),
  });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed: ${result.stderr}`);
  const [user, system, kb] = result.stderr.trim().split('\n').pop().split(' ').map(Number);
  return { cpu: (user + system) * 1000, user: user * 1000, rss: kb / 1024, stdout: result.stdout };
}

for (const size of sizes.length > 0 ? sizes : ['medium', 'large']) {
  const tree = generate(path.join(work, size), size);
  fs.writeFileSync(path.join(tree.root, '.opencode.json'), JSON.stringify({ contextPaths: ['AGENTS.md'] }));
  const root = fs.realpathSync(tree.root);
  const commands = {
    'node -e 0': () => timed(process.execPath, ['-e', '0']),
    find: () => timed('find', findArgs(PRUNED_DIRECTORIES, root)),
    'minimal Node walk': () => timed(process.execPath, ['-e', minimalWalk], { cwd: root }),
    'manifest, rules on': () => timed(process.execPath, [bin, 'manifest'], { cwd: root, env: envOf('on') }),
    'manifest, rules off': () => timed(process.execPath, [bin, 'manifest'], { cwd: root, env: envOf('off') }),
  };
  const samples = Object.fromEntries(Object.keys(commands).map((label) => [label, []]));
  for (let round = 0; round <= runs; round += 1) {
    const outputs = [];
    for (const [label, run] of Object.entries(commands)) {
      const sample = run();
      if (label.startsWith('manifest')) outputs.push(sample.stdout);
      if (round > 0) samples[label].push(sample);
    }
    if (outputs[0] !== outputs[1]) throw new Error(`${size}: manifest differs with rules on and off`);
  }
  const find = median(samples.find.map((sample) => sample.cpu));
  for (const [label, list] of Object.entries(samples)) {
    const cpu = median(list.map((sample) => sample.cpu));
    const user = median(list.map((sample) => sample.user));
    const rss = median(list.map((sample) => sample.rss));
    const goal =
      label === 'manifest, rules on'
        ? `, goal ≤ ${GOALS[size]}×: ${cpu / find <= GOALS[size] ? 'met' : 'MISSED'}`
        : '';
    console.log(
      `${`${size}: ${label}`.padEnd(34)} CPU ${cpu.toFixed(0).padStart(5)} ms (user ${user.toFixed(0)}), ${rss.toFixed(1)} MB  ${(cpu / find).toFixed(2)}× find${goal}`,
    );
  }
}
