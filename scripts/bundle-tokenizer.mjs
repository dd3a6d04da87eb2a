// Builds the one token encoding ctxfiles counts with (o200k_base) into dist/vendor, from the
// gpt-tokenizer dev dependency (MIT), so the package does not depend on gpt-tokenizer's 27 MB of
// encodings and builds (docs/performance.md, "Package size"):
// - dist/vendor/o200k-base.cjs: gpt-tokenizer's encoder for o200k_base, bundled, without its ranks;
// - dist/vendor/o200k-base.ranks.br: the ranks as JSON, Brotli-compressed, read on first count.
// Loaded through the package's `#tokenizer` import (package.json "imports"), never at start-up.
import { build } from 'esbuild';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import zlib from 'node:zlib';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outdir = path.join(repo, 'dist/vendor');
fs.rmSync(outdir, { recursive: true, force: true });
fs.mkdirSync(outdir, { recursive: true });

// The package root of gpt-tokenizer, from its main entry (its exports map hides deep paths).
const require = createRequire(import.meta.url);
let root = path.dirname(require.resolve('gpt-tokenizer'));
const nameOf = (dir) => {
  try {
    return JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')).name;
  } catch {
    return undefined;
  }
};
while (nameOf(root) !== 'gpt-tokenizer' || !fs.existsSync(path.join(root, 'esm'))) {
  if (path.dirname(root) === root) throw new Error('gpt-tokenizer: package root not found');
  root = path.dirname(root);
}
const version = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')).version;
const ranksFile = path.join(root, 'esm/bpeRanks/o200k_base.js');
const ranks = (await import(pathToFileURL(ranksFile).href)).default;
if (!Array.isArray(ranks) || ranks.length < 199_000)
  throw new Error(`${ranksFile}: not the o200k_base ranks`);
const json = Buffer.from(JSON.stringify(ranks));
fs.writeFileSync(
  path.join(outdir, 'o200k-base.ranks.br'),
  zlib.brotliCompressSync(json, {
    params: {
      [zlib.constants.BROTLI_PARAM_QUALITY]: 11,
      [zlib.constants.BROTLI_PARAM_LGWIN]: 24,
      [zlib.constants.BROTLI_PARAM_SIZE_HINT]: json.length,
    },
  }),
);

/** The ranks module of the encoding, replaced by a reader of the compressed file beside the bundle. */
const ranksFromFile = {
  name: 'ranks-from-file',
  setup(context) {
    context.onResolve({ filter: /bpeRanks[\\/]o200k_base\.js$/ }, () => ({
      path: 'ranks',
      namespace: 'ranks',
    }));
    context.onLoad({ filter: /.*/, namespace: 'ranks' }, () => ({
      // An ES module, as the one it replaces: a CommonJS one would get esbuild's interop, which copies
      // the 200,000 entries of the array as getters (half the load time).
      contents:
        "import { readFileSync } from 'node:fs'; import { join } from 'node:path'; import { brotliDecompressSync } from 'node:zlib';\n" +
        "export default JSON.parse(brotliDecompressSync(readFileSync(join(__dirname, 'o200k-base.ranks.br'))).toString('utf8'));\n",
      loader: 'js',
    }));
  },
};

await build({
  entryPoints: [path.join(root, 'esm/encoding/o200k_base.js')],
  outfile: path.join(outdir, 'o200k-base.cjs'),
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  minify: true,
  logLevel: 'warning',
  legalComments: 'none',
  plugins: [ranksFromFile],
  banner: {
    js: `// gpt-tokenizer ${version} (MIT, https://github.com/niieani/gpt-tokenizer), o200k_base only; bundled by scripts/bundle-tokenizer.mjs`,
  },
});
fs.copyFileSync(path.join(root, 'LICENSE'), path.join(outdir, 'LICENSE.gpt-tokenizer'));
