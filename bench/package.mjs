// What a user installs, measured by `npm run bench` (bench/run.mjs) and alone by
// `npm run bench:package`. Packs the package (`npm pack`), installs the tarball into an empty project,
// and reports the installed size of node_modules (apparent bytes of every file: what the production
// dependencies and ctxfiles itself take on disk) and the packages, against the target of ≤ 12 MB
// (issue 27). Then runs the installed bin, `npx ctxfiles resolve`, in trees shaped like five real
// repositories (bench/five-repositories.mjs): each must print its always rules and no glob rule.
// Alone, it packs a clean copy of the checkout (no dist/: `prepack` builds it, as for a clone) and
// writes bench/package-report.json. The install is offline: the empty project gets a lock file made
// from this repository's (its production entries), so the npm cache that `npm ci` filled is enough.
// test/packed-install.test.ts uses the same steps.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { FIVE_REPOSITORIES, writeTree } from './five-repositories.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '..');
export const TARGET_BYTES = 12_000_000;

function run(command, args, cwd) {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8', timeout: 600_000 });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')}: ${result.stderr || result.error}`);
  return result.stdout;
}

/**
 * Copies the checkout as a clone would hold it (the files git tracks, and new ones it does not
 * ignore: no dist/, no node_modules/) to `dest`, and links this checkout's node_modules there so
 * the build that `npm pack` runs (`prepack`) finds its tools without a second install.
 */
export function cleanCopy(dest) {
  const listed = run('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], repo);
  for (const file of listed.split('\0')) {
    if (file === '' || !fs.existsSync(path.join(repo, file))) continue;
    fs.mkdirSync(path.join(dest, path.dirname(file)), { recursive: true });
    fs.copyFileSync(path.join(repo, file), path.join(dest, file));
  }
  fs.symlinkSync(path.join(repo, 'node_modules'), path.join(dest, 'node_modules'), 'dir');
  return dest;
}

/**
 * `npm pack` of the package in `from` into `to`; with `build: false` the lifecycle scripts are
 * skipped (the caller built dist/ already). Returns npm's record of the tarball.
 */
export function packPackage({ from = repo, to, build = true }) {
  const args = ['pack', '--json', '--pack-destination', to, ...(build ? [] : ['--ignore-scripts'])];
  const out = run('npm', args, from);
  // The build's own output may come first; npm's JSON is the array at the end.
  return JSON.parse(out.slice(out.lastIndexOf('\n[') + 1))[0];
}

/**
 * Installs a packed tarball into a new empty project `project`, offline: its lock file holds the
 * tarball and this repository's production entries, so `npm ci --offline` needs only the npm cache.
 */
export function installTarball(packed, tarballDir, project) {
  fs.mkdirSync(project, { recursive: true });
  const lock = JSON.parse(fs.readFileSync(path.join(repo, 'package-lock.json'), 'utf8'));
  const self = lock.packages[''];
  const spec = `file:${path.relative(project, path.join(tarballDir, packed.filename))}`;
  const manifest = { name: 'empty', version: '1.0.0', private: true, dependencies: { ctxfiles: spec } };
  const packages = {
    '': { name: 'empty', version: '1.0.0', dependencies: { ctxfiles: spec } },
    'node_modules/ctxfiles': {
      version: packed.version,
      resolved: spec,
      integrity: packed.integrity,
      ...Object.fromEntries(
        ['license', 'dependencies', 'bin', 'engines', 'peerDependencies', 'peerDependenciesMeta']
          .filter((key) => self[key] !== undefined)
          .map((key) => [key, self[key]]),
      ),
    },
  };
  for (const [key, entry] of Object.entries(lock.packages))
    if (key !== '' && entry.dev !== true && entry.devOptional !== true) packages[key] = entry;
  fs.writeFileSync(path.join(project, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  fs.writeFileSync(
    path.join(project, 'package-lock.json'),
    `${JSON.stringify({ name: 'empty', version: '1.0.0', lockfileVersion: 3, requires: true, packages }, null, 2)}\n`,
  );
  run('npm', ['ci', '--offline', '--no-audit', '--no-fund'], project);
  return path.join(project, 'node_modules');
}

/** Apparent bytes of every file below `dir` (symlinks counted as links, not followed). */
function bytesBelow(dir) {
  let total = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) total += bytesBelow(full);
    else total += fs.lstatSync(full).size;
  }
  return total;
}

/** The installed packages below `modules`, largest first. */
function packagesIn(modules) {
  const packages = [];
  for (const name of fs.readdirSync(modules)) {
    if (name.startsWith('.')) continue;
    const names = name.startsWith('@')
      ? fs.readdirSync(path.join(modules, name)).map((sub) => `${name}/${sub}`)
      : [name];
    for (const full of names) packages.push({ name: full, bytes: bytesBelow(path.join(modules, full)) });
  }
  return packages.sort((a, b) => b.bytes - a.bytes);
}

/**
 * Packs the package, installs the tarball in a new empty project (a temp dir, removed afterwards),
 * measures it and runs `resolve` in the five repository shapes. Returns the figures. With `clean`,
 * packs a clean copy of the checkout, which `prepack` builds; else packs the checkout as built.
 */
export async function measurePackage({ clean = false } = {}) {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'ctxfiles-package-'));
  try {
    const packed = clean
      ? packPackage({ from: cleanCopy(path.join(work, 'clone')), to: work })
      : packPackage({ to: work, build: false });
    const modules = installTarball(packed, work, path.join(work, 'project'));
    const packages = packagesIn(modules);
    const installed = bytesBelow(modules);
    const bin = path.join(modules, '.bin', 'ctxfiles');
    const repositories = [];
    for (const shape of FIVE_REPOSITORIES) {
      const root = path.join(work, 'repos', shape.name);
      fs.mkdirSync(root, { recursive: true });
      await writeTree(root, shape.tree);
      const out = run(bin, ['resolve'], root);
      const missing = shape.printed.filter((text) => !out.includes(text));
      const extra = shape.notPrinted.filter((text) => out.includes(text));
      repositories.push({ name: shape.name, ok: missing.length === 0 && extra.length === 0, missing, extra });
    }
    return {
      tarball: { name: packed.filename, bytes: packed.size, files: packed.entryCount },
      installed,
      target: TARGET_BYTES,
      packages,
      repositories,
    };
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

export const mb = (bytes) => `${(bytes / 1e6).toFixed(2)} MB`;

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const figures = await measurePackage({ clean: true });
  const { tarball, installed, packages, repositories } = figures;
  console.log(`tarball ${tarball.name}: ${mb(tarball.bytes)} packed, ${tarball.files} files`);
  console.log(
    `installed size (node_modules, ${packages.length} packages): ${mb(installed)}, target ≤ ${mb(TARGET_BYTES)}: ${installed <= TARGET_BYTES ? 'ok' : 'MISSED'}`,
  );
  for (const entry of packages) console.log(`  ${entry.name.padEnd(28)} ${mb(entry.bytes)}`);
  for (const { name, ok, missing, extra } of repositories)
    console.log(
      `npx ctxfiles resolve in ${name.padEnd(20)} ${ok ? 'ok' : `MISSED: missing ${missing}, extra ${extra}`}`,
    );
  fs.writeFileSync(
    path.join(here, 'package-report.json'),
    `${JSON.stringify({ date: new Date().toISOString(), node: process.version, ...figures }, null, 2)}\n`,
  );
}
