import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { readOwnFile, replaceFile } from '../src/fs/user-cache.js';
import { tempTree } from './helpers/disk.js';

// The one reader and writer of ctxfiles' own state files (src/fs/user-cache.ts), shared by the walk
// index store, the compile cache and the hooks' session states; each caller's own messages are
// tested beside it (walk-index-store, start-up and hooks tests).

const posixOnly = test.skipIf(process.platform === 'win32');
const DAY = 24 * 60 * 60 * 1000;

afterEach(() => {
  vi.restoreAllMocks();
});

describe('readOwnFile', () => {
  /** A dir holding each kind of entry the table names. */
  function entries(): string {
    const dir = tempTree({ 'own.bin': 'data', 'shared.bin': 'data', 'big.bin': '12345' });
    fs.chmodSync(path.join(dir, 'own.bin'), 0o600);
    fs.chmodSync(path.join(dir, 'shared.bin'), 0o666);
    fs.symlinkSync(path.join(dir, 'own.bin'), path.join(dir, 'link.bin'));
    fs.mkdirSync(path.join(dir, 'dir.bin'));
    execFileSync('mkfifo', [path.join(dir, 'fifo.bin')]);
    return dir;
  }

  posixOnly.each([
    // [entry, checkOwner, what is found]
    ['own.bin', true, { kind: 'read', data: Buffer.from('data') }],
    ['absent.bin', true, { kind: 'absent' }],
    ['own.bin/below', true, { kind: 'absent' }], // ENOTDIR
    ['link.bin', true, { kind: 'refused', problem: 'is a symlink' }],
    ['dir.bin', true, { kind: 'refused', problem: 'is not a regular file' }],
    // O_NONBLOCK: a FIFO planted at the name is refused at once, never waited on.
    ['fifo.bin', true, { kind: 'refused', problem: 'is not a regular file' }],
    ['shared.bin', true, { kind: 'refused', problem: 'is writable by others' }],
    ['shared.bin', false, { kind: 'read', data: Buffer.from('data') }],
    ['big.bin', true, { kind: 'too-large' }],
  ] as const)('%s (checkOwner: %s) → %j', (name, checkOwner, expected) => {
    const found = readOwnFile(path.join(entries(), name), { maxBytes: 4, checkOwner });
    expect(found).toEqual(expected);
  });

  posixOnly(
    'keepAliveAfterMs: a file older than that has its time set to now; a younger one is untouched',
    () => {
      const dir = tempTree({ 'old.bin': 'old', 'young.bin': 'young', 'plain.bin': 'plain' });
      const [old, young, plain] = ['old.bin', 'young.bin', 'plain.bin'].map((name) => path.join(dir, name));
      const twoDays = new Date(Date.now() - 2 * DAY);
      const hour = new Date(Date.now() - DAY / 24);
      for (const file of [old as string, plain as string]) fs.utimesSync(file, twoDays, twoDays);
      fs.utimesSync(young as string, hour, hour);
      const options = { maxBytes: 100, checkOwner: true, keepAliveAfterMs: DAY };
      expect(readOwnFile(old as string, options).kind).toBe('read');
      expect(readOwnFile(young as string, options).kind).toBe('read');
      expect(readOwnFile(plain as string, { maxBytes: 100, checkOwner: true }).kind).toBe('read');
      expect(Date.now() - fs.statSync(old as string).mtimeMs).toBeLessThan(60_000);
      expect(Math.round(fs.statSync(young as string).mtimeMs)).toBe(hour.getTime());
      expect(Math.round(fs.statSync(plain as string).mtimeMs)).toBe(twoDays.getTime());
    },
  );

  posixOnly('a keep-alive that fails does not lose what was read', () => {
    const file = path.join(tempTree({ 'a.bin': 'code' }), 'a.bin');
    const twoDays = new Date(Date.now() - 2 * DAY);
    fs.utimesSync(file, twoDays, twoDays);
    vi.spyOn(fs, 'futimesSync').mockImplementation(() => {
      throw Object.assign(new Error('EPERM'), { code: 'EPERM' });
    });
    expect(readOwnFile(file, { maxBytes: 100, checkOwner: true, keepAliveAfterMs: DAY })).toEqual({
      kind: 'read',
      data: Buffer.from('code'),
    });
    expect(fs.futimesSync).toHaveBeenCalledTimes(1);
  });
});

