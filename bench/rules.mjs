// `node bench/rules.mjs` (after `npm run build`): two figures for scoped rules (docs/rules.md),
// each as a ratio against a baseline measured in the same run. A benchmark, not a test.
// 1. `session.afterTool()` with 500 glob rules and 1,000 nested files, nothing new to inject:
//    target ≤ 3 µs per call (the baseline printed beside it is the same loop without rules).
// 2. `ctxfiles resolve` with 500 rule files, a cold process: target ≤ 1.6× `node -e 0`.
// BENCH_RUNS (default 15) sets the number of rounds (each runs `node -e 0`, `resolve` and
// `resolve` with rules off in turn, after one warm-up round); the medians are printed. The
// measured processes keep their compile cache in bench/.work/cache (bench/measure.mjs).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { cacheEnv, runCommand, timeCommands } from './measure.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const dist = path.join(here, '..', 'dist');
const { createResolver, createMemoryFileSystem, parseConfig } = await import(path.join(dist, 'index.js'));
const bin = path.join(dist, 'bin/ctxfiles.cjs');
const runs = Number(process.env.BENCH_RUNS ?? 15);

/** 500 glob rules: half with a literal base (`src/m7/**\/*.ts`), half matched by name at any depth. */
function ruleFiles() {
  const files = {};
  for (let index = 0; index < 500; index += 1) {
    const glob = index % 2 === 0 ? `src/m${index}/**/*.ts` : `*.gen${index}.ts`;
    files[`.cursor/rules/r${index}.mdc`] = `---\nglobs: ${glob}\n---\nrule ${index}\n`;
  }
  return files;
}

async function afterToolFigure(withRules) {
  const memory = createMemoryFileSystem({}, { root: '/w' });
  memory.set('/w', { dir: true });
  for (let index = 0; index < 1000; index += 1)
    memory.set(`/w/p${index % 50}/d${index}/AGENTS.md`, `nested ${index}`);
  if (withRules) for (const [file, text] of Object.entries(ruleFiles())) memory.set(`/w/${file}`, text);
  const config = {
    contextPaths: ['AGENTS.md'],
    contextDiscovery: { maxFiles: 2000, maxSessionBytes: 10_000_000 },
    ...(withRules ? { rules: { sources: ['cursor'] } } : {}),
  };
  const { config: parsed } = await parseConfig(config);
  const resolver = await createResolver({ workDir: '/w', config: parsed, fs: memory, env: {} });
  const session = await resolver.openSession();
  const events = [];
  for (let index = 0; index < 1000; index += 1)
    events.push({ tool: 'read', input: { file_path: `p${index % 50}/d${index}/file${index}.ts` }, ok: true });
  // First touches inject the nested files; afterwards nothing is new.
  for (const event of events) await session.afterTool(event);
  for (const event of events)
    if ((await session.afterTool(event)) !== '') throw new Error('something was new');
  const rounds = 50;
  const start = process.hrtime.bigint();
  for (let round = 0; round < rounds; round += 1) for (const event of events) await session.afterTool(event);
  return Number(process.hrtime.bigint() - start) / 1e3 / (rounds * events.length);
}

const plain = await afterToolFigure(false);
const ruled = await afterToolFigure(true);
console.log(
  `${'afterTool, nothing new (1,000 nested files, 500 glob rules)'.padEnd(62)} ${ruled.toFixed(2)} µs/call ` +
    `(without rules ${plain.toFixed(2)} µs = ${(ruled / plain).toFixed(2)}×), target ≤ 3 µs: ${ruled <= 3 ? 'ok' : 'MISSED'}`,
);

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'ctxfiles-rules-bench-'));
try {
  const files = ruleFiles();
  for (let index = 0; index < 10; index += 1)
    files[`.cursor/rules/always${index}.mdc`] = `---\nalwaysApply: true\n---\nalways ${index}\n`;
  delete files['.cursor/rules/r0.mdc'];
  for (let index = 1; index < 10; index += 1) delete files[`.cursor/rules/r${index}.mdc`];
  files['AGENTS.md'] = '# Root\n';
  files['ctxfiles.config.json'] = JSON.stringify({ rules: { sources: ['cursor'] } });
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), text);
  }
  fs.writeFileSync(path.join(root, 'off.json'), '{}');
  const args = [bin, 'resolve', '--cwd', root];
  const off = [bin, 'resolve', '--cwd', root, '--config', path.join(root, 'off.json')];
  const nodeWith = (nodeArgs) => [process.execPath, nodeArgs, { env: cacheEnv }];
  if (!runCommand(nodeWith(args)).stdout.includes('always 9'))
    throw new Error('the always rules are missing');
  const [node, resolve, plain] = timeCommands([nodeWith(['-e', '0']), nodeWith(args), nodeWith(off)], runs);
  const ratio = resolve / node;
  console.log(
    `${'ctxfiles resolve, cold, 500 rule files'.padEnd(62)} ${resolve.toFixed(1)} ms vs node -e 0 ${node.toFixed(1)} ms = ${ratio.toFixed(2)}×, target ≤ 1.6×: ${ratio <= 1.6 ? 'ok' : 'MISSED'}`,
  );
  console.log(
    `${'ctxfiles resolve, cold, same tree, rules off'.padEnd(62)} ${plain.toFixed(1)} ms = ${(plain / node).toFixed(2)}× node -e 0 (rules add ${(resolve - plain).toFixed(1)} ms)`,
  );
} finally {
  fs.rmSync(root, { recursive: true, force: true });
}
