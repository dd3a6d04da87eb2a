import fs from 'node:fs';
import { createRequire } from 'node:module';
import vm from 'node:vm';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import {
  BUNDLE_HEAD,
  BUNDLE_TAIL,
  cacheFileName,
  compileCacheDirectory,
  isPrivateDirectory,
  MAX_CACHE_FILE_BYTES,
  readCacheFile,
  sameSlot,
  STALE_CACHE_MS,
  SUPERSEDED_CACHE_MS,
  writeCacheFile,
} from '../src/cli/compile-cache.js';
import { fdWriter, SIGPIPE_STATUS, type WriterSystem } from '../src/cli/fd-writer.js';
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { defineSha256, digestOf, lazySha256 } from '../src/fs/read-instruction.js';
import { homeDirectory } from '../src/fs/home-dir.js';
import { discoverRules } from '../src/rules/discover-rules.js';
import { BIN, spawnBin } from './helpers/cli.js';
import { HOST_REGISTRY } from '../src/hosts/index.js';
import { HOST_INDEX } from '../src/registry/host-index.generated.js';
import { plainCommandLine } from '../src/cli/resolve-command.js';
import { createMemoryFileSystem, createResolver, parseConfig } from '../src/index.js';

// The CLI's start-up path (docs/performance.md, "Start-up"): the compile cache of the bundles and
// the direct writes to stdout and stderr.

