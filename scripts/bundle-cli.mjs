// Bundles the CLI into CommonJS (docs/performance.md, "Start-up"):
// - dist/bin/cli.cjs: every command; dist/bin/resolve.cjs: a plain `resolve` alone, without
//   commander; dist/bin/hook.cjs: the hook command's parser and quick check alone, which loads
//   dist/bin/hook-run.cjs (the whole hook) only for an event it cannot answer;
// - dist/bin/host-<id>.cjs: one host each, which the other bundles load when they first ask for
//   something of it (src/cli/lazy-hosts.ts);
// - dist/bin/ctxfiles.cjs: the bin, a small loader that picks one of them and loads it through the
//   compile cache (src/cli/compile-cache.ts), with the bundles' digests built in.
// CommonJS, because starting Node's ES module loader and linking a graph of ES modules costs a cold
// run more than the whole bundle does; the library (dist/index.js) stays ES modules for embedders.
import { build } from 'esbuild';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const manifest = JSON.parse(fs.readFileSync(path.join(repo, 'package.json'), 'utf8'));
// Dependencies and peer dependencies stay external (loaded lazily, most of them never);
// commander, which every command but `hook` needs, is a dev dependency and bundled.
// The package's own imports (`#tokenizer`, built by scripts/bundle-tokenizer.mjs) stay external too.
const external = [
  ...Object.keys(manifest.dependencies),
  ...Object.keys(manifest.peerDependencies ?? {}),
  ...Object.keys(manifest.imports ?? {}),
];
const outdir = path.join(repo, 'dist/bin');
fs.rmSync(outdir, { recursive: true, force: true });

/**
 * commander loads `node:child_process` (and with it `net` and `dgram`) when it starts, for
 * subcommands that are separate programs, which ctxfiles has none of: the bundle gets it on first use.
 */
const lazyChildProcess = {
  name: 'lazy-child-process',
  setup(build) {
    build.onLoad({ filter: /commander[\\/]lib[\\/]command\.js$/ }, (args) => {
      const text = fs.readFileSync(args.path, 'utf8');
      const eager = "const childProcess = require('node:child_process');";
      if (!text.includes(eager)) throw new Error(`${args.path}: the child_process import was not found`);
      const lazy =
        "const childProcess = new Proxy({}, { get: (_, key) => require('node:child_process')[key] });";
      return { contents: text.replace(eager, lazy), loader: 'js' };
    });
  },
};

/**
 * `node:module` costs a run Node's ES module loader, which it loads with it, while the sources ask it
 * for one thing only: `createRequire(import.meta.url)`, which in a bundle is the bundle's own
 * `require`. The bundles get a stand-in that answers that from the `require` they are given and asks
 * `node:module` only for another path (a code config's own, src/config/load-code-config.ts).
 */
const ownRequire = {
  name: 'own-require',
  setup(build) {
    const namespace = 'ctxfiles-own-require';
    build.onResolve({ filter: /^node:module$/ }, (args) =>
      args.namespace === namespace
        ? { path: 'node:module', external: true }
        : { path: 'node:module', namespace },
    );
    build.onLoad({ filter: /.*/, namespace }, () => ({
      contents: [
        'export function createRequire(from) {',
        "  return from === __filename ? require : require('node:module').createRequire(from);",
        '}',
      ].join('\n'),
      loader: 'js',
    }));
  },
};

const common = {
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  logLevel: 'warning',
  legalComments: 'none',
  // Whitespace and syntax are minified (cli 860 → ~590 kB, hook 530 → ~370 kB of the installed
  // size, issue 27); identifiers are not: every function keeps its name, so a stack trace names the
  // functions of src/ it passes through. No source map is shipped. (Full minification would save
  // ~270 kB more but leaves traces of two-letter names; its `keepNames` costs a call per function
  // at start-up.)
  minifyWhitespace: true,
  minifySyntax: true,
  // Dynamic imports of dependencies become require() calls: every dependency has a CommonJS build,
  // and code compiled through vm.Script has no loader for import().
  supported: { 'dynamic-import': false },
};

// The sources are ES modules and use `import.meta.url` to create a require function: in a bundle it
// is the bundle's own path, which that accepts, and costs no file URL at start-up. The version is
// built in (CTXFILES_VERSION), so the bundle never looks for package.json.
const IMPORT_META_URL = { 'import.meta.url': '__filename' };

/**
 * esbuild gives a default import of a Node built-in (`import fs from 'node:fs'`) its CommonJS interop:
 * `__toESM(require('node:fs'), 1)` copies every export of the module onto a new object as a getter, in
 * each module that imports it (the CLI bundle did this 52 times, ~10M instructions per run). A built-in
 * is never an ES module, so the bundles take a view of it instead: an object whose prototype is the
 * module, with `default` the module itself. Named imports read through the prototype, unchanged.
 */
