import { describe, expect, test, vi } from 'vitest';
import {
  MAX_KEPT_NAMES,
  openWalkIndex,
  RACY_MARGIN_MS,
  WALK_INDEX_VERSION,
  type WalkIndexOptions,
} from '../src/discover/walk-index.js';
import { encodeListing } from '../src/discover/walk-listing.js';
import type { DirEntry, FileInfo, FileSystem } from '../src/fs/file-system.js';
import { createMemoryFileSystem, type MemoryFileSystem } from '../src/fs/memory-file-system.js';

// The real encoder, counted: a save must encode only the listings read afresh.
vi.mock('../src/discover/walk-listing.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../src/discover/walk-listing.js')>();
  return { ...original, encodeListing: vi.fn(original.encodeListing) };
});
const encoded = vi.mocked(encodeListing);

const KEY = '/w';
const LATER = RACY_MARGIN_MS + 1;

/** A memory tree under /w whose clock the test moves; changes are stamped with the clock. */
function clocked(tree: Record<string, string | { dir: true } | { symlink: string } | { fifo: true }>) {
  const clock = { now: 10_000 };
  const memory = createMemoryFileSystem({}, { clock: () => clock.now });
  memory.set('/w', { dir: true });
  for (const [file, spec] of Object.entries(tree)) memory.set(`/w/${file}`, spec);
  return { memory, clock };
}

function open(
  fs: FileSystem,
  clock: { now: number },
  saved: string | null | undefined,
  options: Partial<WalkIndexOptions> = {},
) {
  return openWalkIndex(fs, {
    key: KEY,
    root: '/w',
    saved: saved ?? undefined,
    now: () => clock.now,
    ...options,
  });
}

const names = (listing: readonly DirEntry[]) => listing.map((entry) => `${entry.kind}:${entry.name}`).sort();
const readdirs = (memory: MemoryFileSystem) =>
  memory.calls.filter((call) => call.op === 'readdir').map((call) => call.path);