const temps: string[] = [];
function temp(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ctxfiles-startup-'));
  temps.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of temps.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;

describe('compileCacheDirectory', () => {
  test.each([
    [
      'XDG_CACHE_HOME when absolute',
      { XDG_CACHE_HOME: '/x/cache' },
      'linux',
      '/x/cache/ctxfiles/compile-cache',
    ],
    [
      '~/.cache when XDG_CACHE_HOME is relative',
      { XDG_CACHE_HOME: 'rel' },
      'linux',
      '/h/.cache/ctxfiles/compile-cache',
    ],
    ['~/.cache when XDG_CACHE_HOME is unset', {}, 'darwin', '/h/.cache/ctxfiles/compile-cache'],
    ['none with CTXFILES_NO_CACHE', { CTXFILES_NO_CACHE: '1', XDG_CACHE_HOME: '/x' }, 'linux', null],
    ['none with NODE_DISABLE_COMPILE_CACHE', { NODE_DISABLE_COMPILE_CACHE: 'yes' }, 'linux', null],
    ['an empty switch is unset', { CTXFILES_NO_CACHE: '' }, 'linux', '/h/.cache/ctxfiles/compile-cache'],
    ['CTXFILES_NO_CACHE=0 is unset', { CTXFILES_NO_CACHE: '0' }, 'linux', '/h/.cache/ctxfiles/compile-cache'],
    ['LOCALAPPDATA on Windows', { LOCALAPPDATA: '/appdata' }, 'win32', '/appdata/ctxfiles/compile-cache'],
    [
      '~/AppData/Local on Windows without LOCALAPPDATA',
      {},
      'win32',
      '/h/AppData/Local/ctxfiles/compile-cache',
    ],
  ] as const)('%s', (_name, env, platform, expected) => {
    const found = compileCacheDirectory(env, '/h', platform);
    expect(found === null ? null : found.split(path.sep).join('/')).toBe(expected);
  });

  test('no home directory and no variable: no cache', () => {
    expect(compileCacheDirectory({}, '', 'linux')).toBeNull();
  });
});

describe('the cache directory and files', () => {
  test('a missing directory is created with mode 0700, parents included', () => {
    const dir = path.join(temp(), 'a', 'b');
    expect(isPrivateDirectory(dir)).toBe(true);
    expect(fs.statSync(dir).mode & 0o777).toBe(0o700);
  });

  test('a symlink, a file, or a directory others may write is refused', () => {
    const root = temp();
    const real = path.join(root, 'real');
    fs.mkdirSync(real, { mode: 0o700 });
    fs.symlinkSync(real, path.join(root, 'link'));
    fs.writeFileSync(path.join(root, 'file'), '');
    const shared = path.join(root, 'shared');
    fs.mkdirSync(shared);
    fs.chmodSync(shared, 0o777);
    expect(isPrivateDirectory(real)).toBe(true);
    expect(isPrivateDirectory(path.join(root, 'link'))).toBe(false);
    expect(isPrivateDirectory(path.join(root, 'file'))).toBe(false);
    expect(isPrivateDirectory(shared)).toBe(false);
  });

  test.runIf(isRoot)("another user's directory is refused", () => {
    const dir = path.join(temp(), 'theirs');
    fs.mkdirSync(dir, { mode: 0o700 });
    fs.chownSync(dir, 65534, 65534);
    expect(isPrivateDirectory(dir)).toBe(false);
  });

  test('a cache file is read back; a symlink, a directory, a shared or oversized file is not', () => {
    const dir = temp();
    const file = path.join(dir, 'a.bin');
    writeCacheFile(file, Buffer.from('code'));
    expect(readCacheFile(file)?.toString()).toBe('code');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    fs.symlinkSync(file, path.join(dir, 'link.bin'));
    expect(readCacheFile(path.join(dir, 'link.bin'))).toBeUndefined();
    expect(readCacheFile(dir)).toBeUndefined();
    expect(readCacheFile(path.join(dir, 'absent.bin'))).toBeUndefined();
    const shared = path.join(dir, 'shared.bin');
    fs.writeFileSync(shared, 'code');
    fs.chmodSync(shared, 0o666);
    expect(readCacheFile(shared)).toBeUndefined();
    const large = path.join(dir, 'large.bin');
    fs.writeFileSync(large, '', { mode: 0o600 });
    fs.truncateSync(large, MAX_CACHE_FILE_BYTES + 1);
    expect(readCacheFile(large)).toBeUndefined();
  });

  test('a cache file read after a day gets its time refreshed, so the sweep keeps a cache in use', () => {
    const file = path.join(temp(), 'a.bin');
    writeCacheFile(file, Buffer.from('code'));
    const old = new Date(Date.now() - 3 * 24 * 60 * 60 * 1000);
    fs.utimesSync(file, old, old);
    expect(readCacheFile(file)?.toString()).toBe('code');
    expect(Date.now() - fs.statSync(file).mtimeMs).toBeLessThan(60_000);
  });

  test('writing replaces the file atomically and prunes only stale .bin and leftover .tmp files', () => {
    const dir = temp();
    const now = Date.now();
    const stale = path.join(dir, 'old.bin');
    const fresh = path.join(dir, 'recent.bin');
    const other = path.join(dir, 'notes.txt');
    const leftover = path.join(dir, 'a.bin.123.x.tmp');
    const writing = path.join(dir, 'b.bin.456.y.tmp');
    for (const file of [stale, fresh, other, leftover, writing]) fs.writeFileSync(file, 'x');
    const old = new Date(now - STALE_CACHE_MS - 60_000);
    for (const file of [stale, other, leftover]) fs.utimesSync(file, old, old);
    writeCacheFile(path.join(dir, 'new.bin'), Buffer.from('new'), now);
    expect(fs.readdirSync(dir).sort()).toEqual(['b.bin.456.y.tmp', 'new.bin', 'notes.txt', 'recent.bin']);
  });

  test('writing deletes the files of older builds in the same slot once unused for two days', () => {
    const dir = temp();
    const now = Date.now();
    const bundle = path.join(temp(), 'cli.cjs');
    fs.writeFileSync(bundle, 'one');
    const name = (digest: string, command = 'resolve', flags = '\0', size = 'one') => {
      fs.writeFileSync(bundle, size);
      return cacheFileName({ file: bundle, digest, command }, fs.statSync(bundle), flags);
    };
    const own = name('0123456789abcdef');
    const older = name('fedcba9876543210', 'resolve', '\0', 'four');
    const recent = name('aaaaaaaaaaaaaaaa', 'resolve', '\0', 'eleven');
    const otherCommand = name('fedcba9876543210', 'manifest');
    const otherFlags = name('fedcba9876543210', 'resolve', '--inspect\0');
    expect(new Set([own, older, recent, otherCommand, otherFlags]).size).toBe(5);
    expect([older, recent, otherCommand, otherFlags].map((other) => sameSlot(other, own))).toEqual([
      true,
      true,
      false,
      false,
    ]);
    const unused = new Date(now - SUPERSEDED_CACHE_MS - 60_000);
    for (const file of [older, recent, otherCommand, otherFlags]) fs.writeFileSync(path.join(dir, file), 'x');
    for (const file of [older, otherCommand, otherFlags]) fs.utimesSync(path.join(dir, file), unused, unused);
    writeCacheFile(path.join(dir, own), Buffer.from('new'), now);
    expect(fs.readdirSync(dir).sort()).toEqual([own, recent, otherCommand, otherFlags].sort());
  });

  test('a write into a directory that cannot take it fails silently', () => {
    expect(() => writeCacheFile(path.join(temp(), 'missing', 'a.bin'), Buffer.from('x'))).not.toThrow();
  });

  test('the file name changes with the bundle digest, its size, the Node options, and names the command', () => {
    const dir = temp();
    const file = path.join(dir, 'cli.cjs');
    fs.writeFileSync(file, 'a');
    const name = cacheFileName({ file, digest: 'd1', command: 'resolve' });
    expect(name).toMatch(
      new RegExp(`^cli-resolve-d1-\\w+(-\\w+)?-${process.version}-${process.arch}\\.bin$`),
    );
    expect(cacheFileName({ file, digest: 'd2', command: 'resolve' })).not.toBe(name);
    expect(cacheFileName({ file, digest: 'd1', command: '--version' })).toMatch(/^cli-other-d1-/);
    expect(cacheFileName({ file, digest: 'd1', command: '../x' })).toMatch(/^cli-other-d1-/);
    const info = fs.statSync(file);
    const plain = cacheFileName({ file, digest: 'd1', command: 'resolve' }, info, '\0');
    expect(
      cacheFileName({ file, digest: 'd1', command: 'resolve' }, info, '--max-old-space-size=64\0'),
    ).not.toBe(plain);
    expect(cacheFileName({ file, digest: 'd1', command: 'resolve' }, info, '\0--no-warnings')).not.toBe(
      plain,
    );
    // A rebuild of the same text (same digest and size, a new time) keeps the name: no new file.
    fs.writeFileSync(file, 'b');
    fs.utimesSync(file, new Date(1_000_000), new Date(1_000_000));
    expect(cacheFileName({ file, digest: 'd1', command: 'resolve' })).toBe(name);
    fs.writeFileSync(file, 'bb');
    expect(cacheFileName({ file, digest: 'd1', command: 'resolve' })).not.toBe(name);
  });

  test('the directory keeps at most the file and byte limits, dropping the least recently used', () => {
    const dir = temp();
    const now = Date.now();
    for (let index = 0; index < 6; index += 1) {
      const file = path.join(dir, `f${index}.bin`);
      fs.writeFileSync(file, 'x'.repeat(10));
      const used = new Date(now - (10 - index) * 60_000);
      fs.utimesSync(file, used, used);
    }
    writeCacheFile(path.join(dir, 'own.bin'), Buffer.from('y'.repeat(10)), now, { files: 4, bytes: 1_000 });
    expect(fs.readdirSync(dir).sort()).toEqual(['f3.bin', 'f4.bin', 'f5.bin', 'own.bin']);
    writeCacheFile(path.join(dir, 'own.bin'), Buffer.from('y'.repeat(10)), now, { files: 100, bytes: 25 });
    expect(fs.readdirSync(dir).sort()).toEqual(['f5.bin', 'own.bin']);
  });
});

describe('the bin with its compile cache', () => {
  function project(): { root: string; cache: string } {
    const root = temp();
    fs.writeFileSync(path.join(root, 'AGENTS.md'), '# Rules\n');
    return { root, cache: path.join(temp(), 'cache') };
  }
  const cacheFiles = (cache: string) =>
    fs.existsSync(path.join(cache, 'ctxfiles/compile-cache'))
      ? fs.readdirSync(path.join(cache, 'ctxfiles/compile-cache')).filter((name) => name.endsWith('.bin'))
      : [];

  test('the first run writes the cache, the next runs use it unchanged and print the same bytes', () => {
    const { root, cache } = project();
    const env = { XDG_CACHE_HOME: cache };
    const first = spawnBin(['resolve'], { cwd: root, env });
    expect(first.code).toBe(0);
    expect(first.stdout).toContain('# Rules');
    const files = cacheFiles(cache);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^resolve-resolve-/);
    const file = path.join(cache, 'ctxfiles/compile-cache', files[0] as string);
    const before = fs.statSync(file);
    const second = spawnBin(['resolve'], { cwd: root, env });
    expect(second).toEqual(first);
    // Accepted cached code is not written again: same inode, same time.
    const after = fs.statSync(file);
    expect([after.ino, after.mtimeMs]).toEqual([before.ino, before.mtimeMs]);
    // The manifest is empty here: the line that says so tries every preset, which loads the bundle of
    // every host (src/cli/lazy-hosts.ts), not twelve bundles. A plain manifest runs from the resolve
    // bundle, without commander.
    expect(spawnBin(['manifest'], { cwd: root, env }).code).toBe(0);
    expect(cacheFiles(cache)).toHaveLength(3);
    expect(cacheFiles(cache)).toEqual(
      expect.arrayContaining([
        files[0],
        expect.stringMatching(/^resolve-manifest-/),
        expect.stringMatching(/^hosts-manifest-/),
      ]),
    );
  });

  test('a run that fails writes no cache; the next run that ends well does', () => {
    const { root, cache } = project();
    const env = { XDG_CACHE_HOME: cache };
    expect(spawnBin(['resolve', '--bogus'], { cwd: root, env }).code).toBe(2);
    expect(
      spawnBin(['resolve', '--agent', 'x', '--flow', 'none', '--step', 's'], { cwd: root, env }).code,
    ).not.toBe(0);
    expect(cacheFiles(cache)).toEqual([]);
    expect(spawnBin(['resolve'], { cwd: root, env }).code).toBe(0);
    expect(cacheFiles(cache)).toEqual([expect.stringMatching(/^resolve-resolve-/)]);
  });

  test('a corrupt cache file is rejected by V8 and replaced; the output does not change', () => {
    const { root, cache } = project();
    const env = { XDG_CACHE_HOME: cache };
    const expected = spawnBin(['resolve'], { cwd: root, env });
    const file = path.join(cache, 'ctxfiles/compile-cache', cacheFiles(cache)[0] as string);
    fs.writeFileSync(file, Buffer.alloc(4096, 7));
    expect(spawnBin(['resolve'], { cwd: root, env })).toEqual(expected);
    expect(fs.readFileSync(file).equals(Buffer.alloc(4096, 7))).toBe(false);
    expect(fs.statSync(file).size).toBeGreaterThan(4096);
  });

  test('CTXFILES_NO_CACHE, or a cache dir others may write, writes nothing and changes nothing', () => {
    const { root, cache } = project();
    const expected = spawnBin(['resolve'], { cwd: root, env: { XDG_CACHE_HOME: cache } });
    const off = path.join(temp(), 'off');
    expect(
      spawnBin(['resolve'], { cwd: root, env: { XDG_CACHE_HOME: off, CTXFILES_NO_CACHE: '1' } }),
    ).toEqual(expected);
    expect(fs.existsSync(off)).toBe(false);
    const shared = path.join(temp(), 'shared');
    fs.mkdirSync(path.join(shared, 'ctxfiles/compile-cache'), { recursive: true });
    fs.chmodSync(path.join(shared, 'ctxfiles/compile-cache'), 0o777);
    expect(spawnBin(['resolve'], { cwd: root, env: { XDG_CACHE_HOME: shared } })).toEqual(expected);
    expect(cacheFiles(shared)).toEqual([]);
  });

  test('the hook runs from its own bundles and cache files: the quick check keeps only a run it answered', () => {
    const { root, cache } = project();
    const hook = (event: Record<string, unknown>) =>
      spawnBin(['hook', 'claude-code', '--state-dir', path.join(root, '.state')], {
        cwd: root,
        env: { XDG_CACHE_HOME: cache },
        input: JSON.stringify({ session_id: 's1', cwd: root, ...event }),
      });
    // A session start needs the whole hook: the quick check's bundle hands it on and caches nothing.
    // Claude Code's bundle, which the quick check loaded for its hook protocol, is a part of the run.
    expect(hook({ hook_event_name: 'SessionStart' }).code).toBe(0);
    expect(cacheFiles(cache).sort()).toEqual([
      expect.stringMatching(/^hook-run-hook-/),
      expect.stringMatching(/^host-claude-code-hook-/),
    ]);
    // A tool call with nothing due is answered by the quick check alone, which caches its code.
    const read = {
      hook_event_name: 'PostToolUse',
      tool_name: 'Read',
      tool_input: { file_path: 'AGENTS.md' },
    };
    expect(hook(read)).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(cacheFiles(cache).sort()).toEqual([
      expect.stringMatching(/^hook-hook-/),
      expect.stringMatching(/^hook-run-hook-/),
      expect.stringMatching(/^host-claude-code-hook-/),
    ]);
  });

  test('a bundle written after the process started is compiled from its text, with no cache', () => {
    const { root, cache } = project();
    // A copy of the bins, whose Codex bundle is newer than any process that will load it.
    const bin = path.join(temp(), 'bin');
    fs.cpSync(path.dirname(BIN), bin, { recursive: true });
    const future = new Date(Date.now() + 3_600_000);
    fs.utimesSync(path.join(bin, 'host-codex.cjs'), future, future);
    const run = () =>
      spawnSync(process.execPath, [path.join(bin, 'ctxfiles.cjs'), 'resolve', '--preset', 'codex'], {
        cwd: root,
        encoding: 'utf8',
        env: { ...process.env, XDG_CACHE_HOME: cache },
      });
    const first = run();
    expect(first.status).toBe(0);
    expect(first.stdout).toContain('<INSTRUCTIONS>');
    expect(run().stdout).toBe(first.stdout);
    expect(cacheFiles(cache)).toEqual([expect.stringMatching(/^resolve-resolve-/)]);
  });

  test("a host's tables load with the first run that asks for that host, and only then", () => {
    const { root, cache } = project();
    const env = { XDG_CACHE_HOME: cache };
    // No preset: no host is asked for, and no host's bundle is loaded (none leaves a cache file).
    const plain = spawnBin(['resolve'], { cwd: root, env });
    expect(plain.code).toBe(0);
    expect(cacheFiles(cache)).toEqual([expect.stringMatching(/^resolve-resolve-/)]);
    // A preset loads its host's bundle alone, beside the resolve bundle, and caches it (Kilo's would
    // load OpenCode's too: its format is OpenCode's).
    const codex = spawnBin(['resolve', '--preset', 'codex'], { cwd: root, env });
    expect(codex.code).toBe(0);
    expect(codex.stdout).toContain('<INSTRUCTIONS>');
    expect(cacheFiles(cache).sort()).toEqual([
      expect.stringMatching(/^host-codex-resolve-/),
      expect.stringMatching(/^resolve-resolve-/),
    ]);
    // `presets` lists them all: one bundle holds every host (dist/bin/hosts.cjs), loaded once.
    const presets = spawnBin(['presets'], { cwd: root, env });
    expect(presets.code).toBe(0);
    expect(presets.stderr).toBe('');
    expect(cacheFiles(cache).filter((name) => name.startsWith('host') && name.includes('-presets-'))).toEqual(
      [expect.stringMatching(/^hosts-presets-/)],
    );
    // That bundle holds a host of each folder, as the bundles of one host do.
    const file = path.join(path.dirname(BIN), 'hosts.cjs');
    const module = { exports: {} as { hosts?: { id: string }[] } };
    (vm.runInThisContext(fs.readFileSync(file, 'latin1')) as (...args: unknown[]) => void)(
      module.exports,
      createRequire(file),
      module,
      file,
      path.dirname(file),
    );
    const bundled = (module.exports.hosts ?? []).map((host) => host.id);
    expect(bundled.sort()).toEqual(
      fs
        .readdirSync(path.dirname(BIN))
        .filter((name) => name.startsWith('host-'))
        .map((name) => name.slice('host-'.length, -'.cjs'.length))
        .sort(),
    );
  });
});

