import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, test, vi } from 'vitest';
import {
  cacheDisabledByEnv,
  MAX_WALK_INDEX_BYTES,
  openWalkIndexStore,
  WALK_INDEX_MAX_AGE_MS,
  walkIndexDirectory,
} from '../src/fs/walk-index-store.js';
import { tempTree } from './helpers/disk.js';

const posixOnly = test.skipIf(process.platform === 'win32');

afterEach(() => {
  vi.restoreAllMocks();
});

/** A store whose cache dir is inside a fresh temp dir (XDG_CACHE_HOME), never the user's. */
function storeIn(key = '/work/dir') {
  const cache = tempTree();
  const store = openWalkIndexStore(key, { env: { XDG_CACHE_HOME: cache }, homeDir: '/nonexistent-home' });
  return { cache, store, dir: path.join(cache, 'ctxfiles', 'walk-index') };
}

const mode = (file: string) => fs.lstatSync(file).mode & 0o777;

describe('walk index store: where', () => {
  test.each([
    // [platform, env, home, directory]
    ['linux', { XDG_CACHE_HOME: '/x/cache' }, '/home/u', '/x/cache/ctxfiles/walk-index'],
    ['linux', { XDG_CACHE_HOME: 'relative/cache' }, '/home/u', '/home/u/.cache/ctxfiles/walk-index'],
    ['linux', {}, '/home/u', '/home/u/.cache/ctxfiles/walk-index'],
    ['darwin', {}, '/Users/u', '/Users/u/.cache/ctxfiles/walk-index'],
    ['linux', { LOCALAPPDATA: '/ignored' }, '/home/u', '/home/u/.cache/ctxfiles/walk-index'],
  ] as const)('%s %j, home %s → %s', (platform, env, homeDir, expected) => {
    expect(walkIndexDirectory({ env, homeDir, platform })).toBe(expected);
  });

  posixOnly('Windows: %LOCALAPPDATA%, else AppData\\Local under the home dir', () => {
    // path.join is POSIX here; on Windows it joins with backslashes the same way.
    expect(
      walkIndexDirectory({ env: { LOCALAPPDATA: '/c/AppData/Local' }, homeDir: '/h', platform: 'win32' }),
    ).toBe('/c/AppData/Local/ctxfiles/walk-index');
    expect(walkIndexDirectory({ env: {}, homeDir: '/h', platform: 'win32' })).toBe(
      '/h/AppData/Local/ctxfiles/walk-index',
    );
  });

  test.each([
    [undefined, false],
    ['', false],
    ['0', false],
    ['1', true],
    ['yes', true],
  ])('CTXFILES_NO_CACHE=%j turns the cache off: %s', (value, off) => {
    expect(cacheDisabledByEnv(value === undefined ? {} : { CTXFILES_NO_CACHE: value })).toBe(off);
  });

  test('the file is named by the SHA-256 of the key, never by the key', () => {
    const { store, dir } = storeIn('/work/../../etc/passwd');
    expect(path.dirname(store.file)).toBe(dir);
    expect(path.basename(store.file)).toMatch(/^[0-9a-f]{64}\.json$/);
    expect(path.basename(storeIn('/other').store.file)).not.toBe(path.basename(store.file));
    expect(path.basename(storeIn('/work/../../etc/passwd').store.file)).toBe(path.basename(store.file));
  });
});

