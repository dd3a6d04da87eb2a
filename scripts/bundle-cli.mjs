// Bundles the CLI into dist/bin/ctxfiles.js (plus chunks for its lazy imports). One file starts
// far faster than ~40 separately resolved ES modules: this is what keeps a cold `ctxfiles resolve`
// close to Node's own start-up. The library (dist/index.js) stays unbundled for embedders.
import { build } from 'esbuild';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const manifest = JSON.parse(fs.readFileSync(path.join(repo, 'package.json'), 'utf8'));
// Dependencies stay external (they are loaded lazily, most of them never), except commander,
// which every command needs.
// Optional peer dependencies (the MCP SDK) are always external: the user's installed copy is used,
// and a missing one is reported by the command that needs it.
const external = [
  ...Object.keys(manifest.dependencies).filter((name) => name !== 'commander'),
  ...Object.keys(manifest.peerDependencies ?? {}),
];
const outdir = path.join(repo, 'dist/bin');
fs.rmSync(outdir, { recursive: true, force: true });
await build({
  entryPoints: { ctxfiles: path.join(repo, 'src/cli/bin.ts') },
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  external,
  // Bundled CommonJS code (commander) calls require(): give every output file a real one.
  banner: {
    js: "import { createRequire as __ctxfilesCreateRequire } from 'node:module';\nconst require = __ctxfilesCreateRequire(import.meta.url);",
  },
  logLevel: 'warning',
  legalComments: 'none',
});
fs.chmodSync(path.join(outdir, 'ctxfiles.js'), 0o755);