describe('fdWriter', () => {
  function system(script: (fd: number, bytes: Uint8Array, offset: number) => number, console = false) {
    const streamed: string[] = [];
    const exits: number[] = [];
    const fake: WriterSystem = {
      writeSync: script,
      stream: () =>
        ({
          write: (chunk: Uint8Array | string) => {
            streamed.push(Buffer.from(chunk).toString());
            return true;
          },
        }) as unknown as NodeJS.WritableStream,
      exit: (status) => {
        exits.push(status);
        return undefined as never;
      },
      isWindowsConsole: () => console,
    };
    return { fake, streamed, exits };
  }
  const fault = (code: string) => Object.assign(new Error(code), { code });

  test('short writes are continued until every byte is written', () => {
    const written: Buffer[] = [];
    const { fake } = system((_fd, bytes, offset) => {
      const end = Math.min(bytes.length, offset + 2);
      written.push(Buffer.from(bytes.subarray(offset, end)));
      return end - offset;
    });
    expect(fdWriter(1, fake).write('héllo')).toBe(true);
    expect(written).toHaveLength(3);
    expect(Buffer.concat(written).toString()).toBe('héllo');
  });

  test('EAGAIN sends the rest, and every later write, through the stream in order', () => {
    let calls = 0;
    const { fake, streamed } = system(() => {
      calls += 1;
      if (calls === 1) return 3;
      throw fault('EAGAIN');
    });
    const writer = fdWriter(1, fake);
    writer.write('abcdef');
    writer.write('gh');
    expect(streamed).toEqual(['def', 'gh']);
    expect(calls).toBe(2);
  });

  test('a Windows console is written through the stream from the start', () => {
    let direct = 0;
    const { fake, streamed } = system(() => {
      direct += 1;
      return 1;
    }, true);
    fdWriter(1, fake).write('héllo');
    expect([direct, streamed]).toEqual([0, ['héllo']]);
  });

  test.each([
    ['EPIPE', SIGPIPE_STATUS],
    ['EIO', 1],
  ])('%s ends the process with status %i', (code, status) => {
    const { fake, exits } = system(() => {
      throw fault(code);
    });
    fdWriter(2, fake).write('x');
    expect(exits).toEqual([status]);
  });
});