describe('walk index store: reading and writing', () => {
  posixOnly('save creates the directories 0700 and the file 0600, atomically; load reads it back', () => {
    const { cache, store, dir } = storeIn();
    expect(store.load()).toEqual({});
    expect(fs.existsSync(dir)).toBe(false); // Loading creates nothing.
    expect(store.save('{"a":1}')).toBeUndefined();
    expect([mode(path.join(cache, 'ctxfiles')), mode(dir), mode(store.file)]).toEqual([0o700, 0o700, 0o600]);
    expect(store.load()).toEqual({ text: '{"a":1}' });
    expect(store.save('{"a":2}')).toBeUndefined();
    expect(store.load()).toEqual({ text: '{"a":2}' });
    // Only the index is left: the temp file was renamed over it.
    expect(fs.readdirSync(dir)).toEqual([path.basename(store.file)]);
  });

  posixOnly('a symlinked cache dir is refused, for reading and for writing', () => {
    const { cache, store } = storeIn();
    const elsewhere = tempTree({ 'walk-index/x': 'x' });
    fs.symlinkSync(elsewhere, path.join(cache, 'ctxfiles'));
    expect(store.load().problem).toMatch(/ctxfiles is a symlink; it is not used$/);
    expect(store.save('{}')).toMatch(/is a symlink; it is not used$/);
    expect(fs.readdirSync(path.join(elsewhere, 'walk-index'))).toEqual(['x']);
  });

  posixOnly('nothing is created through a symlinked cache dir', () => {
    const { cache, store } = storeIn();
    const elsewhere = tempTree();
    fs.symlinkSync(elsewhere, path.join(cache, 'ctxfiles'));
    expect(store.load()).toEqual({ problem: expect.stringMatching(/is a symlink; it is not used$/) });
    expect(store.save('{}')).toMatch(/ctxfiles is a symlink; it is not used$/);
    expect(fs.readdirSync(elsewhere)).toEqual([]);
  });

  posixOnly.each([0o770, 0o777, 0o757])(
    'a cache dir with mode %o (writable by others) is refused',
    (bits) => {
      const { store, dir } = storeIn();
      expect(store.save('{}')).toBeUndefined();
      fs.chmodSync(dir, bits);
      expect(store.load().problem).toMatch(/walk-index is writable by others; it is not used$/);
      expect(store.save('{"b":1}')).toMatch(/writable by others/);
      fs.chmodSync(dir, 0o700);
      expect(store.load()).toEqual({ text: '{}' });
    },
  );

  posixOnly('a cache dir or file owned by another user is refused', () => {
    const { store } = storeIn();
    expect(store.save('{}')).toBeUndefined();
    const uid = process.getuid?.() ?? 0;
    vi.spyOn(process, 'getuid').mockReturnValue(uid + 1);
    expect(store.load().problem).toMatch(/is owned by another user; it is not used$/);
    expect(store.save('{}')).toMatch(/is owned by another user/);
  });

  posixOnly('an index file that is a symlink, others-writable or not a file is refused', () => {
    const { store, dir } = storeIn();
    expect(store.save('{}')).toBeUndefined();
    fs.chmodSync(store.file, 0o666);
    expect(store.load().problem).toMatch(/\.json is writable by others; it is not used$/);
    fs.rmSync(store.file);
    const planted = tempTree({ 'index.json': '{"planted":true}' });
    fs.symlinkSync(path.join(planted, 'index.json'), store.file);
    expect(store.load().problem).toMatch(/is a symlink; it is not used$/);
    // Saving replaces the link itself, never the file it points to.
    expect(store.save('{"mine":1}')).toBeUndefined();
    expect(fs.readFileSync(path.join(planted, 'index.json'), 'utf8')).toBe('{"planted":true}');
    expect(store.load()).toEqual({ text: '{"mine":1}' });
    fs.rmSync(store.file);
    fs.mkdirSync(store.file);
    expect(store.load().problem).toMatch(/is not a regular file; it is not used$/);
    expect(fs.readdirSync(dir)).toEqual([path.basename(store.file)]);
  });

  posixOnly('an index file past the size cap reads as none (replaced at the next save)', () => {
    const { store } = storeIn();
    expect(store.save('{}')).toBeUndefined();
    fs.truncateSync(store.file, MAX_WALK_INDEX_BYTES + 1);
    expect(store.load()).toEqual({});
  });

  posixOnly('a save that cannot write leaves the old index and no temp file', () => {
    const { store, dir } = storeIn();
    expect(store.save('{"old":1}')).toBeUndefined();
    // A directory where the temp file goes (its name is random: planted as it is opened) makes
    // the write fail whoever runs the test.
    let temp = '';
    const open = fs.openSync;
    vi.spyOn(fs, 'openSync').mockImplementation((file, flags, mode) => {
      if (String(file).endsWith('.tmp')) fs.mkdirSync((temp = String(file)));
      return open(file, flags, mode);
    });
    expect(store.save('{"new":1}')).toMatch(/cannot be written \(EEXIST\)$/);
    vi.restoreAllMocks();
    expect(store.load()).toEqual({ text: '{"old":1}' });
    fs.rmdirSync(temp);
    expect(fs.readdirSync(dir)).toEqual([path.basename(store.file)]);
  });

  posixOnly(
    'the save that creates an index deletes indexes not written for 30 days and stale temp files, nothing else',
    () => {
      const { cache, store, dir } = storeIn();
      expect(store.save('{}')).toBeUndefined();
      const old = (Date.now() - WALK_INDEX_MAX_AGE_MS - 60_000) / 1000;
      const stale = path.join(dir, `${'a'.repeat(64)}.json`);
      const fresh = path.join(dir, `${'b'.repeat(64)}.json`);
      const temp = path.join(dir, `${'c'.repeat(64)}.json.1.x.tmp`);
      const other = path.join(dir, 'README');
      for (const file of [stale, fresh, temp, other]) fs.writeFileSync(file, '{}');
      for (const file of [stale, temp, other]) fs.utimesSync(file, old, old);
      const created = openWalkIndexStore('/another/dir', {
        env: { XDG_CACHE_HOME: cache },
        homeDir: '/nonexistent-home',
      });
      expect(created.load()).toEqual({});
      expect(created.save('{"again":1}')).toBeUndefined();
      expect(fs.readdirSync(dir).sort()).toEqual(
        [path.basename(fresh), path.basename(store.file), path.basename(created.file), 'README'].sort(),
      );
    },
  );

  posixOnly('a save that replaces an index does not sweep: the directory did not grow', () => {
    const { cache, store, dir } = storeIn();
    const reopen = () =>
      openWalkIndexStore('/work/dir', { env: { XDG_CACHE_HOME: cache }, homeDir: '/nonexistent-home' });
    expect(store.save('{}')).toBeUndefined();
    const old = (Date.now() - WALK_INDEX_MAX_AGE_MS - 60_000) / 1000;
    const stale = path.join(dir, `${'a'.repeat(64)}.json`);
    fs.writeFileSync(stale, '{}');
    fs.utimesSync(stale, old, old);
    // Replaced by the store that wrote it, and by one that loaded it.
    expect(store.save('{"b":1}')).toBeUndefined();
    const loaded = reopen();
    expect(loaded.load()).toEqual({ text: '{"b":1}' });
    expect(loaded.save('{"c":1}')).toBeUndefined();
    // An index past the size cap loads as none, but it is there: replacing it does not sweep either.
    fs.truncateSync(store.file, MAX_WALK_INDEX_BYTES + 1);
    const oversized = reopen();
    expect(oversized.load()).toEqual({});
    expect(oversized.save('{"d":1}')).toBeUndefined();
    expect(fs.existsSync(stale)).toBe(true);
    // The index gone since it was loaded: the next store's save creates it again, and sweeps.
    fs.rmSync(store.file);
    const recreated = reopen();
    expect(recreated.load()).toEqual({});
    expect(recreated.save('{"e":1}')).toBeUndefined();
    expect(fs.existsSync(stale)).toBe(false);
  });

  posixOnly('loading an index older than a day marks it as in use, so the sweep keeps it', () => {
    const { store } = storeIn();
    expect(store.save('{}')).toBeUndefined();
    const old = (Date.now() - WALK_INDEX_MAX_AGE_MS - 60_000) / 1000;
    fs.utimesSync(store.file, old, old);
    expect(store.load()).toEqual({ text: '{}' });
    expect(Date.now() - fs.statSync(store.file).mtimeMs).toBeLessThan(WALK_INDEX_MAX_AGE_MS);
    // Another work dir's save sweeps the directory: this index stays.
    const other = openWalkIndexStore('/another/dir', {
      env: { XDG_CACHE_HOME: path.dirname(path.dirname(path.dirname(store.file))) },
      homeDir: '/nonexistent-home',
    });
    expect(other.save('{}')).toBeUndefined();
    expect(store.load()).toEqual({ text: '{}' });
  });
});