describe('replaceFile', () => {
  posixOnly('writes a new file 0600 and replaces an old one, leaving no temp file', () => {
    const dir = tempTree();
    const file = path.join(dir, 'state.json');
    expect(replaceFile(file, 'one')).toBeUndefined();
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(replaceFile(file, new TextEncoder().encode('two'))).toBeUndefined();
    expect(fs.readFileSync(file, 'utf8')).toBe('two');
    expect(fs.readdirSync(dir)).toEqual(['state.json']);
  });

  posixOnly('a symlink at the name is replaced, its target untouched', () => {
    const target = path.join(tempTree({ 'target.json': 'keep' }), 'target.json');
    const dir = tempTree();
    fs.symlinkSync(target, path.join(dir, 'state.json'));
    expect(replaceFile(path.join(dir, 'state.json'), 'mine')).toBeUndefined();
    expect(fs.lstatSync(path.join(dir, 'state.json')).isFile()).toBe(true);
    expect(fs.readFileSync(target, 'utf8')).toBe('keep');
  });

  posixOnly('temp names are unpredictable (64 random bits), opened O_CREAT|O_EXCL|O_NOFOLLOW', () => {
    const dir = tempTree();
    const file = path.join(dir, 'state.json');
    const calls: Array<[string, number]> = [];
    const open = fs.openSync;
    vi.spyOn(fs, 'openSync').mockImplementation((at, flags, mode) => {
      calls.push([String(at), Number(flags)]);
      return open(at, flags, mode);
    });
    replaceFile(file, 'one');
    replaceFile(file, 'two');
    const names = calls.map(([at]) => path.basename(at));
    for (const name of names)
      expect(name).toMatch(new RegExp(`^state\\.json\\.${process.pid}\\.[0-9a-f]{16}\\.tmp$`));
    expect(names[0]).not.toBe(names[1]);
    const { O_CREAT, O_EXCL, O_NOFOLLOW, O_WRONLY } = fs.constants;
    for (const [, flags] of calls) expect(flags).toBe(O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW);
  });

  posixOnly('a link planted at the temp name is EEXIST: neither it nor its target is touched', () => {
    const target = path.join(tempTree({ 'target.txt': 'keep' }), 'target.txt');
    const dir = tempTree({ 'state.json': 'old' });
    const file = path.join(dir, 'state.json');
    const open = fs.openSync;
    let planted = '';
    vi.spyOn(fs, 'openSync').mockImplementation((at, flags, mode) => {
      planted = String(at);
      fs.symlinkSync(target, planted);
      return open(at, flags, mode);
    });
    expect(replaceFile(file, 'new')).toBe('EEXIST');
    expect(fs.lstatSync(planted).isSymbolicLink()).toBe(true);
    expect(fs.readFileSync(target, 'utf8')).toBe('keep');
    expect(fs.readFileSync(file, 'utf8')).toBe('old');
  });

  posixOnly("mode 'keep': the replaced file's mode, or 0666 less the umask for a new one", () => {
    const dir = tempTree({ 'shared.json': 'old' });
    fs.chmodSync(path.join(dir, 'shared.json'), 0o640);
    expect(replaceFile(path.join(dir, 'shared.json'), 'new', { mode: 'keep' })).toBeUndefined();
    expect(fs.statSync(path.join(dir, 'shared.json')).mode & 0o777).toBe(0o640);
    expect(replaceFile(path.join(dir, 'new.json'), 'x', { mode: 'keep' })).toBeUndefined();
    const umask = process.umask();
    expect(fs.statSync(path.join(dir, 'new.json')).mode & 0o777).toBe(0o666 & ~umask);
  });

  posixOnly('a failed rename returns its code and deletes the temp file it created', () => {
    const dir = tempTree({ 'state.json/inside': 'x' }); // A non-empty directory at the name.
    expect(replaceFile(path.join(dir, 'state.json'), 'new')).toMatch(/^(EISDIR|ENOTEMPTY|EEXIST)$/);
    expect(fs.readdirSync(dir)).toEqual(['state.json']);
    expect(replaceFile(path.join(dir, 'missing', 'state.json'), 'new')).toBe('ENOENT');
  });
});
