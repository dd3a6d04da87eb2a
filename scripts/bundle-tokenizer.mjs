// Builds the one token encoding ctxfiles counts with (o200k_base) into dist/vendor, from the
// gpt-tokenizer dev dependency (MIT), so the package does not depend on gpt-tokenizer's 27 MB of
// encodings and builds (docs/performance.md, "Package size"):
// - dist/vendor/o200k-base.cjs: gpt-tokenizer's encoder for o200k_base, bundled, without its ranks;
// - dist/vendor/o200k-base.ranks.br: the ranks in V8's serialization format (node:v8), Brotli-
//   compressed, read on first count: v8.deserialize reads the 200,000 strings in ~10 ms where
//   JSON.parse took ~50 ms (docs/performance.md, "Token counts").
// Loaded through the package's `#tokenizer` import (package.json "imports"), never at start-up.
import { build } from 'esbuild';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import v8 from 'node:v8';
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
// Node 20's V8 reads serialization format 15 and older; a newer build Node must not write a format the
// oldest supported Node cannot read. The round trip must give the ranks as JSON would.
const serialized = v8.serialize(ranks);
if (serialized[0] !== 0xff || serialized[1] > 15)
  throw new Error(`v8.serialize wrote format ${serialized[1]}; Node 20 reads 15 and older`);
if (JSON.stringify(v8.deserialize(serialized)) !== JSON.stringify(ranks))
  throw new Error('o200k_base ranks: the V8 round trip changed them');
fs.writeFileSync(
  path.join(outdir, 'o200k-base.ranks.br'),
  zlib.brotliCompressSync(serialized, {
    params: {
      [zlib.constants.BROTLI_PARAM_QUALITY]: 11,
      [zlib.constants.BROTLI_PARAM_LGWIN]: 24,
      [zlib.constants.BROTLI_PARAM_SIZE_HINT]: serialized.length,
    },
  }),
);

// Two changes to the encoder's core (BytePairEncodingCore.js), each checked to apply exactly once:
// - it counts its ranks with Object.keys, which makes 200,000 index strings (~10-25 ms): for an array
//   without holes or extra keys, as these ranks are, its length is the same number;
// - it puts each of the ~198,000 string ranks in a Map (~65 ms of CPU and its garbage, the largest
//   part of loading the encoder: docs/performance.md, "Token counts"). A table of rank numbers in one
//   Int32Array, open addressing on an FNV-1a hash of the string, answers the same `get` (the string is
//   compared with the rank's own) and fills in ~20 ms. The ranks hold no string twice, so the first
//   rank found is the only one.
if (Object.keys(ranks).length !== ranks.length) throw new Error('o200k_base ranks: holes in the array');
const strings = ranks.filter((value) => typeof value === 'string');
if (new Set(strings).size !== strings.length) throw new Error('o200k_base ranks: a string twice');
const CORE_CHANGES = [
  ['Object.keys(bytePairRankDecoder).length', 'bytePairRankDecoder.length'],
  [
    'this.bytePairStringRankEncoder = /* @__PURE__ */ new Map();',
    'this.bytePairStringRankEncoder = new RankTable(bytePairRankDecoder);',
  ],
  [/this\.bytePairStringRankEncoder\.set\(value, rank\);(\s*return;)/, '$1'],
];
const RANK_TABLE = `
/** The string ranks of \`decoder\` (its other entries are skipped), looked up with \`get\` as a Map would be. */
class RankTable {
  constructor(decoder) {
    let size = 1;
    while (size < decoder.length * 2) size *= 2;
    const slots = new Int32Array(size).fill(-1);
    const mask = size - 1;
    for (let rank = 0; rank < decoder.length; rank += 1) {
      const key = decoder[rank];
      if (typeof key !== 'string') continue;
      let slot = rankTableHash(key) & mask;
      while (slots[slot] !== -1) slot = (slot + 1) & mask;
      slots[slot] = rank;
    }
    this.decoder = decoder;
    this.slots = slots;
    this.mask = mask;
  }
  get(key) {
    const { decoder, slots, mask } = this;
    for (let slot = rankTableHash(key) & mask; ; slot = (slot + 1) & mask) {
      const rank = slots[slot];
      if (rank === -1) return undefined;
      if (decoder[rank] === key) return rank;
    }
  }
}
function rankTableHash(key) {
  let hash = 0x811c9dc5;
  for (let index = 0; index < key.length; index += 1) hash = Math.imul(hash ^ key.charCodeAt(index), 0x01000193);
  return hash >>> 0;
}
`;
const patchCore = {
  name: 'patch-core',
  setup(context) {
    context.onLoad({ filter: /BytePairEncodingCore\.js$/ }, (args) => {
      let source = fs.readFileSync(args.path, 'utf8');
      for (const [from, to] of CORE_CHANGES) {
        const found =
          typeof from === 'string'
            ? source.split(from).length - 1
            : [...source.matchAll(new RegExp(from, 'g'))].length;
        if (found !== 1)
          throw new Error(
            `${args.path}: "${from}" found ${found} times; update scripts/bundle-tokenizer.mjs`,
          );
        source = source.replace(from, to);
      }
      return { contents: `${source}\n${RANK_TABLE}`, loader: 'js' };
    });
  },
};

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
        "import { readFileSync } from 'node:fs'; import { join } from 'node:path'; import { deserialize } from 'node:v8'; import { brotliDecompressSync } from 'node:zlib';\n" +
        "export default deserialize(brotliDecompressSync(readFileSync(join(__dirname, 'o200k-base.ranks.br'))));\n",
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
  plugins: [ranksFromFile, patchCore],
  banner: {
    js: `// gpt-tokenizer ${version} (MIT, https://github.com/niieani/gpt-tokenizer), o200k_base only; bundled by scripts/bundle-tokenizer.mjs`,
  },
});
fs.copyFileSync(path.join(root, 'LICENSE'), path.join(outdir, 'LICENSE.gpt-tokenizer'));
