// `npm run bench`: generates seeded synthetic monorepos, checks that ctxfiles finds exactly the
// expected files, then measures ctxfiles against baselines measured in the same run and prints
// medians and ratios. Writes bench/report.json. A benchmark, not a test: nothing here fails CI.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { generate, SIZES } from './generate.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '..');
const bin = path.join(repo, 'dist/bin/ctxfiles.js');
const work = path.join(here, '.work');
const only = process.argv.slice(2);
const runs = Number(process.env.BENCH_RUNS ?? 7);

const { createResolver, parseConfig, createNodeFileSystem } = await import(path.join(repo, 'dist/index.js'));
const { walkNested, PRUNED_DIRECTORIES } = await import(path.join(repo, 'dist/discover/nested-walk.js'));

const report = { date: new Date().toISOString(), node: process.version, runs, figures: {} };
const line = (label, value, extra = '') => console.log(`${label.padEnd(58)} ${value}${extra ? `  ${extra}` : ''}`);
const ms = (value) => `${value.toFixed(2)} ms`;

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** Median wall time of a command, in ms, after one warm-up run. */
function timeCommand(command, args, options = {}) {
  const samples = [];
  for (let index = 0; index <= runs; index += 1) {
    const start = process.hrtime.bigint();
    const result = spawnSync(command, args, { encoding: 'utf8', maxBuffer: 1 << 28, ...options });
    const elapsed = Number(process.hrtime.bigint() - start) / 1e6;
    if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed: ${result.stderr}`);
    if (index > 0) samples.push(elapsed);
  }
  return median(samples);
}

/** Median time of an in-process function, in ms. */
function timeFunction(fn) {
  fn();
  const samples = [];
  for (let index = 0; index < runs; index += 1) {
    const start = process.hrtime.bigint();
    fn();
    samples.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  return median(samples);
}

/** Peak RSS of a whole process in MB, from GNU time when it is installed. */
function peakRss(args, cwd) {
  const result = spawnSync('/usr/bin/time', ['-f', '%M', process.execPath, ...args], { cwd, encoding: 'utf8', maxBuffer: 1 << 28 });
  if (result.status !== 0) return null;
  const kb = Number(result.stderr.trim().split('\n').pop());
  return Number.isFinite(kb) ? kb / 1024 : null;
}

function findArgs(root) {
  const prune = ['-name', '.*'];
  for (const dir of PRUNED_DIRECTORIES) prune.push('-o', '-name', dir);
  return [root, '-mindepth', '1', '(', ...prune, ')', '-prune', '-o', '-type', 'f', '-name', 'AGENTS.md', '-print'];
}

const hasRg = spawnSync('rg', ['--version']).status === 0;
const limits = { maxDepth: 64, maxFiles: 1_000_000 };
const benchConfig = JSON.stringify({ contextPaths: ['AGENTS.md'], contextDiscovery: { maxDepth: 64, maxFiles: 1000000, maxManifestBytes: 100000000 } });

// 1. Trees and correctness.
const trees = {};
for (const size of Object.keys(SIZES)) {
  if (only.length > 0 && !only.includes(size) && size !== 'medium') continue;
  const started = Date.now();
  const tree = generate(path.join(work, size), size);
  fs.writeFileSync(path.join(tree.root, '.opencode.json'), benchConfig);
  trees[size] = tree;
  const found = walkNested(createNodeFileSystem(), fs.realpathSync(tree.root), new Set(['AGENTS.md']), limits).files.map((file) => file.relativePath);
  const ok = JSON.stringify(found) === JSON.stringify(tree.expected);
  line(`tree ${size}: ${tree.files} files, ${tree.dirs} dirs, ${tree.expected.length} nested`, ok ? 'walk finds exactly the expected files' : 'MISMATCH', `(${Date.now() - started} ms to prepare)`);
  if (!ok) {
    console.error('expected', tree.expected.slice(0, 5), 'found', found.slice(0, 5));
    process.exit(1);
  }
  report.figures[`tree.${size}`] = { files: tree.files, dirs: tree.dirs, nested: tree.expected.length };
}

// 2. Baselines.
const nodeStart = timeCommand(process.execPath, ['-e', '0']);
line('baseline: node -e 0', ms(nodeStart));
report.figures['baseline.node'] = nodeStart;

// 3. Walk against find (and rg), per tree.
const walkTimes = {};
for (const [size, tree] of Object.entries(trees)) {
  const root = fs.realpathSync(tree.root);
  const find = timeCommand('find', findArgs(root));
  const walk = timeFunction(() => walkNested(createNodeFileSystem(), root, new Set(['AGENTS.md']), limits));
  walkTimes[size] = walk;
  line(`${size}: find with pruning`, ms(find));
  if (hasRg) {
    const rg = timeCommand('rg', ['-j1', '--files', '-g', 'AGENTS.md', root], {});
    line(`${size}: rg -j1 --files`, ms(rg), `walk / rg = ${(walk / rg).toFixed(2)}×`);
    report.figures[`${size}.rg`] = rg;
  }
  line(`${size}: discovery walk, in-process`, ms(walk), `walk / find = ${(walk / find).toFixed(2)}× (target ≤ 1.5×)`);
  const manifest = timeCommand(process.execPath, [bin, 'manifest'], { cwd: root });
  line(`${size}: ctxfiles manifest, whole process`, ms(manifest), `manifest / find = ${(manifest / find).toFixed(2)}× (target ≤ 0.9× on large)`);
  report.figures[size] = { find, walk, manifest, walkVsFind: walk / find, manifestVsFind: manifest / find };
  if (size === 'large') {
    const rss = peakRss([bin, 'manifest'], root);
    line('large: peak RSS of ctxfiles manifest', rss === null ? 'n/a (no GNU time)' : `${rss.toFixed(1)} MB`, '(target ≤ 120 MB)');
    report.figures['large.peakRssMb'] = rss;
  }
}
if (walkTimes.large !== undefined && walkTimes.medium !== undefined) {
  const growth = walkTimes.large / walkTimes.medium / (trees.large.files / trees.medium.files);
  line('growth: (walk large / medium) / (files large / medium)', `${growth.toFixed(2)}×`, '(target ≤ 1.1× linear)');
  report.figures.growth = growth;
}

// 4. Cold start of resolve on the example.
const example = path.join(repo, 'examples/monorepo');
const cold = timeCommand(process.execPath, [bin, 'resolve'], { cwd: example });
line('ctxfiles resolve on examples/monorepo, whole process', ms(cold), `vs node -e 0 = ${(cold / nodeStart).toFixed(2)}× (target ≤ 1.6×)`);
report.figures.coldResolve = { ms: cold, vsNode: cold / nodeStart };

// 5. In-process: memoized resolve and afterTool.
{
  const resolver = await createResolver({ workDir: example, env: {} });
  await resolver.resolve({ agent: 'coder' });
  const calls = 1_000_000;
  const start = process.hrtime.bigint();
  for (let index = 0; index < calls; index += 1) await resolver.resolve({ agent: 'coder' });
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  line('memoized resolve(), in-process', `${Math.round(calls / seconds).toLocaleString('en-US')} calls/s`, '(target ≥ 1,000,000)');
  report.figures.memoizedResolvePerSecond = calls / seconds;
}
{
  const root = path.join(work, 'after-tool');
  if (!fs.existsSync(path.join(root, 'done'))) {
    fs.rmSync(root, { recursive: true, force: true });
    for (let index = 0; index < 1000; index += 1) {
      const dir = path.join(root, `pkg${index % 50}`, `mod${index}`);
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(path.join(dir, 'AGENTS.md'), `# Module ${index}\n`);
    }
    fs.writeFileSync(path.join(root, 'done'), '');
  }
  const { config } = await parseConfig({ contextPaths: ['AGENTS.md'], contextDiscovery: { maxFiles: 2000, maxSessionBytes: 10_000_000, maxManifestBytes: 10_000_000 } });
  const resolver = await createResolver({ workDir: root, config, env: {} });
  const { manifest } = await resolver.resolve();
  const nested = manifest.split('\n').filter((entry) => entry.startsWith('- ')).length;
  const session = await resolver.openSession();
  const events = [];
  for (let index = 0; index < 1000; index += 1) {
    events.push({ tool: 'read', input: { file_path: `pkg${index % 50}/mod${index}/src/deep/file${index}.ts` }, ok: true });
  }
  for (const event of events) await session.afterTool(event);
  if (session.state().injected.length !== nested) throw new Error(`expected ${nested} injected files, got ${session.state().injected.length}`);
  const calls = 200_000;
  const start = process.hrtime.bigint();
  for (let index = 0; index < calls; index += 1) await session.afterTool(events[index % events.length]);
  const micros = Number(process.hrtime.bigint() - start) / 1e3 / calls;
  line(`afterTool() with ${nested} nested files, nothing new`, `${micros.toFixed(2)} µs/call`, '(target ≤ 2 µs)');
  report.figures.afterToolMicros = micros;
}

fs.writeFileSync(path.join(here, 'report.json'), `${JSON.stringify(report, null, 2)}\n`);
console.log(`report written to ${path.relative(process.cwd(), path.join(here, 'report.json'))}`);
