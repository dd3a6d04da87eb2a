import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { createResolver } from '../src/index.js';
import { parseConfig } from '../src/index.js';
import { walkNested } from '../src/discover/nested-walk.js';
import { createMemoryFileSystem } from '../src/fs/memory-file-system.js';
import { createNodeFileSystem, readRegularFile } from '../src/fs/node-file-system.js';
import { tempTree, writeTree } from './helpers/disk.js';

async function resolveOnDisk(root: string, contextPaths: string[]) {
  const { config } = await parseConfig({ contextPaths });
  const resolver = await createResolver({ workDir: root, config, env: {} });
  return resolver.resolve();
}

describe('node filesystem (real disk)', () => {
  test('a symlink inside the work dir pointing outside is skipped', async () => {
    const outside = tempTree({ 'secret.md': 'SECRET' });
    const root = tempTree({
      'AGENTS.md': 'root',
      'leak.md': { symlink: path.join(outside, 'secret.md') },
      dir: { symlink: outside },
    });
    const result = await resolveOnDisk(root, ['AGENTS.md', 'leak.md', 'dir/secret.md', 'dir/']);
    expect(result.files.map((file) => file.path)).toEqual([`${root}/AGENTS.md`]);
    expect(result.text).not.toContain('SECRET');
    expect(
      result.diagnostics.filter((d) => d.code === 'symlink-outside-workdir').map((d) => d.entry),
    ).toEqual(['leak.md', 'dir/secret.md', 'dir/']);
  });

  test('a sibling directory sharing the prefix is outside', async () => {
    const root = tempTree({ 'w/AGENTS.md': 'inside', 'w-evil/AGENTS.md': 'evil' });
    const result = await resolveOnDisk(path.join(root, 'w'), ['../w-evil/AGENTS.md', 'AGENTS.md']);
    expect(result.files.map((file) => file.text)).toEqual(['inside']);
  });

  test('symlink loops in a directory entry terminate', async () => {
    const root = tempTree({
      'rules/a.md': 'a',
      'rules/loop': { symlink: '.' },
      'rules/sub/up': { symlink: '..' },
    });
    const result = await resolveOnDisk(root, ['rules/']);
    expect(result.files.map((file) => file.text)).toEqual(['a']);
  });

  test('a FIFO is never opened and a socket is ignored', async () => {
    const root = tempTree({ 'AGENTS.md': 'root' });
    execFileSync('mkfifo', [path.join(root, 'CLAUDE.md')]);
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(path.join(root, 'sock.md'), resolve));
    try {
      const result = await resolveOnDisk(root, ['AGENTS.md', 'CLAUDE.md', 'sock.md']);
      expect(result.files.map((file) => file.text)).toEqual(['root']);
      expect(result.diagnostics.filter((d) => d.code === 'not-regular').map((d) => d.entry)).toEqual([
        'CLAUDE.md',
        'sock.md',
      ]);
    } finally {
      server.close();
    }
  }, 10_000);

  test('reads are bounded: a sparse multi-gigabyte file is refused without reading it whole', async () => {
    const root = tempTree({ 'AGENTS.md': 'root' });
    const big = path.join(root, 'BIG.md');
    fs.closeSync(fs.openSync(big, 'w'));
    fs.truncateSync(big, 3 * 1024 ** 3);
    const before = process.memoryUsage().rss;
    const result = await resolveOnDisk(root, ['AGENTS.md', 'BIG.md']);
    expect(result.files.map((file) => file.path)).toEqual([`${root}/AGENTS.md`]);
    expect(result.diagnostics.find((d) => d.code === 'too-large')?.path).toBe(big);
    expect(process.memoryUsage().rss - before).toBeLessThan(256 * 1024 ** 2);
  }, 10_000);

  test('property: the walk over the real disk finds what it finds over the same tree in memory', () => {
    // The Node port sets each entry's kind on Node's own directory entries (src/fs/node-file-system.ts):
    // same listings, kinds, pruning and order as the in-memory port, on random trees.
    const segment = fc.constantFrom('a', 'b', 'B', 'é', '.hidden', 'node_modules', 'dist', 'src');
    const leaf = fc.constantFrom('AGENTS.md', 'CLAUDE.md', 'x.ts', '.AGENTS.md');
    const file = fc
      .tuple(fc.array(segment, { minLength: 0, maxLength: 3 }), leaf)
      .map(([dirs, name]) => [...dirs, name].join('/'));
    fc.assert(
      fc.property(
        fc.uniqueArray(file, { maxLength: 12 }),
        fc.integer({ min: 1, max: 4 }),
        (paths, maxFiles) => {
          // A path that is also a directory of another path cannot exist on disk: keep the first.
          const kept = paths.filter((p) => !paths.some((other) => other.startsWith(`${p}/`)));
          const tree = Object.fromEntries(kept.map((p) => [p, `# ${p}\n`]));
          const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'ctxfiles-walk-')));
          try {
            writeTree(root, tree);
            const limits = { maxDepth: 3, maxFiles };
            const names = new Set(['AGENTS.md', 'CLAUDE.md']);
            const markers = new Set(['.hidden', 'src']);
            const onDisk = walkNested(createNodeFileSystem(), root, names, limits, { markers });
            const inMemory = walkNested(createMemoryFileSystem(tree), '/', names, limits, { markers });
            expect(onDisk.files).toEqual(inMemory.files);
            expect(onDisk.marked).toEqual(inMemory.marked);
            expect(onDisk.truncated).toBe(inMemory.truncated);
          } finally {
            fs.rmSync(root, { recursive: true, force: true });
          }
        },
      ),
      { numRuns: 60 },
    );
  });

  test('readFile refuses a final symlink and a replaced file', () => {
    const root = tempTree({ 'a.md': 'a', 'b.md': 'b', 'link.md': { symlink: 'a.md' } });
    const port = createNodeFileSystem();
    expect(() => port.readFile(path.join(root, 'link.md'), { maxBytes: 10 })).toThrow(
      expect.objectContaining({ code: 'ELOOP' }),
    );
    const info = port.stat(path.join(root, 'a.md'));
    expect(() => port.readFile(path.join(root, 'b.md'), { maxBytes: 10, expect: info })).toThrow(
      expect.objectContaining({ code: 'ESTALE' }),
    );
    expect(port.readFile(path.join(root, 'a.md'), { maxBytes: 10, expect: info }).bytes).toEqual(
      new TextEncoder().encode('a'),
    );
  });

  test('without O_NOFOLLOW (Windows) a read checks the path after the open: a final link is refused', () => {
    const root = tempTree({ 'a.md': 'a', 'link.md': { symlink: 'a.md' } });
    fs.linkSync(path.join(root, 'a.md'), path.join(root, 'also-a.md'));
    const followsLinks = { flags: fs.constants.O_RDONLY | fs.constants.O_NONBLOCK, noFollow: false };
    // The open followed the link to a.md; the path names a link, not that file.
    expect(() => readRegularFile(path.join(root, 'link.md'), { maxBytes: 10 }, followsLinks)).toThrow(
      expect.objectContaining({ code: 'ELOOP' }),
    );
    expect(readRegularFile(path.join(root, 'a.md'), { maxBytes: 10 }, followsLinks).bytes).toEqual(
      new TextEncoder().encode('a'),
    );
    // A hard link is the file itself, as with O_NOFOLLOW (security.md, "Hard links").
    expect(readRegularFile(path.join(root, 'also-a.md'), { maxBytes: 10 }, followsLinks).bytes).toEqual(
      new TextEncoder().encode('a'),
    );
  });

  test('readFile reads at most maxBytes and says so', () => {
    const root = tempTree({ 'a.md': 'abcdef' });
    const result = createNodeFileSystem().readFile(path.join(root, 'a.md'), { maxBytes: 4 });
    expect(new TextDecoder().decode(result.bytes)).toBe('abcd');
    expect(result.truncated).toBe(true);
  });

  test('nothing is ever written to context files', async () => {
    const root = tempTree({ 'AGENTS.md': 'root', 'rules/a.md': 'a' });
    const before = fs.statSync(path.join(root, 'AGENTS.md')).mtimeMs;
    await resolveOnDisk(root, ['AGENTS.md', 'rules/']);
    expect(fs.statSync(path.join(root, 'AGENTS.md')).mtimeMs).toBe(before);
    expect(fs.readdirSync(root).sort()).toEqual(['AGENTS.md', 'rules']);
  });
});

