// How long `import 'ctxfiles'` takes: the built library entry (dist/index.js) imported by a fresh
// Node process, against a process that imports nothing (`node -e 0`). Target: at most 25 ms over.
// Run after `npm run build`: `node bench/import.mjs [runs]` (default 21 rounds, after one warm-up
// round; medians printed). The processes get the bench's cache dir (bench/measure.mjs).
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { cacheEnv, median, sampleCommands, timeCommands } from './measure.mjs';

const entry = pathToFileURL(
  path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../dist/index.js'),
).href;
const runs = Number(process.argv[2] ?? 21);

// Alternate, so that a busy machine slows both alike.
const [empty, library] = timeCommands(
  [
    [process.execPath, ['-e', '0'], { env: cacheEnv, stdio: ['ignore', 'ignore', 'pipe'] }],
    [
      process.execPath,
      ['--input-type=module', '-e', `await import(${JSON.stringify(entry)})`],
      { env: cacheEnv, stdio: ['ignore', 'ignore', 'pipe'] },
    ],
  ],
  runs,
);
// The import alone, timed inside the process (less sensitive to a busy machine than wall time).
const [inProcess] = sampleCommands(
  [
    [
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `const t = performance.now(); await import(${JSON.stringify(entry)}); console.log(performance.now() - t);`,
      ],
      { env: cacheEnv },
    ],
  ],
  runs,
  { sample: (result) => Number.parseFloat(result.stdout) },
);
const over = library - empty;
console.log(
  JSON.stringify(
    {
      runs,
      nodeEmptyMs: Number(empty.toFixed(1)),
      importCtxfilesMs: Number(library.toFixed(1)),
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