const BUILTIN_VIEW =
  'var __ctxfilesBuiltin = (m) => Object.create(m, { default: { value: m, enumerable: true } });';
const BUILTIN_INTEROP = /__toESM\(require\("(node:[a-z_/]+)"\), ?1\)/g;

function viewBuiltins(file) {
  const text = fs.readFileSync(file, 'utf8').replace(BUILTIN_INTEROP, '__ctxfilesBuiltin(require("$1"))');
  if (/__toESM\(require\("node:/.test(text)) throw new Error(`${file}: a built-in import kept its interop`);
  // After the directive, which must stay the first statement: the bundles are strict code.
  const directive = '"use strict";';
  const at = text.indexOf(directive);
  if (
    at < 0 ||
    text
      .slice(0, at)
      .replace(/^#!.*\n/, '')
      .trim() !== ''
  )
    throw new Error(`${file}: no leading "use strict"`);
  const end = at + directive.length;
  fs.writeFileSync(file, `${text.slice(0, end)}\n${BUILTIN_VIEW}\n${text.slice(end)}`);
}

/**
 * The resolve bundle runs a plain `resolve` (src/cli/resolve-command.ts), which never opens a session:
 * it leaves out the session engine that `createResolver` loads on a resolver's first
 * `openSession` (the disclosure, its state check and tool table, ~46 kB). V8 takes a bundle's whole
 * cached code at every start, used or not, so the code a command never runs still costs each run
 * (docs/performance.md, "Start-up"). In its place, an `openSession` that says where it is missing.
 */
const withoutSessions = {
  name: 'without-sessions',
  setup(build) {
    build.onLoad({ filter: /[\\/]src[\\/]api[\\/]open-session\.ts$/ }, () => ({
      contents: [
        'export function openSession() {',
        "  return Promise.reject(new Error('ctxfiles: the resolve bundle (dist/bin/resolve.cjs) opens no sessions; the CLI bundle and the library do'));",
        '}',
      ].join('\n'),
      loader: 'ts',
    }));
  },
};

/**
 * The CLI bundles take the registry of src/cli/lazy-hosts.ts in place of src/hosts/index.ts: each
 * host is a bundle of its own (below), loaded the first time something of it is asked for, so that a
 * bundle's start runs no host's top level (docs/performance.md, "Round nine").
 */
const lazyHosts = {
  name: 'lazy-hosts',
  setup(build) {
    const registry = path.join(repo, 'src/hosts/index.ts');
    build.onResolve({ filter: /[\\/]hosts[\\/]index\.js$/ }, (args) =>
      path.resolve(args.resolveDir, args.path.replace(/\.js$/, '.ts')) === registry
        ? { path: path.join(repo, 'src/cli/lazy-hosts.ts') }
        : undefined,
    );
  },
};

const digests = {};

/**
 * A digest of the sources and the dependencies' versions, built into the bundles: what ctxfiles
 * keeps between runs for one build only (src/cli/hint-cache.ts) is not taken by another.
 */
const BUILD_DIGEST = (() => {
  const hash = crypto.createHash('sha256');
  const src = path.join(repo, 'src');
  for (const file of fs.readdirSync(src, { recursive: true }).map(String).sort()) {
    const full = path.join(src, file);
    if (!fs.statSync(full).isFile()) continue;
    hash.update(`${file}\0`).update(fs.readFileSync(full)).update('\0');
  }
  const lock = path.join(repo, 'package-lock.json');
  if (fs.existsSync(lock)) hash.update(fs.readFileSync(lock));
  return hash.digest('hex').slice(0, 16);
})();

/**
 * Writes one bundle of dist/bin in the function Node wraps a CommonJS module in, as the loader
 * compiles it (BUNDLE_HEAD and BUNDLE_TAIL of src/cli/compile-cache.ts): written here, it spares
 * every run a copy of the whole text. `"use strict"` stays the function's first statement.
 */
async function bundle(name, entry, plugins) {
  const outfile = path.join(outdir, `${name}.cjs`);
  await build({
    ...common,
    ...entry,
    outfile,
    external,
    plugins: [lazyChildProcess, ownRequire, ...plugins],
    define: {
      ...IMPORT_META_URL,
      CTXFILES_VERSION: JSON.stringify(manifest.version),
      CTXFILES_BUILD: JSON.stringify(BUILD_DIGEST),
      // The packages a resolution may load (src/cli/hint-cache.ts); the peers serve framework entries.
      CTXFILES_DEPENDENCIES: JSON.stringify(Object.keys(manifest.dependencies)),
    },
  });
  viewBuiltins(outfile);
  fs.writeFileSync(
    outfile,
    `(function (exports, require, module, __filename, __dirname) {${fs.readFileSync(outfile, 'utf8')}\n})`,
  );
  const text = fs.readFileSync(outfile, 'utf8');
  if (/\bimport\(/.test(text)) throw new Error(`${outfile} still holds an import() call`);
  // The bin reads the bundles as Latin-1 (src/cli/compile-cache.ts): esbuild escapes non-ASCII.
  if (/[^\x00-\x7f]/.test(text)) throw new Error(`${outfile} is not ASCII`);
  digests[name] = crypto.createHash('sha256').update(text).digest('hex').slice(0, 16);
}

for (const name of ['cli', 'hook', 'hook-run', 'resolve'])
  await bundle(name, { entryPoints: [path.join(repo, `src/cli/entry-${name}.ts`)] }, [
    lazyHosts,
    ...(name === 'resolve' ? [withoutSessions] : []),
  ]);

// One bundle per host folder, exporting its host as `host` (src/cli/lazy-hosts.ts loads
// `host-<id>.cjs`): the folder is named as the host's id.
// Each host's folder and the name its `index.ts` exports the host as, for `hosts.cjs` below.
const hostExports = [];
for (const dir of fs.readdirSync(path.join(repo, 'src/hosts'), { withFileTypes: true })) {
  if (!dir.isDirectory()) continue;
  const index = fs.readFileSync(path.join(repo, 'src/hosts', dir.name, 'index.ts'), 'utf8');
  const exported = /^export const (\w+): Host = \{\n\s+id: '([a-z0-9-]+)',/m.exec(index);
  if (exported === null || exported[2] !== dir.name)
    throw new Error(
      `src/hosts/${dir.name}/index.ts: no \`export const <name>: Host\` with the id ${dir.name}`,
    );
  hostExports.push({ dir: dir.name, name: exported[1] });
  await bundle(
    `host-${dir.name}`,
    {
      stdin: {
        // Strict, as the sources are (tsconfig's `strict`, which esbuild applies to files, not stdin).
        contents: `'use strict';\nexport { ${exported[1]} as host } from './src/hosts/${dir.name}/index.ts';`,
        resolveDir: repo,
        loader: 'ts',
        sourcefile: `host-${dir.name}.ts`,
      },
    },
    [],
  );
}

// Every host in one bundle, for what asks for them all (`presets`, `doctor`, the line `resolve`
// prints when nothing applies): one file and one compile instead of twelve.
await bundle(
  'hosts',
  {
    stdin: {
      contents: [
        "'use strict';",
        ...hostExports.map(
          ({ dir, name }, i) => `import { ${name} as host${i} } from './src/hosts/${dir}/index.ts';`,
        ),
        `export const hosts = [${hostExports.map((_, i) => `host${i}`).join(', ')}];`,
      ].join('\n'),
      resolveDir: repo,
      loader: 'ts',
      sourcefile: 'hosts.ts',
    },
  },
  [],
);

// A real CommonJS module for the bundles' `import()` of code configs (src/config/load-code-config.ts):
// code compiled with vm.Script has no loader for it.
fs.writeFileSync(
  path.join(outdir, 'import-url.cjs'),
  "'use strict';\n// import() for the CLI bundles: see src/config/load-code-config.ts.\nmodule.exports = (url) => import(url);\n",
);

// `require('ctxfiles')`: ctxfiles is ESM-only. Where Node can require an ES module (22.12 and later)
// this loads it; elsewhere (Node 20) it fails with a message that says what to write instead.
fs.writeFileSync(
  path.join(repo, 'dist/require.cjs'),
  `'use strict';
// The "require" entry of package.json (scripts/bundle-cli.mjs): ctxfiles is an ES module only.
try {
  module.exports = require('./index.js');
} catch (error) {
  if (error === null || typeof error !== 'object' || error.code !== 'ERR_REQUIRE_ESM') throw error;
  throw Object.assign(
    new Error(
      'ctxfiles is an ES module only: use import { createResolver } from "ctxfiles", or from CommonJS ' +
        'await import("ctxfiles"). Node ' + process.versions.node + ' cannot require() an ES module (22.12 and later can).',
      { cause: error },
    ),
    { code: 'ERR_REQUIRE_ESM' },
  );
}
`,
);

await build({
  ...common,
  entryPoints: [path.join(repo, 'src/cli/bin.ts')],
  outfile: path.join(outdir, 'ctxfiles.cjs'),
  plugins: [ownRequire],
  define: { ...IMPORT_META_URL, CTXFILES_BUNDLE_DIGESTS: JSON.stringify(digests) },
});
viewBuiltins(path.join(outdir, 'ctxfiles.cjs'));
fs.chmodSync(path.join(outdir, 'ctxfiles.cjs'), 0o755);
