import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { buildNestedIndex } from '../src/discover/nested-index.js';
import { walkNested, type WalkLimits } from '../src/discover/nested-walk.js';
import { openWalkIndex, RACY_MARGIN_MS } from '../src/discover/walk-index.js';
import type { DirEntry, FileSystem } from '../src/fs/file-system.js';
import { createMemoryFileSystem, type MemoryFileSystem } from '../src/fs/memory-file-system.js';
import { createNodeFileSystem } from '../src/fs/node-file-system.js';
import { tempTree, writeTree } from './helpers/disk.js';

/**
 * The law of the walk index (src/discover/walk-index.ts): with it, every walk finds exactly what a
 * walk without it finds, whatever changed in between and however little the clock moved.
 */

const BASENAMES: ReadonlySet<string> = new Set(['AGENTS.md', 'CLAUDE.md']);
const MARKERS: ReadonlySet<string> = new Set(['.cursor', '.clinerules']);

const segment = fc.constantFrom(
  'a',
  'b',
  'c',
  'AGENTS.md',
  'CLAUDE.md',
  'notes.md',
  '.cursor',
  'node_modules',
);
const relative = fc.array(segment, { minLength: 1, maxLength: 5 }).map((parts) => parts.join('/'));
const spec = fc.oneof(
  fc.constant<'file'>('file'),
  fc.constant<'dir'>('dir'),
  fc.constantFrom('symlink:AGENTS.md', 'symlink:a', 'symlink:/w/a/AGENTS.md', 'symlink:missing'),
);
/** How far the clock moves after a change: often not at all, or less than the margin or a second. */
const tick = fc.constantFrom(
  0,
  0,
  1,
  250,
  999,
  RACY_MARGIN_MS - 1,
  RACY_MARGIN_MS,
  RACY_MARGIN_MS + 1,
  10_000,
);
/**
 * How coarse the filesystem's times are, while the walk's clock is exact: 1 ms, a second (HFS+,
 * ext3) or two seconds (FAT). A change stamped in the same second as the last one looks like none.
 */
const granularity = fc.constantFrom(1, 1_000, 2_000);

type Mutation =
  | { op: 'set'; path: string; spec: string }
  | { op: 'write'; path: string }
  | { op: 'remove'; path: string }
  | { op: 'rename'; from: string; to: string }
  | { op: 'bounce'; path: string }
  | { op: 'sneak'; path: string };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ op: fc.constant('set' as const), path: relative, spec }),
  fc.record({ op: fc.constant('write' as const), path: relative }),
  fc.record({ op: fc.constant('remove' as const), path: relative }),
  fc.record({ op: fc.constant('rename' as const), from: relative, to: relative }),
  fc.record({ op: fc.constant('bounce' as const), path: relative }),
  fc.record({ op: fc.constant('sneak' as const), path: relative }),
);

function apply(memory: MemoryFileSystem, change: Mutation): void {
  const at = (file: string) => `/w/${file}`;
  try {
    if (change.op === 'set') memory.set(at(change.path), specOf(change.spec, change.path));
    else if (change.op === 'write') {
      if (memory.probe(at(change.path))?.kind === 'file') memory.set(at(change.path), `# ${change.path} v2`);
    } else if (change.op === 'remove') memory.remove(at(change.path));
    else if (change.op === 'rename') memory.rename(at(change.from), at(change.to));
    else if (change.op === 'sneak') {
      // A file added, then the directory's mtime set back (`touch -d`): only its ctime tells.
      const dir = path.posix.dirname(at(change.path));
      const before = memory.lstat(dir).mtimeMs;
      memory.set(at(change.path), `# ${change.path}\n`);
      memory.utimes(dir, before);
    } else {
      // Moved away and back: the directory keeps its inode and mtime; only its ctime moves.
      memory.rename(at(change.path), '/w/.bounce');
      memory.rename('/w/.bounce', at(change.path));
    }
  } catch {
    // A change that cannot happen here (a parent is a file, a move below itself, nothing to move).
  }
}

function specOf(kind: string, file: string) {
  if (kind === 'file') return `# ${file}\n`;
  if (kind === 'dir') return { dir: true as const };
  return { symlink: kind.slice('symlink:'.length) };
}

/** Every directory below /w, by a plain listing. */
function directories(memory: FileSystem, dir = '/w', out: string[] = []): string[] {
  out.push(dir);
  for (const entry of memory.readdir(dir))
    if (entry.kind === 'directory') directories(memory, `${dir}/${entry.name}`, out);
  return out;
}

/** What a walk can use of a listing: every entry that is not a plain file, and the named files. */
const usable = (listing: readonly DirEntry[], kept: ReadonlySet<string>) =>
  listing
    .filter((entry) => entry.kind !== 'file' || kept.has(entry.name))
    .map((entry) => `${entry.kind}:${entry.name}`)
    .sort();

