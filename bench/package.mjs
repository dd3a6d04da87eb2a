// What a user installs, measured by `npm run bench` (bench/run.mjs) and alone by
// `npm run bench:package`. Packs the package (`npm pack`), installs the tarball into an empty project,
// and reports the installed size of node_modules (apparent bytes of every file: what the production
// dependencies and ctxfiles itself take on disk) and the packages, against the target of ≤ 12 MB
// (issue 27). Then runs the installed bin, `npx ctxfiles resolve`, in trees shaped like five real
// repositories (bench/five-repositories.mjs): each must print its always rules and no glob rule.
// Alone, it writes bench/package-report.json. A benchmark, not a test: `npm install` needs the
// registry or a warm npm cache (it runs with --prefer-offline, so a warm cache is enough).
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
 * Packs the built package, installs the tarball in a new empty project (a temp dir, removed
 * afterwards), measures it and runs `resolve` in the five repository shapes. Returns the figures.
 */
export async function measurePackage() {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'ctxfiles-package-'));
  try {
    const [packed] = JSON.parse(run('npm', ['pack', '--json', '--pack-destination', work], repo));
    const project = path.join(work, 'project');
    fs.mkdirSync(project);
    fs.writeFileSync(
      path.join(project, 'package.json'),
      '{"name":"empty","version":"1.0.0","private":true}\n',
    );
    run(
      'npm',
      ['install', '--prefer-offline', '--no-audit', '--no-fund', path.join(work, packed.filename)],
      project,
    );
    const modules = path.join(project, 'node_modules');
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
  const figures = await measurePackage();
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
