import path from 'node:path';
import { describe, expect, test } from 'vitest';
import type { FileSystem, ReadOptions } from '../src/fs/file-system.js';
import { createMemoryFileSystem } from '../src/fs/memory-file-system.js';
import { createNodeFileSystem } from '../src/fs/node-file-system.js';
import { listHosts } from '../src/doctor/hosts.js';
import { runDoctor } from '../src/doctor/run-doctor.js';
import { shareReads } from '../src/doctor/shared-reads.js';
import { tempTree } from './helpers/disk.js';
import { shopMonorepo } from './fixtures/doctor-repos.js';
import { HOST_REGISTRY } from '../src/hosts/index.js';

/** `fs` with a count of the reads of each path that reach it. */
function counting(fs: FileSystem): { fs: FileSystem; reads: Map<string, number> } {
  const reads = new Map<string, number>();
  return {
    reads,
    fs: {
      lstat: (file) => fs.lstat(file),
      probe: (file) => fs.probe(file),
      stat: (file) => fs.stat(file),
      realpath: (file) => fs.realpath(file),
      readdir: (file) => fs.readdir(file),
      readFile: (file: string, options: ReadOptions) => {
        reads.set(file, (reads.get(file) ?? 0) + 1);
        return fs.readFile(file, options);
      },
    },
  };
}

describe('doctor reads each file once per run', () => {
  test('every host at every site and the corpus share one read of each file', async () => {
    const root = tempTree(shopMonorepo());
    const home = path.join(root, '.home');
    const disk = counting(createNodeFileSystem());
    const report = await runDoctor({
      workDir: root,
      hosts: listHosts(HOST_REGISTRY),
      paths: ['packages/api'],
      env: { HOME: home },
      homeDir: home,
      fs: disk.fs,
    });
    // Most hosts at each of the three sites load the root AGENTS.md, and the corpus reads it for the checks.
    expect(report.sites.map((site) => site.path)).toEqual(['.', 'packages/api', 'packages/web']);
    expect(
      report.sites[0]?.hosts.filter((column) => column.files.some((file) => file.path === 'AGENTS.md'))
        .length,
    ).toBeGreaterThan(5);
    const twice = [...disk.reads].filter(([, count]) => count > 1);
    expect(twice).toEqual([]);
    expect(disk.reads.get(path.join(root, 'AGENTS.md'))).toBe(1);
  });
});

describe('shareReads: answers a read as the port would', () => {
  const text = 'x'.repeat(100);
  const tree = () => createMemoryFileSystem({ '/r/a.md': text, '/r/b.md': 'b' });

  test('a whole file read once answers every later read, cut to what each asks', () => {
    const memory = counting(tree());
    const { fs } = shareReads(memory.fs);
    const whole = fs.readFile('/r/a.md', { maxBytes: 1000 });
    const cut = fs.readFile('/r/a.md', { maxBytes: 10 });
    const direct = tree().readFile('/r/a.md', { maxBytes: 10 });
    expect(whole.truncated).toBe(false);
    expect([cut.truncated, Buffer.from(cut.bytes).toString()]).toEqual([
      direct.truncated,
      Buffer.from(direct.bytes).toString(),
    ]);
    expect(fs.readFile('/r/a.md', { maxBytes: 100 }).truncated).toBe(false);
    expect(memory.reads.get('/r/a.md')).toBe(1);
  });

  test('a cut read answers smaller reads only; a larger one, another inode or a released cache goes to the disk', () => {
    const memory = counting(tree());
    const shared = shareReads(memory.fs);
    expect(shared.fs.readFile('/r/a.md', { maxBytes: 10 }).truncated).toBe(true);
    expect(shared.fs.readFile('/r/a.md', { maxBytes: 5 }).bytes.byteLength).toBe(5);
    expect(memory.reads.get('/r/a.md')).toBe(1);
    expect(shared.fs.readFile('/r/a.md', { maxBytes: 200 }).truncated).toBe(false);
    expect(memory.reads.get('/r/a.md')).toBe(2);
    const { info } = shared.fs.readFile('/r/a.md', { maxBytes: 200 });
    expect(memory.reads.get('/r/a.md')).toBe(2);
    expect(() =>
      shared.fs.readFile('/r/a.md', { maxBytes: 200, expect: { dev: info.dev, ino: info.ino + 1 } }),
    ).toThrow(/ESTALE/);
    expect(memory.reads.get('/r/a.md')).toBe(3);
    shared.release();
    shared.fs.readFile('/r/b.md', { maxBytes: 200 });
    shared.fs.readFile('/r/b.md', { maxBytes: 200 });
    expect(memory.reads.get('/r/b.md')).toBe(2);
  });

  test('keeps at most its byte budget', () => {
    const memory = counting(tree());
    const { fs } = shareReads(memory.fs, 50);
    fs.readFile('/r/a.md', { maxBytes: 1000 });
    fs.readFile('/r/a.md', { maxBytes: 1000 });
    fs.readFile('/r/b.md', { maxBytes: 1000 });
    fs.readFile('/r/b.md', { maxBytes: 1000 });
    expect([memory.reads.get('/r/a.md'), memory.reads.get('/r/b.md')]).toEqual([2, 1]);
  });
});