describe('memory filesystem', () => {
  test('symlinks, realpath, listing and faults', () => {
    const memory = createMemoryFileSystem({
      'a/b.md': 'b',
      link: { symlink: 'a' },
      abs: { symlink: '/a/b.md' },
    });
    expect(memory.realpath('/link/b.md')).toBe('/a/b.md');
    expect(memory.realpath('/abs')).toBe('/a/b.md');
    expect(memory.lstat('/link').kind).toBe('symlink');
    expect(memory.stat('/link').kind).toBe('directory');
    expect(memory.readdir('/').map((entry) => [entry.name, entry.kind])).toEqual([
      ['a', 'directory'],
      ['link', 'symlink'],
      ['abs', 'symlink'],
    ]);
    memory.fail('/a/b.md', 'readFile', 'EIO', 1);
    expect(() => memory.readFile('/a/b.md', { maxBytes: 10 })).toThrow(
      expect.objectContaining({ code: 'EIO' }),
    );
    expect(memory.readFile('/a/b.md', { maxBytes: 10 }).truncated).toBe(false);
    expect(() => memory.stat('/a/b.md/c')).toThrow(expect.objectContaining({ code: 'ENOTDIR' }));
    expect(() => memory.stat('/nope')).toThrow(expect.objectContaining({ code: 'ENOENT' }));
  });

  test('symlink loops fail with ELOOP', () => {
    const memory = createMemoryFileSystem({ x: { symlink: 'y' }, y: { symlink: 'x' } });
    expect(() => memory.realpath('/x')).toThrow(expect.objectContaining({ code: 'ELOOP' }));
  });
});

