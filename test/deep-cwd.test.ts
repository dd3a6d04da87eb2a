import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { DEEP_SEARCH_SEGMENTS } from '../src/config/config-search.js';
import { loadConfig } from '../src/index.js';
import { realPathBelow } from '../src/fs/contain.js';
import { createMemoryFileSystem, type MemoryCall, type MemoryTree } from '../src/fs/memory-file-system.js';
import { memoryResolver } from './helpers/memory.js';

// Issue #26, item 17: a cwd 2,000 directories deep made `resolve` take 6.3 s (500 deep: 0.8 s). The
// work is counted, not timed: a call on a path costs its number of segments (the kernel walks each),
// and a realpath costs that for every prefix (the C library checks each component), so one realpath
// per contextPaths entry grows with the square of the depth.

const deep = (depth: number) => `/r/${Array.from({ length: depth }, () => 'd').join('/')}`;
const segments = (file: string) => file.split('/').length - 1;
const work = (calls: readonly MemoryCall[]) =>
  calls.reduce(
    (sum, call) =>
      sum +
      (call.op === 'realpath' ? (segments(call.path) * (segments(call.path) + 1)) / 2 : segments(call.path)),
    0,
  );

describe('a deep work dir costs work in proportion to its depth', () => {
  const entries = ['AGENTS.md', 'CLAUDE.md', 'docs/', 'a/b/c.md', 'missing.md', 'GEMINI.md'];

  async function resolveAt(depth: number) {
    const { resolver, fs } = await memoryResolver(
      { 'AGENTS.md': 'a', 'docs/x.md': 'x', 'a/b/c.md': 'c' },
      { contextPaths: entries },
      { workDir: deep(depth) },
    );
    const resolution = await resolver.resolve({ manifest: false });
    return { resolution, calls: [...fs.calls] };
  }

  test('resolve calls no realpath below the work dir when nothing there is a symlink', async () => {
    const { resolution, calls } = await resolveAt(2_000);
    expect(resolution.files.map((file) => path.basename(file.path))).toEqual(['AGENTS.md', 'c.md', 'x.md']);
    expect(calls.filter((call) => call.op === 'realpath')).toEqual([]);
  });

  test('four times the depth is about four times the work', async () => {
    const shallow = work((await resolveAt(500)).calls);
    const deeper = work((await resolveAt(2_000)).calls);
    expect(deeper / shallow).toBeLessThan(4.5);
  });

  test('a symlink below the root still resolves through realpath, and a missing segment throws ENOENT', () => {
    const fs = createMemoryFileSystem({ 'w/a/f.md': 'x', 'w/link': { symlink: '/w/a' } });
    expect(realPathBelow(fs, '/w', '/w/a/f.md')).toBe('/w/a/f.md');
    expect(realPathBelow(fs, '/w', '/w/link/f.md')).toBe('/w/a/f.md');
    expect(realPathBelow(fs, '/w', '/w/a/')).toBe('/w/a');
    expect(() => realPathBelow(fs, '/w', '/w/nope/f.md')).toThrow(
      expect.objectContaining({ code: 'ENOENT' }),
    );
    expect(() => realPathBelow(fs, '/w', '/w/a/f.md/x')).toThrow(
      expect.objectContaining({ code: 'ENOTDIR' }),
    );
  });
});

describe('the config search lists a deep directory once', () => {
  async function searchFrom(depth: number, tree: Record<string, string> = {}, caseInsensitive = false) {
    const cwd = deep(depth);
    const fs = createMemoryFileSystem(tree, { caseInsensitive });
    fs.set(cwd, { dir: true });
    const loaded = await loadConfig({ cwd, fs, stopDir: '/', homeDir: '/home/u', userConfig: null });
    return { loaded, calls: [...fs.calls] };
  }

  test('calls per directory: eleven probes above the threshold, one listing below it', async () => {
    const { calls } = await searchFrom(2_000);
    // A search place is probed without an error for an absent path (`probe`; `stat` only for a link).
    const probes = calls.filter((call) => call.op === 'probe' || call.op === 'stat').length;
    const listings = calls.filter((call) => call.op === 'readdir').length;
    // `/`, `/r`, `/r/d`, …: the 64 directories above the threshold are probed at each place.
    expect(probes).toBe(11 * DEEP_SEARCH_SEGMENTS);
    // Below it, one listing per directory (2,002 directories from `/` down; flows add none here).
    expect(listings).toBeLessThan(2_002);
  });

  test('a config in a deep directory is found as before, also spelled in another case on a case-insensitive disk', async () => {
    const at = `${deep(1_000).slice(1)}/ctxfiles.config.json`;
    const { loaded } = await searchFrom(2_000, { [at]: '{"contextPaths":["X.md"]}' });
    expect(loaded.filepath).toBe(`/${at}`);
    const upper = `${deep(1_000).slice(1)}/CTXFILES.CONFIG.JSON`;
    const folded = await searchFrom(2_000, { [upper]: '{"contextPaths":["X.md"]}' }, true);
    expect(folded.loaded.config.contextPaths).toEqual(['X.md']);
  });
});

describe('a search place is asked without an error, and a link is followed as `stat` follows it', () => {
  test.each([
    // [what is at /p/ctxfiles.config.json, what the search makes of it]
    ['a file', { '/p/ctxfiles.config.json': '{"contextPaths":["X.md"]}' }, ['X.md']],
    [
      'a link to a file beside it',
      { '/p/real.json': '{"contextPaths":["Y.md"]}', '/p/ctxfiles.config.json': { symlink: '/p/real.json' } },
      ['Y.md'],
    ],
    [
      'a link that leads nowhere: absent',
      { '/p/ctxfiles.config.json': { symlink: '/p/gone.json' } },
      undefined,
    ],
    ['nothing', {}, undefined],
  ] as const)('%s', async (_what, tree, contextPaths) => {
    const fs = createMemoryFileSystem({ '/p': { dir: true }, ...(tree as MemoryTree) });
    const loaded = await loadConfig({ cwd: '/p', fs, stopDir: '/p', homeDir: '/home/u', userConfig: null });
    expect(loaded.filepath).toBe(contextPaths === undefined ? null : '/p/ctxfiles.config.json');
    if (contextPaths !== undefined) expect(loaded.config.contextPaths).toEqual(contextPaths);
    // An absent place costs one `probe` and no `stat`.
    const asked = fs.calls.filter((call) => call.path === '/p/ctxfiles.config.yaml').map((call) => call.op);
    expect(asked).toEqual(['probe']);
  });
});