describe('walk index law', () => {
  test('property: after random changes and clock moves, walks with the index equal walks without it', () => {
    let hits = 0;
    fc.assert(
      fc.property(
        granularity,
        fc.array(fc.tuple(relative, spec), { maxLength: 25 }),
        fc.array(
          fc.record({
            changes: fc.array(fc.tuple(mutation, tick), { maxLength: 6 }),
            wait: tick,
            reopen: fc.boolean(),
            // Each round's walks look for some of the names (a resolver's plans differ).
            basenames: fc.subarray([...BASENAMES], { minLength: 1 }),
            markers: fc.subarray([...MARKERS], { minLength: 1 }),
            limits: fc.record({
              maxDepth: fc.integer({ min: 1, max: 6 }),
              maxFiles: fc.integer({ min: 1, max: 30 }),
            }),
          }),
          { minLength: 1, maxLength: 6 },
        ),
        (coarse, tree, rounds) => {
          const clock = { now: 100_000 };
          const memory = createMemoryFileSystem({}, { clock: () => Math.floor(clock.now / coarse) * coarse });
          memory.set('/w', { dir: true });
          for (const [file, kind] of tree) apply(memory, { op: 'set', path: file, spec: kind });
          let saved: string | undefined;
          let index = openWalkIndex(memory, {
            key: '/w',
            root: '/w',
            saved,
            now: () => clock.now,
          });
          for (const round of rounds) {
            for (const [change, moved] of round.changes) {
              apply(memory, change);
              clock.now += moved;
            }
            clock.now += round.wait;
            if (round.reopen) {
              hits += index.stats.hits;
              index = openWalkIndex(memory, {
                key: '/w',
                root: '/w',
                saved,
                now: () => clock.now,
              });
            }
            const limits: WalkLimits = round.limits;
            const basenames = new Set(round.basenames);
            const markers = new Set(round.markers);
            const options = { symlinks: 'inside' as const };
            const indexed = index.fsFor(basenames);
            expect(walkNested(indexed, '/w', basenames, limits, options)).toEqual(
              walkNested(memory, '/w', basenames, limits, options),
            );
            expect(buildNestedIndex(indexed, '/w', basenames, limits, options)).toEqual(
              buildNestedIndex(memory, '/w', basenames, limits, options),
            );
            const marking = index.fsFor(markers);
            expect(walkNested(marking, '/w', new Set(), limits, { markers })).toEqual(
              walkNested(memory, '/w', new Set(), limits, { markers }),
            );
            // The law itself, directory by directory.
            const kept = new Set([...basenames, ...markers]);
            for (const dir of directories(memory))
              expect([dir, usable(marking.readdir(dir), kept)]).toEqual([
                dir,
                usable(memory.readdir(dir), kept),
              ]);
            saved = index.serialize() ?? saved;
            memory.calls.length = 0;
          }
          hits += index.stats.hits;
        },
      ),
      { numRuns: 150 },
    );
    // The property is about something: the index was used, not only bypassed.
    expect(hits).toBeGreaterThan(100);
  });
});

describe('walk index on a real disk', () => {
  const tree = {
    'AGENTS.md': 'root',
    'pkg/a/AGENTS.md': '# a',
    'pkg/b/notes.md': 'n',
    'pkg/b/deep/er/CLAUDE.md': '# deep',
    'lib/x.ts': 'x',
  };

  function walkBoth(root: string, saved: string | undefined) {
    const port = createNodeFileSystem();
    const index = openWalkIndex(port, { key: root, root, saved, now: Date.now });
    const limits = { maxDepth: 8, maxFiles: 100 };
    const withIndex = walkNested(index.fsFor(BASENAMES), root, BASENAMES, limits);
    const fresh = walkNested(port, root, BASENAMES, limits);
    return { withIndex, fresh, index };
  }

  test('reports ctimeMs from the disk', () => {
    const root = tempTree({ 'a.md': 'a' });
    const info = createNodeFileSystem().lstat(path.join(root, 'a.md'));
    expect(info.ctimeMs).toBe(fs.lstatSync(path.join(root, 'a.md')).ctimeMs);
  });

  test('a change in the same second as the walk is seen: a young listing is never reused', () => {
    const root = tempTree(tree);
    const first = walkBoth(root, undefined);
    expect(first.withIndex).toEqual(first.fresh);
    const saved = first.index.serialize() ?? undefined;
    writeTree(root, { 'pkg/b/AGENTS.md': '# b', 'lib/AGENTS.md': '# lib' });
    fs.rmSync(path.join(root, 'pkg/a/AGENTS.md'));
    const second = walkBoth(root, saved);
    expect(second.withIndex).toEqual(second.fresh);
    expect(second.fresh.files.map((file) => file.relativePath)).toEqual([
      'lib/AGENTS.md',
      'pkg/b/AGENTS.md',
      'pkg/b/deep/er/CLAUDE.md',
    ]);
    expect(second.index.stats.hits).toBe(0);
  });

  test('settled directories are reused, and a change after that is seen', async () => {
    const root = tempTree(tree);
    // Let the directories' times fall behind the margin (no file time can be set back).
    await new Promise((resolve) => setTimeout(resolve, RACY_MARGIN_MS + 200));
    const first = walkBoth(root, undefined);
    const saved = first.index.serialize() ?? undefined;
    const second = walkBoth(root, saved);
    expect(second.withIndex).toEqual(second.fresh);
    expect(second.index.stats).toEqual({ hits: first.index.stats.misses, misses: 0 });
    writeTree(root, { 'pkg/b/deep/AGENTS.md': '# new' });
    fs.renameSync(path.join(root, 'pkg/a'), path.join(root, 'pkg/c'));
    const third = walkBoth(root, second.index.serialize() ?? saved);
    expect(third.withIndex).toEqual(third.fresh);
    expect(third.fresh.files.map((file) => file.relativePath)).toEqual([
      'pkg/b/deep/AGENTS.md',
      'pkg/b/deep/er/CLAUDE.md',
      'pkg/c/AGENTS.md',
    ]);
  });
});
