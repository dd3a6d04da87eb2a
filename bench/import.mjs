// How long `import 'ctxfiles'` takes: the built library entry (dist/index.js) imported by a fresh
// Node process, against a process that imports nothing (`node -e 0`). Target: at most 25 ms over.
// Run after `npm run build`: `node bench/import.mjs [runs]`.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const entry = pathToFileURL(
  path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../dist/index.js'),
).href;
const runs = Number(process.argv[2] ?? 21);

function wallMs(args) {
  const start = process.hrtime.bigint();
  const result = spawnSync(process.execPath, args, { stdio: ['ignore', 'ignore', 'inherit'] });
  if (result.status !== 0) throw new Error(`node ${args.join(' ')} exited ${result.status}`);
  return Number(process.hrtime.bigint() - start) / 1e6;
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const empty = [];
const library = [];
for (let run = 0; run < runs; run += 1) {
  // Alternate, so that a busy machine slows both alike.
  empty.push(wallMs(['-e', '0']));
  library.push(wallMs(['--input-type=module', '-e', `await import(${JSON.stringify(entry)})`]));
}
// The import alone, timed inside the process (less sensitive to a busy machine than wall time).
const inProcess = [];
for (let run = 0; run < runs; run += 1) {
  const result = spawnSync(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `const t = performance.now(); await import(${JSON.stringify(entry)}); console.log(performance.now() - t);`,
    ],
    { encoding: 'utf8' },
  );
  inProcess.push(Number(result.stdout));
}
const over = median(library) - median(empty);
console.log(
  JSON.stringify(
    {
      runs,
      nodeEmptyMs: Number(median(empty).toFixed(1)),
      importCtxfilesMs: Number(median(library).toFixed(1)),
      overMs: Number(over.toFixed(1)),
      importInProcessMedianMs: Number(median(inProcess).toFixed(1)),
      importInProcessMinMs: Number(Math.min(...inProcess).toFixed(1)),
      targetOverMs: 25,
      ok: over <= 25,
    },
    null,
    2,
  ),
);
