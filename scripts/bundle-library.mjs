// Prepares the library's compiled files (dist/, from tsc) for the package, after the other build steps
// (docs/performance.md, "Package size"):
// - the ES modules lose their comments (esbuild, no minification: names, statements and line
//   structure stay readable in a stack trace); the declarations (.d.ts) keep theirs, which editors show;
// - dist/.npmignore lists each module and declaration the package's exports never reach: the code of
//   the CLI's commands (hooks, MCP, doctor, …) is in the bundles of dist/bin and needs no second copy.
//   JavaScript is followed with esbuild (static and dynamic imports), declarations through their
//   import specifiers. npm applies a .npmignore below a folder that `files` includes; test/package.test.ts
//   checks that every import of a packed file resolves to a packed file.
import { build, transform } from 'esbuild';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(repo, 'dist');
const manifest = JSON.parse(fs.readFileSync(path.join(repo, 'package.json'), 'utf8'));

/** Files of dist/ that tsc wrote (the bundles, the tokenizer and the CommonJS entry are built apart). */
const compiled = fs
  .readdirSync(dist, { recursive: true })
  .map((name) => name.split(path.sep).join('/'))
  .filter((name) => /\.(?:js|d\.ts)$/.test(name) && !/^(?:bin|cli|vendor)\//.test(name));

await Promise.all(
  compiled
    .filter((name) => name.endsWith('.js'))
    .map(async (name) => {
      const file = path.join(dist, name);
      const { code } = await transform(fs.readFileSync(file, 'utf8'), {
        loader: 'js',
        format: 'esm',
        target: 'node20',
        legalComments: 'none',
      });
      fs.writeFileSync(file, code);
    }),
);

const targets = Object.values(manifest.exports).filter((entry) => typeof entry === 'object');
const within = (target) => path.join(repo, target);

// The modules the exports' `import` entries reach: esbuild follows every static and dynamic import.
const { metafile } = await build({
  entryPoints: [...new Set(targets.map((entry) => within(entry.import)))],
  // The metafile names its inputs relative to this directory.
  absWorkingDir: repo,
  bundle: true,
  write: false,
  outdir: path.join(repo, '.bundle-library'),
  format: 'esm',
  platform: 'node',
  metafile: true,
  logLevel: 'warning',
  external: [
    ...Object.keys(manifest.dependencies),
    ...Object.keys(manifest.peerDependencies ?? {}),
    ...Object.keys(manifest.imports ?? {}),
  ],
});
const reached = new Set(Object.keys(metafile.inputs).map((input) => path.resolve(repo, input)));

// The declarations the exports' `types` entries reach, through `from '…'`, `import '…'` and `import('…')`.
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)['"](\.{1,2}\/[^'"]+)['"]/g;
const pending = targets.map((entry) => within(entry.types));
while (pending.length > 0) {
  const file = pending.pop();
  if (reached.has(file)) continue;
  reached.add(file);
  for (const [, specifier] of fs.readFileSync(file, 'utf8').matchAll(SPECIFIER))
    pending.push(path.resolve(path.dirname(file), specifier).replace(/\.js$/, '.d.ts'));
}

const unreached = compiled.filter((name) => !reached.has(path.join(dist, name))).sort();
fs.writeFileSync(
  path.join(dist, '.npmignore'),
  `# Written by scripts/bundle-library.mjs: compiled files no export of the package reaches.\n${unreached
    .map((name) => `/${name}\n`)
    .join('')}`,
);
