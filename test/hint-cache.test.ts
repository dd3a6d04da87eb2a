import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { environmentDigest, openHintCache, type HintCache } from '../src/cli/hint-cache.js';
import { codeConfigsLoaded } from '../src/config/read-config.js';
import type { FileSystem } from '../src/fs/file-system.js';
import { memoizeFileSystem } from '../src/fs/memo-file-system.js';
import { createNodeFileSystem } from '../src/fs/node-file-system.js';
import { spawnBin } from './helpers/cli.js';
import { tempTree, writeTree } from './helpers/disk.js';

// The preset hint of the line `resolve` prints when nothing applies, kept between runs
// (src/cli/hint-cache.ts): taken only when every question the port was asked has the same answer.

const nodeFs = createNodeFileSystem();

/** A cache in a private temp dir of its own, and the port that hears for it. */
function cacheIn(cacheHome: string, key = 'key'): { hints: HintCache; port: FileSystem } {
  const hints = openHintCache({ env: { XDG_CACHE_HOME: cacheHome }, homeDir: cacheHome, key });
  if (hints === undefined) throw new Error('no cache');
  return { hints, port: memoizeFileSystem(nodeFs, hints.heard) };
}

/** What a resolution might ask: a probe, a listing, a read, a realpath, a missing file's lstat. */
function askAll(port: FileSystem, root: string): string {
  const seen: string[] = [];
  seen.push(port.probe(path.join(root, 'AGENTS.md')) === null ? 'no AGENTS.md' : 'AGENTS.md');
  seen.push(
    port
      .readdir(root)
      .map((entry) => entry.name)
      .sort()
      .join(','),
  );
  seen.push(port.realpath(root));
  try {
    seen.push(
      new TextDecoder().decode(port.readFile(path.join(root, 'config.json'), { maxBytes: 100 }).bytes),
    );
  } catch (error) {
    seen.push(String((error as { code?: string }).code));
  }
  try {
    port.lstat(path.join(root, 'missing'));
  } catch (error) {
    seen.push(String((error as { code?: string }).code));
  }
  return seen.join('|');
}

