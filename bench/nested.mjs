// `node bench/nested.mjs` (after `npm run build`): `ctxfiles manifest` on a tree of 10,000
// directories, each with its AGENTS.md (100 packages of 99 modules), with rules on (the default:
// every AGENTS.md is also a Windsurf rule marker, so each directory owns rule locations) and with
// rules off, paired round by round. Targets (issue 42): ≤ 0.9 s and ≤ 70 MB with rules on. Wall,
// CPU (user + system) and peak RSS from GNU time. A benchmark, not a test; also a row of
// `npm run bench`, through {@link measureNested}.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { cacheEnv, median, withoutExtraCerts } from './measure.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const bin = process.env.BENCH_BIN ?? path.join(here, '..', 'dist/bin/ctxfiles.cjs');
const work = path.join(here, '.work');

/** Writes the tree once (kept in bench/.work/nested-10k); returns its root. */
export function nestedTree() {
  const root = path.join(work, 'nested-10k');
  const done = path.join(root, '.bench-tree.json');
  if (fs.existsSync(done)) return root;
  fs.rmSync(root, { recursive: true, force: true });
  fs.mkdirSync(path.join(root, '.git'), { recursive: true });
  fs.writeFileSync(path.join(root, 'AGENTS.md'), '# Project\n');
  for (let pkg = 0; pkg < 100; pkg += 1) {
    const dir = path.join(root, `pkg${pkg}`);
    fs.mkdirSync(dir);
    fs.writeFileSync(path.join(dir, 'AGENTS.md'), `# Package ${pkg}\n`);
    for (let mod = 0; mod < 99; mod += 1) {
      fs.mkdirSync(path.join(dir, `mod${mod}`));
      fs.writeFileSync(path.join(dir, `mod${mod}`, 'AGENTS.md'), `# Module ${pkg}/${mod}\n`);
    }
  }
  fs.writeFileSync(done, JSON.stringify({ dirs: 10_000, nested: 10_000 }));
  return root;
}

/** A user config (the caps at their most, rules on or off) in its own XDG_CONFIG_HOME. */
function configHome(name, config) {
  const home = path.join(work, name);
  fs.mkdirSync(path.join(home, 'ctxfiles'), { recursive: true });
  fs.writeFileSync(path.join(home, 'ctxfiles/config.json'), JSON.stringify(config));
  return home;
}

/** One `manifest` under GNU time: wall and CPU in ms, peak RSS in MB, and its output. */
function timedManifest(root, env) {
  const result = spawnSync('/usr/bin/time', ['-f', '%e %U %S %M', process.execPath, bin, 'manifest'], {
    cwd: root,
    env: withoutExtraCerts(env),
    encoding: 'utf8',
    maxBuffer: 1 << 28,
  });
  if (result.status !== 0) throw new Error(`manifest failed: ${result.stderr}`);
  const [wall, user, system, kb] = result.stderr.trim().split('\n').pop().split(' ').map(Number);
  return { wall: wall * 1000, cpu: (user + system) * 1000, rss: kb / 1024, stdout: result.stdout };
}

/**
 * Medians of `runs` paired rounds (one warm-up round first) of `manifest` with rules on and off:
 * `{ on: { wall, cpu, rss }, off: { wall, cpu, rss }, nested }`. Both must list the same 10,000 files.
 */
export function measureNested(runs) {
  const root = nestedTree();
  const caps = { maxDepth: 64, maxFiles: 10_000, maxManifestBytes: 1_048_576 };
  const on = { ...cacheEnv, XDG_CONFIG_HOME: configHome('xdg-nested', { contextDiscovery: caps }) };
  const off = {
    ...cacheEnv,
    XDG_CONFIG_HOME: configHome('xdg-nested-off', { contextDiscovery: caps, rules: { sources: [] } }),
  };
  const samples = { on: [], off: [] };
  for (let round = 0; round <= runs; round += 1) {
    const pair = { on: timedManifest(root, on), off: timedManifest(root, off) };
    if (pair.on.stdout !== pair.off.stdout) throw new Error('manifest differs with rules on and off');
    const nested = pair.on.stdout.split('\n').filter((entry) => entry.startsWith('- ')).length;
    if (nested !== 10_000) throw new Error(`manifest lists ${nested} files, not 10,000`);
    if (round > 0) for (const key of ['on', 'off']) samples[key].push(pair[key]);
  }
  const medians = (list) => ({
    wall: median(list.map((sample) => sample.wall)),
    cpu: median(list.map((sample) => sample.cpu)),
    rss: median(list.map((sample) => sample.rss)),
  });
  return { on: medians(samples.on), off: medians(samples.off) };
}

/** The bench's lines for {@link measureNested}'s figures. */
export function nestedLines({ on, off }) {
  const ms = (value) => `${(value / 1000).toFixed(2)} s`;
  return [
    [
      '10,000 nested AGENTS.md, manifest, rules on',
      `${ms(on.wall)} (CPU ${ms(on.cpu)}), ${on.rss.toFixed(1)} MB`,
      `target ≤ 0.9 s, ≤ 70 MB: ${on.wall <= 900 && on.rss <= 70 ? 'ok' : 'MISSED'}`,
    ],
    [
      '  the same, rules off',
      `${ms(off.wall)} (CPU ${ms(off.cpu)}), ${off.rss.toFixed(1)} MB`,
      `rules on / off: wall ${(on.wall / off.wall).toFixed(2)}×, CPU ${(on.cpu / off.cpu).toFixed(2)}×`,
    ],
  ];
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const runs = Number(process.env.BENCH_RUNS ?? 5);
  for (const [label, value, extra] of nestedLines(measureNested(runs)))
    console.log(`${label.padEnd(60)} ${value}  ${extra}`);
}