describe('walk index: reuse and revalidation', () => {
  test('an unchanged settled directory is answered from the index with one lstat and no listing', () => {
    const { memory, clock } = clocked({ 'a/AGENTS.md': 'x', 'a/b/c.ts': 'c' });
    clock.now += LATER;
    const first = open(memory, clock, undefined);
    const fresh = first.fsFor(['AGENTS.md']).readdir('/w/a');
    const saved = first.serialize();
    expect(first.stats).toEqual({ hits: 0, misses: 1 });
    memory.calls.length = 0;
    const second = open(memory, clock, saved);
    const reused = second.fsFor(['AGENTS.md']).readdir('/w/a');
    expect(names(reused)).toEqual(names(fresh));
    expect(memory.calls).toEqual([{ op: 'lstat', path: '/w/a' }]);
    expect(second.stats).toEqual({ hits: 1, misses: 0 });
    // Nothing new: nothing to write.
    expect(second.serialize()).toBeNull();
  });

  test.each([
    // [what differs from the recorded directory]
    ['dev', { dev: 2 }],
    ['ino', { ino: 99 }],
    ['mtimeMs', { mtimeMs: 1 }],
    ['ctimeMs', { ctimeMs: 1 }],
    ['kind', { kind: 'symlink' as const }],
  ])('a different %s is a miss: the directory is listed again', (_, change) => {
    const recorded: FileInfo = { kind: 'directory', size: 0, mtimeMs: 0, ctimeMs: 0, dev: 1, ino: 7 };
    let info = recorded;
    let listed = 0;
    const stub: FileSystem = {
      lstat: () => info,
      probe: () => info,
      stat: () => info,
      realpath: (path) => path,
      readFile: () => {
        throw new Error('not used');
      },
      readdir: () => {
        listed += 1;
        return [{ name: 'd', kind: 'directory' }];
      },
    };
    const clock = { now: 10_000 };
    const first = open(stub, clock, undefined);
    first.fsFor([]).readdir('/w');
    const saved = first.serialize();
    open(stub, clock, saved).fsFor([]).readdir('/w');
    expect(listed).toBe(1);
    info = { ...recorded, ...change };
    open(stub, clock, saved).fsFor([]).readdir('/w');
    expect(listed).toBe(2);
  });

  test.each([
    ['a file added', (m: MemoryFileSystem) => m.set('/w/a/AGENTS.md', 'new')],
    ['a file removed', (m: MemoryFileSystem) => m.remove('/w/a/x.md')],
    ['a file replaced by a directory', (m: MemoryFileSystem) => m.set('/w/a/x.md', { dir: true })],
    // Moved away and back: same inode, same mtime, only ctime tells.
    [
      'the directory moved away and back',
      (m: MemoryFileSystem) => {
        m.rename('/w/a', '/w/tmp');
        m.rename('/w/tmp', '/w/a');
      },
    ],
  ])('%s in the same clock tick as the last walk is seen', (_, change) => {
    const { memory, clock } = clocked({ 'a/x.md': 'x' });
    clock.now += LATER;
    const first = open(memory, clock, undefined);
    first.fsFor(['AGENTS.md', 'x.md']).readdir('/w/a');
    const saved = first.serialize();
    change(memory); // The clock has not moved.
    const second = open(memory, clock, saved).fsFor(['AGENTS.md', 'x.md']);
    expect(names(second.readdir('/w/a'))).toEqual(names(memory.readdir('/w/a')));
  });

  test('a directory changed within the margin is listed afresh on every walk and never stored', () => {
    const { memory, clock } = clocked({ 'a/x.md': 'x' });
    clock.now += RACY_MARGIN_MS; // Not older than the margin yet.
    for (let run = 0; run < 3; run += 1) {
      const index = open(memory, clock, undefined);
      index.fsFor([]).readdir('/w/a');
      expect(index.stats).toEqual({ hits: 0, misses: 1 });
      expect(index.serialize()).toBeNull();
    }
    // The same holds inside one index: a young listing is not reused.
    const index = open(memory, clock, undefined);
    const fs = index.fsFor([]);
    fs.readdir('/w/a');
    fs.readdir('/w/a');
    expect(index.stats).toEqual({ hits: 0, misses: 2 });
  });

  test('a directory gone since the last walk fails as a plain listing does and leaves the index', () => {
    const { memory, clock } = clocked({ 'a/x.md': 'x' });
    clock.now += LATER;
    const first = open(memory, clock, undefined);
    first.fsFor([]).readdir('/w/a');
    const saved = first.serialize();
    memory.remove('/w/a');
    const second = open(memory, clock, saved);
    expect(() => second.fsFor([]).readdir('/w/a')).toThrow(expect.objectContaining({ code: 'ENOENT' }));
    expect(JSON.parse(second.serialize() ?? '{}').dirs).toEqual([]);
  });

  test('a listing fault is the plain fault, and nothing is recorded', () => {
    const { memory, clock } = clocked({ 'a/x.md': 'x' });
    clock.now += LATER;
    memory.fail('/w/a', 'readdir', 'EACCES', 1);
    const index = open(memory, clock, undefined);
    expect(() => index.fsFor([]).readdir('/w/a')).toThrow(expect.objectContaining({ code: 'EACCES' }));
    expect(index.serialize()).toBeNull();
  });
});