describe('openHintCache', () => {
  test('a kept hint is taken while every answer is the same, and not after any one changes', () => {
    const root = tempTree({ 'config.json': '{"a":1}', 'x.md': 'x' });
    const cacheHome = tempTree();
    const first = cacheIn(cacheHome);
    expect(first.hints.lookup()).toBeUndefined();
    const hint = askAll(first.port, root);
    first.hints.keep(hint);
    expect(cacheIn(cacheHome).hints.lookup()).toBe(hint);
    // Another key: not taken.
    expect(cacheIn(cacheHome, 'other').hints.lookup()).toBeUndefined();
    const changes: ((dir: string) => void)[] = [
      (dir) => fs.writeFileSync(path.join(dir, 'AGENTS.md'), 'now here'),
      (dir) => fs.writeFileSync(path.join(dir, 'config.json'), '{"a":2}'), // same size, other bytes
      (dir) => fs.writeFileSync(path.join(dir, 'missing'), ''),
      (dir) => fs.rmSync(path.join(dir, 'x.md')),
    ];
    for (const change of changes) {
      const dir = tempTree({ 'config.json': '{"a":1}', 'x.md': 'x' });
      const before = cacheIn(cacheHome, dir);
      before.hints.keep(askAll(before.port, dir));
      expect(cacheIn(cacheHome, dir).hints.lookup()).toBe(askAll(nodeFs, dir));
      change(dir);
      expect(cacheIn(cacheHome, dir).hints.lookup(), change.toString()).toBeUndefined();
    }
  });

  test('one answer of a kind changed: a link retargeted, a missing parent now a file', () => {
    const root = tempTree({ 'a.md': 'a', 'b.md': 'b', 'link.md': { symlink: 'a.md' } });
    const cacheHome = tempTree();
    const kept = cacheIn(cacheHome, 'link');
    const seen = `${kept.port.realpath(path.join(root, 'link.md'))}`;
    // `x` is missing: ENOENT; once `x` is a file, the same lstat answers ENOTDIR.
    expect(() => kept.port.lstat(path.join(root, 'x/y'))).toThrow(/ENOENT/);
    kept.hints.keep(seen);
    expect(cacheIn(cacheHome, 'link').hints.lookup()).toBe(seen);
    fs.rmSync(path.join(root, 'link.md'));
    fs.symlinkSync('b.md', path.join(root, 'link.md'));
    expect(cacheIn(cacheHome, 'link').hints.lookup()).toBeUndefined();
    const other = cacheIn(cacheHome, 'notdir');
    expect(() => other.port.lstat(path.join(root, 'x/y'))).toThrow(/ENOENT/);
    other.hints.keep('hint');
    expect(cacheIn(cacheHome, 'notdir').hints.lookup()).toBe('hint');
    fs.writeFileSync(path.join(root, 'x'), 'a file');
    expect(cacheIn(cacheHome, 'notdir').hints.lookup()).toBeUndefined();
  });

  test('nothing is kept when unsure, after a code config was loaded, or with more questions than it may keep', () => {
    const root = tempTree({ 'x.md': 'x' });
    const cacheHome = tempTree();
    const unsure = cacheIn(cacheHome, 'unsure');
    askAll(unsure.port, root);
    unsure.hints.unsure();
    unsure.hints.keep('hint');
    expect(cacheIn(cacheHome, 'unsure').hints.lookup()).toBeUndefined();
    const code = cacheIn(cacheHome, 'code');
    askAll(code.port, root);
    codeConfigsLoaded.count += 1;
    try {
      code.hints.keep('hint');
    } finally {
      codeConfigsLoaded.count -= 1;
    }
    expect(cacheIn(cacheHome, 'code').hints.lookup()).toBeUndefined();
    const many = cacheIn(cacheHome, 'many');
    for (let index = 0; index <= 20_000; index += 1) many.port.probe(path.join(root, `f${index}`));
    many.hints.keep('hint');
    expect(cacheIn(cacheHome, 'many').hints.lookup()).toBeUndefined();
    expect(fs.existsSync(path.join(cacheHome, 'ctxfiles/hints'))).toBe(false);
  });

  test('no cache with CTXFILES_NO_CACHE; a file not its own or not its shape is not taken', () => {
    const cacheHome = tempTree();
    expect(
      openHintCache({
        env: { XDG_CACHE_HOME: cacheHome, CTXFILES_NO_CACHE: '1' },
        homeDir: cacheHome,
        key: 'k',
      }),
    ).toBeUndefined();
    const root = tempTree({ 'x.md': 'x' });
    const kept = cacheIn(cacheHome);
    askAll(kept.port, root);
    kept.hints.keep('hint');
    const dir = path.join(cacheHome, 'ctxfiles/hints');
    const [name] = fs.readdirSync(dir);
    const file = path.join(dir, name as string);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(cacheIn(cacheHome).hints.lookup()).toBe('hint');
    const text = fs.readFileSync(file, 'utf8');
    for (const bad of [
      text.replace('"probe"', '"unlink"'),
      '',
      '{',
      '[]',
      text.replace('"format":1', '"format":2'),
      text.replace('"questions":[', '"questions":[1,'),
    ]) {
      fs.writeFileSync(file, bad);
      expect(cacheIn(cacheHome).hints.lookup()).toBeUndefined();
    }
    // A symlink planted at the file's name is never followed.
    const elsewhere = path.join(root, 'planted.json');
    fs.writeFileSync(elsewhere, text);
    fs.rmSync(file);
    fs.symlinkSync(elsewhere, file);
    expect(cacheIn(cacheHome).hints.lookup()).toBeUndefined();
  });

  test('the environment digest differs for any change of a name or a value', () => {
    fc.assert(
      fc.property(
        fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }), fc.string({ maxLength: 8 }), { maxKeys: 6 }),
        fc.string({ minLength: 1, maxLength: 8 }),
        fc.string({ maxLength: 8 }),
        (env, name, value) => {
          fc.pre(env[name] !== value);
          expect(environmentDigest({ ...env, [name]: value })).not.toBe(environmentDigest(env));
          // Order does not matter.
          const reversed = Object.fromEntries(Object.entries(env).reverse());
          expect(environmentDigest(reversed)).toBe(environmentDigest(env));
        },
      ),
    );
  });
});

