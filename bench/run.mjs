// `npm run bench`: generates seeded synthetic monorepos, checks that ctxfiles finds exactly the
// expected files, then measures ctxfiles against baselines measured in the same run and prints
// medians, ratios and targets. Writes bench/report.json. A benchmark, not a test: nothing here
// fails CI. Arguments: tree sizes to run (default: small medium large), e.g. `npm run bench -- medium`.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { generate, SIZES } from './generate.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '..');
const bin = path.join(repo, 'dist/bin/ctxfiles.js');
const work = path.join(here, '.work');
const sizes = process.argv.slice(2).filter((arg) => arg in SIZES);
const runs = Number(process.env.BENCH_RUNS ?? 9);

const { createResolver, parseConfig, createNodeFileSystem } = await import(path.join(repo, 'dist/index.js'));
const { walkNested, PRUNED_DIRECTORIES } = await import(path.join(repo, 'dist/discover/nested-walk.js'));
const { walkChain } = await import(path.join(repo, 'dist/discover/chain-walk.js'));

const report = { date: new Date().toISOString(), node: process.version, runs, figures: {}, targets: {} };
const line = (label, value, extra = '') =>
  console.log(`${label.padEnd(60)} ${value}${extra ? `  ${extra}` : ''}`);
const ms = (value) => `${value.toFixed(1)} ms`;
const verdict = (name, value, target, below = true) => {
  const met = below ? value <= target : value >= target;
  report.targets[name] = { value, target, met };
  return met ? 'ok' : 'MISSED';
};

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/**
 * Median wall times of several commands measured pair by pair: each round runs every command
 * once, in turn, so that they share the same machine conditions. One warm-up round first.
 */