describe('what a cold run loads', () => {
  // A preload script reports, when the process ends, which of Node's own modules were loaded, and
  // which files through require() (the preload, the bin: the bundle itself is compiled from its
  // text, and a dependency, outside the compile cache, is loaded only when a command needs it). The
  // first run writes the compile cache (its key holds the preload flag); the second, reported, is
  // the run a user makes every time.
  function loadedModules(argv: readonly string[], cwd: string): { builtins: string[]; files: string[] } {
    const probe = path.join(temp(), 'probe.cjs');
    fs.writeFileSync(
      probe,
      "process.on('exit', () => require('fs').writeSync(2, '\\nLOADED ' + JSON.stringify(" +
        '{ builtins: process.moduleLoadList, files: Object.keys(require.cache) })));',
    );
    const cache = temp();
    const run = () =>
      spawnSync(process.execPath, ['--require', probe, BIN, ...argv], {
        cwd,
        encoding: 'utf8',
        env: { ...process.env, XDG_CACHE_HOME: cache },
      });
    expect(run().status).toBe(0);
    const cached = fs.readdirSync(path.join(cache, 'ctxfiles/compile-cache'));
    // The command's bundle, and the bundle of each host it asked for (the hook: its host's).
    expect(cached.filter((name) => !name.startsWith('host-'))).toEqual([
      expect.stringMatching(new RegExp(`^(?:cli|hook|resolve)-${argv[0] as string}-`)),
    ]);
    const result = run();
    expect(result.status).toBe(0);
    expect(fs.readdirSync(path.join(cache, 'ctxfiles/compile-cache'))).toEqual(cached);
    const line = result.stderr.split('\n').find((text) => text.startsWith('LOADED '));
    return JSON.parse((line as string).slice('LOADED '.length)) as { builtins: string[]; files: string[] };
  }

  test('resolve and manifest load no dependency, neither node:module, node:crypto, node:os nor the network modules (resolve: nor streams)', () => {
    const root = temp();
    fs.writeFileSync(path.join(root, 'AGENTS.md'), '# Rules\n');
    fs.mkdirSync(path.join(root, 'pkg'));
    fs.writeFileSync(path.join(root, 'pkg', 'AGENTS.md'), '---\ndescription: Package rules\n---\n');
    for (const argv of [['resolve'], ['manifest']]) {
      const { builtins: loaded, files } = loadedModules(argv, root);
      expect(files.map((file) => path.basename(file))).toEqual(['probe.cjs', 'ctxfiles.cjs']);
      expect(loaded).toContain('NativeModule vm');
      // node:module would bring Node's ES module loader: the bundles use their own require.
      expect(loaded).not.toContain('NativeModule module');
      // node:v8, which a walking command loads, brings the stream modules with it.
      const unwanted =
        argv[0] === 'manifest'
          ? ['crypto', 'net', 'child_process', 'os']
          : ['crypto', 'net', 'stream', 'child_process', 'os'];
      for (const name of unwanted)
        expect(loaded, `${argv[0]} loads ${name}`).not.toContain(`NativeModule ${name}`);
      // Only a walking command tunes V8's young generation (src/cli/bin.ts).
      expect(loaded.includes('NativeModule v8')).toBe(argv[0] === 'manifest');
    }
  });

  test('the hook loads no dependency and no node:module', () => {
    const root = temp();
    fs.writeFileSync(path.join(root, 'AGENTS.md'), '# Rules\n');
    const { builtins, files } = loadedModules(
      ['hook', 'claude-code', '--state-dir', path.join(root, '.state')],
      root,
    );
    expect(files.map((file) => path.basename(file))).toEqual(['probe.cjs', 'ctxfiles.cjs']);
    expect(builtins).not.toContain('NativeModule module');
  });

  test('an MCP instructions_for_path call and a hook that delivers load no dependency: no zod', () => {
    const root = temp();
    fs.writeFileSync(path.join(root, 'AGENTS.md'), '# Rules\n');
    // Claude Code loads no AGENTS.md itself beside a CLAUDE.md: its hook delivers pkg/AGENTS.md.
    fs.writeFileSync(path.join(root, 'CLAUDE.md'), '# Claude\n');
    fs.mkdirSync(path.join(root, 'pkg'));
    fs.writeFileSync(path.join(root, 'pkg', 'AGENTS.md'), '# Package rules\n');
    const probe = path.join(temp(), 'probe.cjs');
    fs.writeFileSync(
      probe,
      "process.on('exit', () => require('fs').writeSync(2, '\\nLOADED ' + JSON.stringify(Object.keys(require.cache))));",
    );
    const call = (id: number, file: string) =>
      JSON.stringify({
        jsonrpc: '2.0',
        id,
        method: 'tools/call',
        params: { name: 'instructions_for_path', arguments: { path: file } },
      });
    const mcpInput = [
      JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
      }),
      call(2, 'pkg/a.ts'),
      call(3, 'pkg/b.ts'),
      '',
    ].join('\n');
    const state = path.join(root, '.state');
    const hook = (event: Record<string, unknown>) =>
      spawnSync(process.execPath, ['--require', probe, BIN, 'hook', 'claude-code', '--state-dir', state], {
        cwd: root,
        encoding: 'utf8',
        input: JSON.stringify({ session_id: 's1', cwd: root, ...event }),
      });
    expect(hook({ hook_event_name: 'SessionStart' }).status).toBe(0);
    const runs = [
      spawnSync(process.execPath, ['--require', probe, BIN, 'mcp'], {
        cwd: root,
        encoding: 'utf8',
        input: mcpInput,
      }),
      hook({
        hook_event_name: 'PostToolUse',
        tool_name: 'Read',
        tool_input: { file_path: path.join(root, 'pkg', 'a.ts') },
      }),
    ];
    expect(runs[0]?.stdout).toContain('Package rules');
    expect(runs[1]?.stdout).toContain('Package rules');
    for (const result of runs) {
      expect(result.status).toBe(0);
      const line = result.stderr.split('\n').find((text) => text.startsWith('LOADED '));
      const files = JSON.parse((line as string).slice('LOADED '.length)) as string[];
      expect(files.map((file) => path.basename(file))).toEqual(['probe.cjs', 'ctxfiles.cjs']);
    }
  });

  test('resolve --json still prints every digest', () => {
    const root = temp();
    fs.writeFileSync(path.join(root, 'AGENTS.md'), '# Rules\n');
    const result = spawnBin(['resolve', '--json'], { cwd: root });
    const digest = createHash('sha256').update('# Rules\n').digest('hex');
    expect(
      (JSON.parse(result.stdout) as { files: { sha256: string }[] }).files.map((file) => file.sha256),
    ).toEqual([digest]);
  });
});