describe('walk index: what it stores', () => {
  test('plain files are dropped unless named; every other entry stays', () => {
    const { memory, clock } = clocked({
      'AGENTS.md': 'a',
      'notes.md': 'n',
      '.cursorrules': 'c',
      '.cursor/rules/r.mdc': 'r',
      src: { dir: true },
      'link.md': { symlink: 'notes.md' },
      pipe: { fifo: true },
    });
    clock.now += LATER;
    const first = open(memory, clock, undefined);
    first.fsFor(['AGENTS.md', '.cursorrules']).readdir('/w');
    const saved = first.serialize();
    const expected = [
      'directory:.cursor',
      'directory:src',
      'fifo:pipe',
      'file:.cursorrules',
      'file:AGENTS.md',
      'symlink:link.md',
    ];
    expect(names(open(memory, clock, saved).fsFor(['AGENTS.md']).readdir('/w'))).toEqual(expected);
    expect(saved).not.toContain('notes.md"');
    expect(saved).not.toContain('/fnotes.md');
  });

  test('a walk naming a file the index does not keep starts it over with both sets of names', () => {
    const { memory, clock } = clocked({ 'a/AGENTS.md': 'a', 'a/CLAUDE.md': 'c' });
    clock.now += LATER;
    const index = open(memory, clock, undefined);
    index.fsFor(['AGENTS.md']).readdir('/w/a');
    index.fsFor(['CLAUDE.md']).readdir('/w/a');
    expect(index.stats).toEqual({ hits: 0, misses: 2 });
    const saved = index.serialize();
    expect(JSON.parse(saved ?? '{}').names).toEqual(['AGENTS.md', 'CLAUDE.md']);
    const again = open(memory, clock, saved);
    expect(names(again.fsFor(['CLAUDE.md']).readdir('/w/a'))).toEqual(['file:AGENTS.md', 'file:CLAUDE.md']);
    expect(again.stats.hits).toBe(1);
  });

  test(`past ${MAX_KEPT_NAMES} names the index keeps only the newest walk's`, () => {
    const { memory, clock } = clocked({});
    const index = open(memory, clock, undefined);
    index.fsFor(Array.from({ length: MAX_KEPT_NAMES }, (_, i) => `n${i}`));
    index.fsFor(['one-more']);
    expect(JSON.parse(index.serialize() ?? '{}').names).toEqual(['one-more']);
  });

  test('directories not visited since the index was opened are dropped when it is saved', () => {
    const { memory, clock } = clocked({ 'a/x': 'x', 'b/y': 'y' });
    clock.now += LATER;
    const first = open(memory, clock, undefined);
    first.fsFor([]).readdir('/w/a');
    first.fsFor([]).readdir('/w/b');
    const saved = first.serialize();
    const second = open(memory, clock, saved);
    second.fsFor([]).readdir('/w/a');
    expect(JSON.parse(second.serialize() ?? '{}').dirs.map((row: unknown[]) => row[0])).toEqual(['a']);
  });

  test('a save encodes only the listings read afresh: an unchanged directory is written as it was loaded', () => {
    const { memory, clock } = clocked({ 'a/x': 'x', 'b/y': 'y', 'c/z': 'z' });
    clock.now += LATER;
    const first = open(memory, clock, undefined);
    for (const dir of ['/w/a', '/w/b', '/w/c']) first.fsFor([]).readdir(dir);
    encoded.mockClear();
    const saved = JSON.parse(first.serialize() ?? '{}');
    expect(encoded).toHaveBeenCalledTimes(3);
    const second = open(memory, clock, JSON.stringify(saved));
    for (const dir of ['/w/a', '/w/b', '/w/c']) second.fsFor([]).readdir(dir);
    memory.set('/w/b/sub', { dir: true });
    clock.now += LATER;
    second.fsFor([]).readdir('/w/b');
    encoded.mockClear();
    const changed = JSON.parse(second.serialize() ?? '{}');
    expect(encoded.mock.calls).toEqual([[[{ name: 'sub', kind: 'directory' }]]]);
    expect(changed.dirs).toEqual([saved.dirs[0], [...changed.dirs[1].slice(0, 5), 'dsub'], saved.dirs[2]]);
    // Nothing new: nothing written, nothing encoded; a later change encodes that listing alone.
    expect(second.serialize()).toBeNull();
    memory.set('/w/c/sub', { dir: true });
    clock.now += LATER;
    second.fsFor([]).readdir('/w/c');
    encoded.mockClear();
    expect(JSON.parse(second.serialize() ?? '{}').dirs.map((row: unknown[]) => row[5])).toEqual([
      '',
      'dsub',
      'dsub',
    ]);
    expect(encoded).toHaveBeenCalledTimes(1);
  });

  test('a directory loaded but not reused before a save is still reused after it, and saved then', () => {
    const { memory, clock } = clocked({ 'a/x': 'x', 'b/y': 'y' });
    clock.now += LATER;
    const first = open(memory, clock, undefined);
    for (const dir of ['/w/a', '/w/b']) first.fsFor([]).readdir(dir);
    const second = open(memory, clock, first.serialize());
    second.fsFor([]).readdir('/w/a');
    const rows = (text: string | null) => JSON.parse(text ?? '{}').dirs.map((row: unknown[]) => row[0]);
    expect(rows(second.serialize())).toEqual(['a']);
    second.fsFor([]).readdir('/w/b');
    expect(second.stats).toEqual({ hits: 2, misses: 0 });
    expect(rows(second.serialize())).toEqual(['a', 'b']);
    expect(second.serialize()).toBeNull();
  });

  test('at most maxEntries directories are recorded; the rest are listed each time', () => {
    const { memory, clock } = clocked({ 'a/x': 'x', 'b/y': 'y', 'c/z': 'z' });
    clock.now += LATER;
    const index = open(memory, clock, undefined, { maxEntries: 2 });
    for (const dir of ['/w/a', '/w/b', '/w/c']) index.fsFor([]).readdir(dir);
    expect(JSON.parse(index.serialize() ?? '{}').dirs.map((row: unknown[]) => row[0])).toEqual(['a', 'b']);
  });

  test('directories outside the root pass through unrecorded; other methods are the port', () => {
    const { memory, clock } = clocked({ 'a/x.md': 'x' });
    memory.set('/elsewhere/y', 'y');
    memory.set('/w/l', { symlink: 'a' });
    clock.now += LATER;
    const index = open(memory, clock, undefined);
    const fs = index.fsFor([]);
    expect(names(fs.readdir('/elsewhere'))).toEqual(['file:y']);
    expect(index.stats).toEqual({ hits: 0, misses: 0 });
    expect(fs.lstat('/w/a')).toEqual(memory.lstat('/w/a'));
    expect(fs.stat('/w/l')).toEqual(memory.stat('/w/l'));
    expect(fs.probe('/w/nope')).toBeNull();
    expect(fs.realpath('/w/l/x.md')).toBe('/w/a/x.md');
    expect(fs.readFile('/w/a/x.md', { maxBytes: 5 }).bytes).toEqual(new TextEncoder().encode('x'));
    // A symlink to a directory is listed through the port and never recorded.
    expect(names(fs.readdir('/w/l'))).toEqual(['file:x.md']);
    expect(index.serialize()).toBeNull();
    expect(readdirs(memory)).toEqual(['/elsewhere', '/w/l']);
  });
});