function timeCommands(commands) {
  const samples = commands.map(() => []);
  for (let round = 0; round <= runs; round += 1) {
    commands.forEach(([command, args, options = {}], index) => {
      const start = process.hrtime.bigint();
      const result = spawnSync(command, args, { encoding: 'utf8', maxBuffer: 1 << 28, ...options });
      const elapsed = Number(process.hrtime.bigint() - start) / 1e6;
      if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed: ${result.stderr}`);
      if (round > 0) samples[index].push(elapsed);
    });
  }
  return samples.map(median);
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
  const result = spawnSync('/usr/bin/time', ['-f', '%M', process.execPath, ...args], {
    cwd,
    encoding: 'utf8',
    maxBuffer: 1 << 28,
  });
  if (result.status !== 0) return null;
  const kb = Number(result.stderr.trim().split('\n').pop());
  return Number.isFinite(kb) ? kb / 1024 : null;
}

function findArgs(root) {
  const prune = ['-name', '.*'];
  for (const dir of PRUNED_DIRECTORIES) prune.push('-o', '-name', dir);
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

const hasRg = spawnSync('rg', ['--version']).status === 0;
const limits = { maxDepth: 64, maxFiles: 1_000_000 };
const benchConfig = JSON.stringify({
  contextPaths: ['AGENTS.md'],
  contextDiscovery: { maxDepth: 64, maxFiles: 1000000, maxManifestBytes: 100000000 },
});

// 1. Trees, and a check that ctxfiles finds exactly the expected files.
const trees = {};
for (const size of sizes.length > 0 ? sizes : Object.keys(SIZES)) {
  const started = Date.now();
  const tree = generate(path.join(work, size), size);
  fs.writeFileSync(path.join(tree.root, '.opencode.json'), benchConfig);
  trees[size] = tree;
  const root = fs.realpathSync(tree.root);
  const found = walkNested(createNodeFileSystem(), root, new Set(['AGENTS.md']), limits).files.map(
    (file) => file.relativePath,
  );
  const viaCli = spawnSync(process.execPath, [bin, 'manifest', '--json'], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 1 << 28,
  });
  const listed = JSON.parse(viaCli.stdout)
    .manifest.split('\n')
    .filter((entry) => entry.startsWith('- '))
    .map((entry) => entry.slice(2).split(': ')[0]);
  const ok =
    JSON.stringify(found) === JSON.stringify(tree.expected) &&
    JSON.stringify(listed) === JSON.stringify(tree.expected);
  line(
    `tree ${size}: ${tree.files} files, ${tree.dirs} dirs, ${tree.expected.length} nested`,
    ok ? 'walk and manifest find exactly the expected files' : 'MISMATCH',
    `(${Date.now() - started} ms to prepare)`,
  );
  if (!ok) process.exit(1);
  report.figures[`tree.${size}`] = { files: tree.files, dirs: tree.dirs, nested: tree.expected.length };
}
if (!hasRg) console.log('(rg is not installed: its baseline is skipped)');

// 2. The cold start, paired with Node's own start-up.
const example = path.join(repo, 'examples/monorepo');
const [nodeStart, cold] = timeCommands([
  [process.execPath, ['-e', '0']],
  [process.execPath, [bin, 'resolve'], { cwd: example }],
]);
line('baseline: node -e 0', ms(nodeStart));
line(
  'ctxfiles resolve on examples/monorepo (cold, whole process)',
  ms(cold),
  `${(cold / nodeStart).toFixed(2)}× node -e 0, target ≤ 1.6×: ${verdict('coldResolveVsNode', cold / nodeStart, 1.6)}`,
);
report.figures.nodeStart = nodeStart;
report.figures.coldResolve = cold;

// 3. Walk and manifest against find (and rg), per tree.
const walkTimes = {};
for (const [size, tree] of Object.entries(trees)) {
  const root = fs.realpathSync(tree.root);
  const commands = [
    ['find', findArgs(root)],
    [process.execPath, [bin, 'manifest'], { cwd: root }],
  ];
  if (hasRg) commands.push(['rg', ['-j1', '--files', '-g', 'AGENTS.md', root]]);
  const [find, manifest, rg] = timeCommands(commands);
  const walk = timeFunction(() => walkNested(createNodeFileSystem(), root, new Set(['AGENTS.md']), limits));
  walkTimes[size] = walk;
  line(`${size}: find with equivalent pruning`, ms(find));
  if (rg !== undefined) line(`${size}: rg -j1 --files`, ms(rg), `walk / rg = ${(walk / rg).toFixed(2)}×`);
  line(`${size}: discovery walk, in-process`, ms(walk), `${(walk / find).toFixed(2)}× find`);
  const manifestNote =
    size === 'large' ? `, target ≤ 0.9×: ${verdict('manifestVsFindLarge', manifest / find, 0.9)}` : '';
  line(
    `${size}: ctxfiles manifest, whole process`,
    ms(manifest),
    `${(manifest / find).toFixed(2)}× find${manifestNote}`,
  );
  report.figures[size] = {
    find,
    rg: rg ?? null,
    walk,
    manifest,
    walkVsFind: walk / find,
    manifestVsFind: manifest / find,
  };
  if (size === 'large') {
    const rss = peakRss([bin, 'manifest'], root);
    line(
      'large: peak RSS of ctxfiles manifest',
      rss === null ? 'n/a (no GNU time)' : `${rss.toFixed(1)} MB`,
      rss === null ? '' : `target ≤ 120 MB: ${verdict('peakRssMb', rss, 120)}`,
    );
    report.figures.peakRssMb = rss;
  }
}
if (walkTimes.large !== undefined && walkTimes.medium !== undefined) {
  const growth = walkTimes.large / walkTimes.medium / (trees.large.files / trees.medium.files);
  line(
    'growth: (walk large / medium) / (files large / medium)',
    `${growth.toFixed(2)}×`,
    `target ≤ 1.1× linear: ${verdict('growth', growth, 1.1)}`,
  );
  report.figures.growth = growth;
}

// 4. In-process: memoized resolve, afterTool, chain walk.
{
  const resolver = await createResolver({ workDir: example, env: {} });
  await resolver.resolve({ agent: 'coder' });
  const calls = 1_000_000;
  const start = process.hrtime.bigint();
  for (let index = 0; index < calls; index += 1) await resolver.resolve({ agent: 'coder' });
  const perSecond = calls / (Number(process.hrtime.bigint() - start) / 1e9);
  line(
    'memoized resolve(), in-process',
    `${Math.round(perSecond).toLocaleString('en-US')} calls/s`,
    `target ≥ 1,000,000: ${verdict('memoizedResolvePerSecond', perSecond, 1_000_000, false)}`,
  );
  report.figures.memoizedResolvePerSecond = perSecond;
}
{
  const root = path.join(work, 'after-tool');
  if (!fs.existsSync(path.join(root, '.done'))) {
    fs.rmSync(root, { recursive: true, force: true });
    for (let index = 0; index < 1000; index += 1) {
      const dir = path.join(root, `pkg${index % 50}`, `mod${index}`);
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(path.join(dir, 'AGENTS.md'), `# Module ${index}\n`);
    }
    fs.writeFileSync(path.join(root, '.done'), '');
  }
  const { config } = await parseConfig({
    contextPaths: ['AGENTS.md'],
    contextDiscovery: { maxFiles: 2000, maxSessionBytes: 10_000_000 },
  });
  const resolver = await createResolver({ workDir: root, config, env: {} });
  const nested = (await resolver.resolve()).nested.length;
  const session = await resolver.openSession();
  const events = [];
  for (let index = 0; index < 1000; index += 1) {
    events.push({
      tool: index % 2 === 0 ? 'read' : 'grep',
      input:
        index % 2 === 0
          ? { file_path: `pkg${index % 50}/mod${index}/src/deep/file${index}.ts` }
          : { path: `pkg${index % 50}/mod${index}/src` },
      ok: true,
    });
  }
  for (const event of events) await session.afterTool(event);
  if (session.state().injected.length !== nested)
    throw new Error(`expected ${nested} injected files, got ${session.state().injected.length}`);
  const samples = [];
  for (let round = 0; round < 5; round += 1) {
    const calls = 200_000;
    const start = process.hrtime.bigint();
    for (let index = 0; index < calls; index += 1) await session.afterTool(events[index % events.length]);
    samples.push(Number(process.hrtime.bigint() - start) / 1e3 / calls);
  }
  const micros = median(samples);
  line(
    `afterTool() with ${nested} nested files, nothing new`,
    `${micros.toFixed(2)} µs/call`,
    `target ≤ 2 µs: ${verdict('afterToolMicros', micros, 2)}`,
  );
  report.figures.afterToolMicros = micros;
}
{
  // The work dir sits 12 directories below the filesystem root, with candidates in every one of
  // the lower directories; three candidates are configured.
  const base = path.join(work, 'chain');
  const depth = base.split(path.sep).filter(Boolean).length;
  let dir = base;
  fs.rmSync(base, { recursive: true, force: true });
  fs.mkdirSync(path.join(base, '.git'), { recursive: true });
  for (let level = depth; level < 12; level += 1) {
    dir = path.join(dir, `level${level}`);
    fs.mkdirSync(dir);
    fs.writeFileSync(path.join(dir, 'AGENTS.md'), 'rules');
  }
  const real = fs.realpathSync(dir);
  const port = createNodeFileSystem();
  const candidates = ['AGENTS.override.md', 'AGENTS.md', 'CLAUDE.md'];
  const measure = (walk) => {
    const options = { workDir: real, walk, projectRootMarkers: ['.git'], candidates };
    const samples = [];
    for (let round = 0; round < 7; round += 1) {
      const calls = 5_000;
      const start = process.hrtime.bigint();
      for (let index = 0; index < calls; index += 1) walkChain(port, options);
      samples.push(Number(process.hrtime.bigint() - start) / 1e3 / calls);
    }
    return median(samples);
  };
  const root = measure('root');
  const project = measure('project');
  line(
    `chain walk from depth ${real.split(path.sep).filter(Boolean).length} (walk: root), 3 candidates`,
    `${root.toFixed(1)} µs`,
    `target ≤ 60 µs: ${verdict('chainWalkMicros', root, 60)}`,
  );
  line(
    `chain walk (walk: project, marker at ${path.relative(path.dirname(base), base)})`,
    `${project.toFixed(1)} µs`,
  );
  report.figures.chainWalkMicros = { root, project };
}

fs.writeFileSync(path.join(here, 'report.json'), `${JSON.stringify(report, null, 2)}\n`);
const missed = Object.entries(report.targets)
  .filter(([, target]) => !target.met)
  .map(([name]) => name);
console.log(
  `\n${Object.keys(report.targets).length - missed.length}/${Object.keys(report.targets).length} targets met${missed.length > 0 ? `; missed: ${missed.join(', ')}` : ''}. Report: bench/report.json`,
);