describe('lazySha256', () => {
  test('computes the digest of the bytes given, once', () => {
    const bytes = new TextEncoder().encode('héllo\r\n\u{feff}');
    const digest = lazySha256(bytes);
    const expected = createHash('sha256').update(bytes).digest('hex');
    expect(digest()).toBe(expected);
    bytes.fill(0);
    expect(digest()).toBe(expected);
    expect(lazySha256(new Uint8Array())()).toBe(createHash('sha256').digest('hex'));
  });
});

const getterOf = (value: object) => Object.getOwnPropertyDescriptor(value, 'sha256')?.get;

describe('defineSha256', () => {
  test('an own enumerable sha256, computed on first read, through one getter shared by every object', () => {
    let calls = 0;
    const digest = () => {
      calls += 1;
      return 'a'.repeat(64);
    };
    const file = Object.freeze(defineSha256({ path: 'a.md', bytes: 1 }, digest));
    const other = defineSha256({ path: 'b.md' }, lazySha256(new Uint8Array([1])));
    expect(calls).toBe(0);
    expect(Object.keys(file)).toEqual(['path', 'bytes', 'sha256']);
    const withTail = defineSha256({ a: 1 }, digest, { b: 2, c: 3 });
    expect(Object.keys(withTail)).toEqual(['a', 'sha256', 'b', 'c']);
    expect(getterOf(withTail)).toBe(getterOf(file));
    expect(Object.getOwnPropertySymbols(file).filter((key) => Object.hasOwn(file, key))).toHaveLength(1);
    expect(
      Object.getOwnPropertySymbols(file).some(
        (key) => Object.getOwnPropertyDescriptor(file, key)?.enumerable,
      ),
    ).toBe(false);
    const getter = getterOf;
    expect(getter(file)).toBeTypeOf('function');
    expect(getter(file)).toBe(getter(other));
    expect(JSON.parse(JSON.stringify(file))).toEqual({ path: 'a.md', bytes: 1, sha256: 'a'.repeat(64) });
    expect({ ...file }).toEqual({ path: 'a.md', bytes: 1, sha256: 'a'.repeat(64) });
    expect(calls).toBe(2); // the function given decides about keeping the result: lazySha256 does
    expect(other.sha256).toBe(
      createHash('sha256')
        .update(new Uint8Array([1]))
        .digest('hex'),
    );
    expect(() => getter(file)?.call({})).toThrow(TypeError);
  });

  test('digestOf hands on the digest function, or reads the property of an object without one', () => {
    const digest = lazySha256(new Uint8Array([2]));
    const read = defineSha256({}, digest);
    expect(digestOf(read)).toBe(digest);
    expect(digestOf({ sha256: 'f'.repeat(64) })()).toBe('f'.repeat(64));
  });

  test('context files and rules of a resolution share the getter', async () => {
    const memory = createMemoryFileSystem(
      {
        '/w/AGENTS.md': 'a',
        '/w/CLAUDE.md': 'b',
        '/w/.cursor/rules/x.mdc': '---\nalwaysApply: true\n---\nx',
        '/w/.cursor/rules/y.mdc': '---\nalwaysApply: true\n---\ny',
      },
      { root: '/w' },
    );
    const { config } = await parseConfig({
      contextPaths: ['AGENTS.md', 'CLAUDE.md'],
      rules: { sources: ['cursor'] },
    });
    const resolver = await createResolver({ workDir: '/w', config, fs: memory, env: {} });
    const { files } = await resolver.resolve({});
    expect(files.map((file) => file.layer).sort()).toEqual(['global', 'global', 'rules', 'rules']);
    const getters = new Set(files.map((file) => Object.getOwnPropertyDescriptor(file, 'sha256')?.get));
    expect(getters.size).toBe(1);
    expect([...getters][0]).toBeTypeOf('function');
    const agents = files.find((file) => file.path === '/w/AGENTS.md');
    expect(agents?.sha256).toBe(createHash('sha256').update('a').digest('hex'));
    // The keys keep the order they had as object literals with their own getter.
    expect(Object.keys(agents ?? {})).toEqual([
      'path',
      'realPath',
      'source',
      'layer',
      'entry',
      'depth',
      'mtimeMs',
      'bytes',
      'sha256',
      'text',
    ]);
    const rule = discoverRules(memory, {
      workDir: '/w',
      ownerDirs: ['/w'],
      sources: ['cursor'],
      maxFileBytes: 64,
    }).rules[0];
    expect(Object.keys(rule ?? {})).toEqual([
      'path',
      'realPath',
      'relativePath',
      'ownerDir',
      'name',
      'source',
      'kind',
      'globs',
      'description',
      'agents',
      'regex',
      'text',
      'bytes',
      'sha256',
      'mtimeMs',
      'hidden',
    ]);
    expect(Object.isFrozen(rule)).toBe(true);
  });
});