describe('walk index: loading', () => {
  const valid = (rows: unknown[], overrides: Record<string, unknown> = {}) =>
    JSON.stringify({ version: WALK_INDEX_VERSION, key: KEY, names: [], dirs: rows, ...overrides });
  const row = ['a', 1, 2, 3, 4, 'dsub'];

  test('a serialized index round-trips', () => {
    const { memory, clock } = clocked({ 'a/b/AGENTS.md': 'x', 'a/c': 'c', 'd/e': { dir: true } });
    clock.now += LATER;
    const first = open(memory, clock, undefined);
    for (const dir of ['/w', '/w/a', '/w/a/b', '/w/d', '/w/d/e']) first.fsFor(['AGENTS.md']).readdir(dir);
    const saved = first.serialize();
    const second = open(memory, clock, saved);
    for (const dir of ['/w', '/w/a', '/w/a/b', '/w/d', '/w/d/e']) second.fsFor(['AGENTS.md']).readdir(dir);
    expect(second.stats).toEqual({ hits: 5, misses: 0 });
    expect(second.rejected).toBeUndefined();
    expect(second.serialize()).toBeNull();
    // Serialized again after a change, it is the same text with that one row changed.
    memory.set('/w/d/e/AGENTS.md', 'new');
    clock.now += LATER;
    second.fsFor(['AGENTS.md']).readdir('/w/d/e');
    const third = second.serialize() ?? '';
    expect(JSON.parse(third).dirs.find((r: unknown[]) => r[0] === 'd/e')[5]).toBe('fAGENTS.md');
  });

  test.each([
    ['not JSON', '{"version":1,', 'it is not valid JSON'],
    ['truncated', valid([row]).slice(0, -3), 'it is not valid JSON'],
    ['not an object', 'null', 'it is not an index'],
    [
      'another version',
      valid([row], { version: WALK_INDEX_VERSION + 1 }),
      `it has version ${WALK_INDEX_VERSION + 1}`,
    ],
    ['another key', valid([row], { key: '/elsewhere' }), 'it belongs to another work dir'],
    ['names not strings', valid([row], { names: [1] }), 'its names are malformed'],
    ['dirs not a list', valid([row], { dirs: {} }), 'its directories are malformed'],
    ['a row that is not a list', valid([{ a: 1 }]), 'a directory record is malformed'],
    ['a row without a path', valid([[1, 1, 2, 3, 4, '']]), 'a directory record is malformed'],
  ])('an index that is %s is ignored, then replaced', (_, text, reason) => {
    const { memory, clock } = clocked({ 'a/sub': { dir: true } });
    clock.now += LATER;
    const index = open(memory, clock, text);
    expect(index.rejected).toBe(reason);
    index.fsFor([]).readdir('/w/a');
    expect(index.stats).toEqual({ hits: 0, misses: 1 });
    const rewritten = JSON.parse(index.serialize() ?? '{}');
    expect(rewritten).toMatchObject({ version: WALK_INDEX_VERSION, key: KEY });
  });

  test('a rejected index is rewritten even when the walk lists nothing it may keep', () => {
    const { memory, clock } = clocked({});
    const index = open(memory, clock, 'garbage');
    expect(index.serialize()).not.toBeNull();
  });

  test.each([
    // [what is wrong, the row stored for /w/a (recorded times and identity replaced by the real ones)]
    ['an unknown kind letter', (row: unknown[]) => [...row.slice(0, 5), 'zsub']],
    ['an entry named ..', (row: unknown[]) => [...row.slice(0, 5), 'd..']],
    ['an empty name', (row: unknown[]) => [...row.slice(0, 5), 'dsub/f']],
    ['a listing that is not a string', (row: unknown[]) => [...row.slice(0, 5), ['dsub']]],
    ['a short row', (row: unknown[]) => row.slice(0, 5)],
    [
      'a time that is not a number',
      (row: unknown[]) => [...row.slice(0, 3), String(row[3]), ...row.slice(4)],
    ],
  ])('a record with %s is no record: listed afresh, and replaced', (_, spoil) => {
    const { memory, clock } = clocked({ 'a/sub': { dir: true } });
    clock.now += LATER;
    const first = open(memory, clock, undefined);
    first.fsFor([]).readdir('/w/a');
    const saved = JSON.parse(first.serialize() ?? '{}');
    saved.dirs[0] = spoil(saved.dirs[0]);
    const second = open(memory, clock, JSON.stringify(saved));
    expect(second.rejected).toBeUndefined();
    expect(names(second.fsFor([]).readdir('/w/a'))).toEqual(['directory:sub']);
    expect(second.stats).toEqual({ hits: 0, misses: 1 });
    expect(JSON.parse(second.serialize() ?? '{}').dirs[0][5]).toBe('dsub');
  });

  test('records of paths no walk asks for (absolute, climbing, malformed) are never used, and dropped', () => {
    const { memory, clock } = clocked({ 'a/sub': { dir: true } });
    clock.now += LATER;
    const first = open(memory, clock, undefined);
    first.fsFor([]).readdir('/w/a');
    const saved = JSON.parse(first.serialize() ?? '{}');
    const [, ...identity] = saved.dirs[0];
    for (const bogus of ['/etc', 'a/../..', 'a//sub', 'a/', 'a/./sub', '../w/a'])
      saved.dirs.push([bogus, ...identity]);
    const second = open(memory, clock, JSON.stringify(saved));
    expect(second.rejected).toBeUndefined();
    expect(names(second.fsFor([]).readdir('/w/a'))).toEqual(['directory:sub']);
    expect(second.stats).toEqual({ hits: 1, misses: 0 });
    expect(JSON.parse(second.serialize() ?? '{}').dirs.map((row: unknown[]) => row[0])).toEqual(['a']);
  });
});