describe('memory filesystem times (as a real disk keeps them)', () => {
  const times = (memory: ReturnType<typeof createMemoryFileSystem>, file: string) => {
    const info = memory.lstat(file);
    return [info.mtimeMs, info.ctimeMs];
  };

  test.each([
    // [change, the path whose times it sets to the clock, a path it leaves alone]
    ['add a file', (m: ReturnType<typeof createMemoryFileSystem>) => m.set('/d/new.md', 'n'), '/d', '/d/e'],
    [
      'write a file',
      (m: ReturnType<typeof createMemoryFileSystem>) => m.set('/d/a.md', 'b'),
      '/d/a.md',
      '/d',
    ],
    ['remove an entry', (m: ReturnType<typeof createMemoryFileSystem>) => m.remove('/d/e'), '/d', '/'],
    [
      'replace a file by a dir',
      (m: ReturnType<typeof createMemoryFileSystem>) => m.set('/d/a.md', { dir: true }),
      '/d',
      '/',
    ],
    [
      'rename within a dir',
      (m: ReturnType<typeof createMemoryFileSystem>) => m.rename('/d/a.md', '/d/b.md'),
      '/d',
      '/d/e',
    ],
  ])('%s stamps %s with the clock', (_, change, stamped, untouched) => {
    let now = 5_000;
    const memory = createMemoryFileSystem({ 'd/a.md': 'a', 'd/e/f.md': 'f' }, { clock: () => now });
    const before = times(memory, untouched);
    now = 9_000;
    change(memory);
    expect(times(memory, stamped)).toEqual([9_000, 9_000]);
    expect(times(memory, untouched)).toEqual(before);
  });

  test('rename keeps the inode and mtime, sets its ctime, and changes both directories', () => {
    let now = 1;
    const memory = createMemoryFileSystem({ 'a/x/f.md': 'f', 'b/keep': 'k' }, { clock: () => now });
    const moved = memory.lstat('/a/x');
    now = 7;
    memory.rename('/a/x', '/b/y');
    const after = memory.lstat('/b/y');
    expect([after.ino, after.mtimeMs, after.ctimeMs]).toEqual([moved.ino, moved.mtimeMs, 7]);
    expect([memory.lstat('/a').mtimeMs, memory.lstat('/b').mtimeMs]).toEqual([7, 7]);
    expect(memory.readdir('/b/y').map((entry) => entry.name)).toEqual(['f.md']);
    expect(memory.realpath('/b/y/f.md')).toBe('/b/y/f.md');
    expect(memory.probe('/a/x')).toBeNull();
    expect(() => memory.rename('/b', '/b/y/z')).toThrow('below itself');
    expect(() => memory.rename('/nope', '/b/n')).toThrow('cannot rename');
  });

  test('without a clock every change counts up by one', () => {
    const memory = createMemoryFileSystem({ 'a.md': 'a' });
    const first = memory.lstat('/a.md').mtimeMs;
    memory.set('/a.md', 'b');
    expect(memory.lstat('/a.md')).toMatchObject({ mtimeMs: first + 1, ctimeMs: first + 1 });
  });
});

test('memory filesystem: lstat of a symlinked directory stays a symlink after a stat through it', () => {
  const memory = createMemoryFileSystem({ 'a/x': 'x', l: { symlink: 'a' } });
  expect(memory.stat('/l').kind).toBe('directory');
  expect(memory.lstat('/l').kind).toBe('symlink');
  expect(memory.lstat('/l/x').kind).toBe('file');
});