describe('homeDirectory', () => {
  const saved = process.env['HOME'];
  afterEach(() => {
    if (saved === undefined) delete process.env['HOME'];
    else process.env['HOME'] = saved;
  });

  test('is what os.homedir() answers, with HOME set, empty or unset', () => {
    for (const value of ['/home/someone', '', undefined]) {
      if (value === undefined) delete process.env['HOME'];
      else process.env['HOME'] = value;
      expect(homeDirectory(), `HOME=${String(value)}`).toBe(os.homedir());
    }
  });
});

describe('the bundles', () => {
  const hostBundles = fs.readdirSync(path.dirname(BIN)).filter((name) => /^host-[a-z0-9-]+\.cjs$/.test(name));
  const bundles = ['ctxfiles.cjs', 'cli.cjs', 'hook.cjs', 'hook-run.cjs', 'resolve.cjs', ...hostBundles].map(
    (name) => path.join(path.dirname(BIN), name),
  );

  test("hold one host's tables each; the command bundles hold none", () => {
    expect(hostBundles.sort()).toEqual(HOST_INDEX.map((row) => `host-${row.id}.cjs`).sort());
    const text = (name: string) => fs.readFileSync(path.join(path.dirname(BIN), name), 'utf8');
    // Each host's title is its own; `summary` strings are in its presets' tables only.
    for (const { id, summary } of HOST_REGISTRY.presets.map((preset) => ({
      id: (HOST_REGISTRY.hostOfPreset(preset.name) as { id: string }).id,
      summary: JSON.stringify(preset.summary).slice(1, 40),
    }))) {
      expect(text(`host-${id}.cjs`), id).toContain(summary);
      for (const name of ['cli.cjs', 'hook.cjs', 'hook-run.cjs', 'resolve.cjs'])
        expect(text(name), `${name}: ${id}`).not.toContain(summary);
    }
  });

  test('are strict code from the first statement, with Node built-ins imported without interop copies', () => {
    for (const file of bundles) {
      let text = fs.readFileSync(file, 'utf8');
      // The two the bin loads are written inside the wrapper it compiles them in.
      if (!file.endsWith('ctxfiles.cjs')) {
        expect(text.startsWith(BUNDLE_HEAD) && text.endsWith(BUNDLE_TAIL), file).toBe(true);
        text = text.slice(BUNDLE_HEAD.length);
      }
      expect(text.replace(/^#!.*\n/, '').startsWith('"use strict";\n'), file).toBe(true);
      expect(text, file).not.toMatch(/__toESM\(require\("node:/);
      // A host's bundle may import no built-in at all; one that does takes the view too.
      if (/[\\/]host-[a-z0-9-]+\.cjs$/.test(file)) {
        for (const call of text.match(/[\w$]*\(require\("node:[a-z_/]+"\)/g) ?? [])
          expect(call, file).toMatch(/^__ctxfilesBuiltin\(/);
      } else expect(text, file).toMatch(/__ctxfilesBuiltin\(require\("node:path"\)\)/);
    }
  });

  test('the sources use import.meta.url only where a path serves as well as a file URL', () => {
    // scripts/bundle-cli.mjs defines it as the bundle's path: `new URL(x, import.meta.url)` or
    // `fileURLToPath(import.meta.url)` would pass under vitest and break only in the bundles.
    const src = path.resolve(path.dirname(BIN), '../../src');
    const uses: string[] = [];
    for (const file of fs.readdirSync(src, { recursive: true }) as string[]) {
      if (!file.endsWith('.ts')) continue;
      const text = fs.readFileSync(path.join(src, file), 'utf8');
      for (const line of text.split('\n').map((raw) => raw.trim()))
        if (line.includes('import.meta.url') && !/^(?:\/\/|\/?\*)/.test(line)) uses.push(line);
    }
    expect(uses.length).toBeGreaterThan(0);
    for (const line of uses)
      expect(
        line.includes('createRequire(import.meta.url)') ||
          // readVersion's fallback, which the bundles never reach: their version is built in.
          line.includes("new URL('../../package.json', import.meta.url)"),
        line,
      ).toBe(true);
  });

  test('a built-in view reads every export of the module and has it as default', () => {
    const text = fs.readFileSync(bundles[1] as string, 'utf8');
    const line = text.split('\n').find((candidate) => candidate.startsWith('var __ctxfilesBuiltin = '));
    const view = new Function(`${line as string}; return __ctxfilesBuiltin;`)() as (module: object) => {
      default: typeof fs;
    } & typeof fs;
    const fsView = view(fs);
    expect(fsView.default).toBe(fs);
    expect(fsView.readFileSync).toBe(fs.readFileSync);
    expect(fsView.promises).toBe(fs.promises);
    expect(Object.keys(fsView)).toEqual(['default']);
  });
});

describe('the resolve bundle', () => {
  test('takes only a plain command line, parsed as commander parses it; anything else goes to the CLI bundle', () => {
    const options = (argv: readonly string[]) => plainCommandLine(argv)?.options;
    expect(plainCommandLine(['resolve'])).toEqual({ command: 'resolve', options: {} });
    expect(plainCommandLine(['manifest', '--agent', 'a'])).toEqual({
      command: 'manifest',
      options: { agent: 'a' },
    });
    expect(options(['resolve', '--agent', 'coder', '--format', 'xml', '--json', '--cwd', 'a b'])).toEqual({
      agent: 'coder',
      format: 'xml',
      json: true,
      cwd: 'a b',
    });
    expect(options(['resolve', '--preset', 'codex', '--flow', 'f', '--step', 's'])).toEqual({
      preset: 'codex',
      flow: 'f',
      step: 's',
    });
    for (const argv of [
      ['session'],
      ['manifest', '--help'],
      ['manifest', '--paths', 'a'],
      ['manifest', '--rule', 'r'],
      ['manifest', 'extra'],
      ['resolve', '--help'],
      ['resolve', '-h'],
      ['resolve', '-V'],
      ['resolve', '--bogus'],
      ['resolve', 'extra'],
      ['resolve', '--agent'],
      ['resolve', '--agent', ''],
      ['resolve', '--agent', '--json'],
      ['resolve', '--agent', 'a', '--agent', 'b'],
      ['resolve', '--json', '--json'],
      ['resolve', '--agent=coder'],
      ['resolve', '--format', 'yaml'],
      ['resolve', '--preset', 'nope'],
      ['resolve', '--paths', 'a'],
      ['resolve', '--rule', 'r'],
      ['resolve', '--'],
      ['resolve', '--constructor', 'x'],
    ])
      expect(plainCommandLine(argv), argv.join(' ')).toBeUndefined();
  });

  test('leaves out the session engine, which a plain resolve never opens; the CLI bundle holds it', () => {
    const bundle = (name: string) => fs.readFileSync(path.join(path.dirname(BIN), name), 'utf8');
    for (const name of [
      'src/session/disclosure.ts',
      'src/session/disclosure-steps.ts',
      'src/session/result-frames.ts',
      'src/session/session-state.ts',
      'function createDisclosure',
    ])
      expect(bundle('resolve.cjs'), name).not.toContain(name);
    expect(bundle('resolve.cjs')).toContain('opens no sessions');
    expect(bundle('cli.cjs')).toContain('function createDisclosure');
  });

  test('a command line it does not take is answered by commander, as every command is', () => {
    const root = temp();
    const cache = temp();
    const bogus = spawnBin(['resolve', '--bogus'], { cwd: root, env: { XDG_CACHE_HOME: cache } });
    expect(bogus.code).toBe(2);
    expect(bogus.stderr).toContain("ctxfiles: error: unknown option '--bogus'");
    const help = spawnBin(['resolve', '--help'], { cwd: root, env: { XDG_CACHE_HOME: cache } });
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: ctxfiles resolve [options]');
    // The resolve bundle handed these on: its cache holds no run of it; the CLI bundle's does.
    const files = fs.readdirSync(path.join(cache, 'ctxfiles/compile-cache'));
    expect(files).toEqual([expect.stringMatching(/^cli-resolve-/)]);
  });
});