describe('the bin keeps the hint', () => {
  // Each step changes the project; after each, the line with a kept hint is the line computed
  // afresh (CTXFILES_NO_CACHE), and a run that changed nothing takes the hint it kept.
  const steps: readonly {
    readonly name: string;
    readonly tree?: Record<string, string>;
    readonly remove?: string;
  }[] = [
    { name: 'empty' },
    { name: 'a GEMINI.md', tree: { 'GEMINI.md': 'g' } },
    { name: 'a nested GEMINI.md', tree: { 'a/b/GEMINI.md': 'g2' } },
    { name: 'a Cursor rule', tree: { '.cursor/rules/r.mdc': '---\nalwaysApply: true\n---\nR' } },
    { name: 'the rule gone', remove: '.cursor' },
    {
      name: 'settings that name AGENTS.md',
      tree: { '.gemini/settings.json': '{"context":{"fileName":["AGENTS.md"]}}' },
    },
    { name: 'a config that reads nothing', tree: { '.opencode.json': '{"contextPaths":["NOTHING.md"]}' } },
    { name: 'a user file in the home', tree: { '.claude/CLAUDE.md': 'home' } },
    { name: 'every GEMINI.md gone', remove: 'GEMINI.md' },
  ];

  test('the same line as without the cache after every change, and the kept file reused when nothing changed', () => {
    const root = tempTree({ '.git/HEAD': 'x' });
    const cacheHome = tempTree();
    const env = { XDG_CACHE_HOME: cacheHome };
    const hintFiles = () => {
      const dir = path.join(cacheHome, 'ctxfiles/hints');
      return fs.existsSync(dir) ? fs.readdirSync(dir).map((name) => path.join(dir, name)) : [];
    };
    const lines: string[] = [];
    for (const step of steps) {
      if (step.tree !== undefined) writeTree(root, step.tree);
      if (step.remove !== undefined) fs.rmSync(path.join(root, step.remove), { recursive: true });
      const kept = spawnBin(['resolve'], { cwd: root, env });
      const fresh = spawnBin(['resolve'], { cwd: root, env: { ...env, CTXFILES_NO_CACHE: '1' } });
      expect(kept.code, step.name).toBe(0);
      expect(kept.stderr, step.name).toBe(fresh.stderr);
      expect(kept.stdout, step.name).toBe(fresh.stdout);
      if (kept.stdout === '') {
        expect(kept.stderr, step.name).toMatch(/^ctxfiles: nothing to print: /);
        // Nothing changed: the kept file is read, not written again.
        const [file] = hintFiles();
        const before = fs.statSync(file as string);
        expect(spawnBin(['resolve'], { cwd: root, env }).stderr, step.name).toBe(fresh.stderr);
        const after = fs.statSync(file as string);
        expect([after.ino, after.mtimeMs], step.name).toEqual([before.ino, before.mtimeMs]);
      }
      lines.push(kept.stderr);
    }
    // Other command lines in the same place: each its own hint, each the line computed afresh.
    for (const argv of [['resolve', '--preset', 'codex'], ['manifest'], ['resolve', '--agent', 'x']]) {
      const kept = spawnBin(argv, { cwd: root, env });
      expect(spawnBin(argv, { cwd: root, env }).stderr, argv.join(' ')).toBe(kept.stderr);
      expect(kept.stderr, argv.join(' ')).toBe(
        spawnBin(argv, { cwd: root, env: { ...env, CTXFILES_NO_CACHE: '1' } }).stderr,
      );
    }
    expect(hintFiles()).toHaveLength(4);
    // The steps did change the line: a cache that never took a new hint would fail above.
    expect(new Set(lines).size).toBeGreaterThan(3);
  });

  test('no hint is kept where a code config is loaded: it reads files the cache does not see', () => {
    const root = tempTree({
      '.git/HEAD': 'x',
      'ctxfiles.config.mjs': 'export default { contextPaths: ["NONE.md"] };\n',
    });
    const cacheHome = tempTree();
    const env = { XDG_CACHE_HOME: cacheHome };
    const hints = path.join(cacheHome, 'ctxfiles/hints');
    const named = spawnBin(['resolve', '--config', 'ctxfiles.config.mjs'], { cwd: root, env });
    expect(named.code).toBe(0);
    expect(named.stderr).toMatch(
      /^ctxfiles: nothing to print: no instruction file applies here \(looked for NONE\.md/,
    );
    expect(fs.existsSync(hints)).toBe(false);
    // Found by the search, the same file is refused, not run: the hint is kept.
    const searched = spawnBin(['resolve'], { cwd: root, env });
    expect(searched.stderr).toContain('[code-config-refused]');
    expect(fs.readdirSync(hints)).toHaveLength(1);
  });
});
