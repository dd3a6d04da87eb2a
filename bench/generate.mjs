// Seeded synthetic monorepos for the benchmarks. A tree is written once per (size, seed, version)
// and reused while its marker file matches.
import fs from 'node:fs';
import path from 'node:path';

const VERSION = 4;

/** Sizes: `packages` drives everything; each package adds ~1,050 files and ~100 directories. */
export const SIZES = {
  small: { packages: 1 },
  medium: { packages: 50 },
  large: { packages: 300 },
  // About a million files: only its walk is timed, for the growth figure (bench/run.mjs).
  huge: { packages: 955 },
};

/** Directory names the nested walk prunes; decoys go in here. */
const PRUNED = ['node_modules', 'dist', 'build', 'target', 'coverage', '__pycache__', 'vendor'];

function prng(seed) {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state ^ (state >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0;
    state ^= state >>> 12;
    return (state >>> 0) / 0x1_0000_0000;
  };
}

/**
 * Writes (or reuses) a synthetic monorepo and returns its root, the nested AGENTS.md files the
 * walk must find (relative paths, sorted), and its file and directory counts.
 */
export function generate(root, size, seed = 42) {
  const marker = path.join(root, '.bench-tree.json');
  const wanted = { version: VERSION, size, seed };
  if (fs.existsSync(marker)) {
    const saved = JSON.parse(fs.readFileSync(marker, 'utf8'));
    if (JSON.stringify(saved.params) === JSON.stringify(wanted)) return { root, ...saved.summary };
  }
  fs.rmSync(root, { recursive: true, force: true });
  const random = prng(seed);
  const expected = [];
  let files = 0;
  let dirs = 0;
  const mkdir = (dir) => {
    fs.mkdirSync(path.join(root, dir), { recursive: true });
    dirs += 1;
  };
  const write = (file, text = '') => {
    fs.writeFileSync(path.join(root, file), text);
    files += 1;
  };
  const agents = (dir, label) => `---\ndescription: ${label}\n---\n# ${dir}\nRules for ${dir}.\n`;

  mkdir('.');
  write('AGENTS.md', '# Root rules\n');
  write('package.json', '{"name":"bench"}');
  mkdir('.git/objects');
  for (let index = 0; index < SIZES[size].packages * 3; index += 1) {
    const dir = `.git/objects/${index.toString(16).padStart(2, '0')}`;
    mkdir(dir);
    for (let file = 0; file < 10; file += 1) write(`${dir}/${file}`, 'x');
    write(`${dir}/AGENTS.md`, 'decoy');
  }
  for (let pkg = 0; pkg < SIZES[size].packages; pkg += 1) {
    const base = `packages/p${pkg}`;
    mkdir(base);
    write(`${base}/package.json`, '{}');
    // Source: 4 areas × 10 directories × 10 files, up to 4 levels deep.
    for (let area = 0; area < 4; area += 1) {
      for (let leaf = 0; leaf < 10; leaf += 1) {
        const dir = `${base}/src/area${area}/${leaf < 5 ? `mod${leaf}` : `mod${leaf % 5}/sub${leaf}`}`;
        mkdir(dir);
        for (let file = 0; file < 10; file += 1) write(`${dir}/f${file}.ts`, 'export {};\n');
        if (random() < 0.03) {
          write(`${dir}/AGENTS.md`, agents(dir, `Rules for ${dir}`));
          expected.push(`${dir}/AGENTS.md`);
        }
      }
    }
    // Tests: 10 directories × 5 files.
    for (let suite = 0; suite < 10; suite += 1) {
      const dir = `${base}/test/s${suite}`;
      mkdir(dir);
      for (let file = 0; file < 5; file += 1) write(`${dir}/t${file}.test.ts`, '');
    }
    // Dependencies: 5 packages × 8 directories × 10 files, each with a decoy.
    for (let dep = 0; dep < 5; dep += 1) {
      for (let inner = 0; inner < 8; inner += 1) {
        const dir = `${base}/node_modules/dep${dep}/lib${inner}`;
        mkdir(dir);
        for (let file = 0; file < 10; file += 1) write(`${dir}/m${file}.js`, '');
      }
      write(`${base}/node_modules/dep${dep}/AGENTS.md`, 'decoy');
    }
    // Build output and caches, with decoys.
    const pruned = PRUNED[pkg % PRUNED.length] === 'node_modules' ? 'dist' : PRUNED[pkg % PRUNED.length];
    for (let inner = 0; inner < 5; inner += 1) {
      const dir = `${base}/${pruned}/chunk${inner}`;
      mkdir(dir);
      for (let file = 0; file < 20; file += 1) write(`${dir}/c${file}.js`, '');
      write(`${dir}/AGENTS.md`, 'decoy');
    }
    for (let inner = 0; inner < 2; inner += 1) {
      const dir = `${base}/.cache/c${inner}`;
      mkdir(dir);
      for (let file = 0; file < 25; file += 1) write(`${dir}/k${file}`, '');
      write(`${dir}/AGENTS.md`, 'decoy');
    }
    if (random() < 0.5) {
      write(`${base}/AGENTS.md`, agents(base, `Package p${pkg}`));
      expected.push(`${base}/AGENTS.md`);
    }
  }
  expected.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const summary = { expected, files, dirs };
  fs.writeFileSync(marker, JSON.stringify({ params: wanted, summary }));
  return { root, ...summary };
}
