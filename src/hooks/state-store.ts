import fs from 'node:fs';
import path from 'node:path';
import { describeJsonError } from '../errors.js';
import { errorCode as code } from '../fs/file-system.js';
import { readOwnFile, replaceFile, sweepDirectory } from '../fs/user-cache.js';

/** Sessions whose state file was not written for this long are deleted (7 days). */
export const SESSION_MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000;
/** How long a hook waits for another hook process of the same session. */
export const LOCK_TIMEOUT_MS = 8_000;
/** A lock file older than this belongs to a process that died; it is removed. */
export const LOCK_STALE_MS = 15_000;
/** State files larger than this are treated as corrupt. */
const MAX_STATE_BYTES = 8 * 1024 * 1024;

/** A state-store fault that means "do not rely on the state": reported as one stderr line. */
export class StateStoreError extends Error {
  override readonly name = 'StateStoreError';
}

/**
 * The directory holding session states: `CTXFILES_STATE_DIR` when set, else
 * `$XDG_STATE_HOME/ctxfiles/sessions`, else `~/.local/state/ctxfiles/sessions`. Relative values of
 * the variables are ignored, as the XDG base directory specification asks.
 */
export function stateDirectory(env: Readonly<Record<string, string | undefined>>, homeDir: string): string {
  const override = env['CTXFILES_STATE_DIR'];
  if (override !== undefined && path.isAbsolute(override)) return path.resolve(override);
  const xdg = env['XDG_STATE_HOME'];
  const base = xdg !== undefined && path.isAbsolute(xdg) ? xdg : path.join(homeDir, '.local', 'state');
  return path.join(base, 'ctxfiles', 'sessions');
}

/**
 * The file name of one session's state: a 128-bit hash of the agent, the session id and the work
 * dir, so that no id can name a path and two projects of one session never share a state. The
 * agent name is one of ctxfiles' own constants.
 */
export function sessionFileName(agent: string, sessionId: string, workDir: string): string {
  return `${agent}-${hash128(`${agent}\0${sessionId}\0${workDir}`)}.json`;
}

/**
 * A 128-bit non-cryptographic hash (the cyrb128 construction of github.com/bryc/code, `jshash`) as 32
 * hex digits. Loading node:crypto would cost a hook more than everything else it does when nothing
 * is due, and the name needs no secrecy: the state dir is the user's own (mode 0700).
 */
export function hash128(text: string): string {
  let h1 = 0x6a09e667;
  let h2 = 0xbb67ae85;
  let h3 = 0x3c6ef372;
  let h4 = 0xa54ff53a;
  for (let index = 0; index < text.length; index += 1) {
    const unit = text.charCodeAt(index);
    h1 = h2 ^ Math.imul(h1 ^ unit, 597399067);
    h2 = h3 ^ Math.imul(h2 ^ unit, 2869860233);
    h3 = h4 ^ Math.imul(h3 ^ unit, 951274213);
    h4 = h1 ^ Math.imul(h4 ^ unit, 2716044179);
  }
  h1 = Math.imul(h3 ^ (h1 >>> 18), 597399067);
  h2 = Math.imul(h4 ^ (h2 >>> 22), 2869860233);
  h3 = Math.imul(h1 ^ (h3 >>> 17), 951274213);
  h4 = Math.imul(h2 ^ (h4 >>> 19), 2716044179);
  h1 ^= h2 ^ h3 ^ h4;
  h2 ^= h1;
  h3 ^= h1;
  h4 ^= h1;
  return [h1, h2, h3, h4].map((lane) => (lane >>> 0).toString(16).padStart(8, '0')).join('');
}

/** Where one session's state lives, and how it is read, locked and written. */
export interface StateFile {
  readonly dir: string;
  readonly file: string;
}

/** The state file of a session; nothing is touched on disk yet. */
export function stateFile(dir: string, name: string): StateFile {
  return { dir, file: path.join(dir, name) };
}

/**
 * Creates the state directory (mode 0700) when missing and checks it is a real directory.
 * @throws StateStoreError when it is a symlink, not a directory, or cannot be created.
 */
export function ensureStateDirectory(dir: string): void {
  let info: fs.Stats | undefined;
  try {
    info = fs.lstatSync(dir);
  } catch (error) {
    if (code(error) !== 'ENOENT')
      throw new StateStoreError(`the state dir ${dir} cannot be used (${code(error)})`);
  }
  if (info === undefined) {
    try {
      fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
      info = fs.lstatSync(dir);
    } catch (error) {
      throw new StateStoreError(`the state dir ${dir} cannot be created (${code(error)})`);
    }
  }
  if (info.isSymbolicLink()) throw new StateStoreError(`the state dir ${dir} is a symlink; it is not used`);
  if (!info.isDirectory()) throw new StateStoreError(`the state dir ${dir} is not a directory`);
}

/** What reading a state file found. */
export type ReadOutcome =
  | { readonly kind: 'absent' }
  | { readonly kind: 'ok'; readonly value: unknown }
  | { readonly kind: 'corrupt'; readonly reason: string };

/**
 * Reads a state file without following a symlink (src/fs/user-cache.ts, `readOwnFile`).
 * @throws StateStoreError when the file is a symlink, not a regular file, or cannot be read (other
 * than absent).
 */
export function readStateFile(state: StateFile): ReadOutcome {
  const found = readOwnFile(state.file, { maxBytes: MAX_STATE_BYTES, checkOwner: false });
  switch (found.kind) {
    case 'absent':
      return { kind: 'absent' };
    case 'too-large':
      return { kind: 'corrupt', reason: 'it is too large' };
    case 'refused':
      throw new StateStoreError(`the state file ${state.file} ${found.problem}; it is not used`);
    case 'failed':
      throw new StateStoreError(`the state file ${state.file} cannot be read (${found.code})`);
    case 'read':
      return parseState(found.data.toString('utf8'));
  }
}

function parseState(text: string): ReadOutcome {
  try {
    return { kind: 'ok', value: JSON.parse(text) as unknown };
  } catch (error) {
    return { kind: 'corrupt', reason: `it is ${describeJsonError(error, text)}` };
  }
}

/**
 * Replaces the state file atomically (src/fs/user-cache.ts, `replaceFile`: a new temp file in the
 * same directory, mode 0600, then a rename), so a reader sees the old state or the new one, never a
 * part. A symlink at the file's name is refused.
 * @throws StateStoreError when the file cannot be written.
 */
export function writeStateFile(state: StateFile, value: unknown): void {
  if (lstatOrNull(state.file)?.isSymbolicLink() === true)
    throw new StateStoreError(`the state file ${state.file} is a symlink; it is not replaced`);
  const failed = replaceFile(state.file, `${JSON.stringify(value)}\n`);
  if (failed !== undefined)
    throw new StateStoreError(`the state file ${state.file} cannot be written (${failed})`);
}

/**
 * Replaces one of the small files beside a state file (`.due`, `.seen`) as the state itself is
 * replaced: a new temp file, then a rename, so a symlink at its name is replaced, never followed.
 * @throws StateStoreError when it cannot be written.
 */
export function writeSideFile(file: string, text: string): void {
  const failed = replaceFile(file, text);
  if (failed !== undefined) throw new StateStoreError(`the state file ${file} cannot be written (${failed})`);
}

/** The text of a small file beside a state file, or '' when it is absent or not a regular file. */
export function readSideFile(file: string): string {
  const found = readOwnFile(file, { maxBytes: 4_096, checkOwner: false });
  return found.kind === 'read' ? found.data.toString('utf8') : '';
}

/**
 * Runs `task` while holding the session's lock file (created exclusively beside the state file,
 * holding the owner's pid and a nonce). Waits up to {@link LOCK_TIMEOUT_MS}. A lock is taken over
 * when it is older than {@link LOCK_STALE_MS} and its process is gone, or older than four times
 * that whatever its process; a lock dated in the future (the clock was stepped back) is judged by
 * its process alone, and by its distance from now. The lock is removed on release only if it is
 * still ours.
 * @throws StateStoreError when the lock cannot be taken.
 */
export async function withStateLock<T>(state: StateFile, task: () => Promise<T> | T): Promise<T> {
  const lock = `${state.file}.lock`;
  const token = `${process.pid} ${Date.now().toString(36)}${Math.random().toString(36).slice(2, 10)}`;
  const deadline = Date.now() + LOCK_TIMEOUT_MS;
  for (let attempt = 0; ; attempt += 1) {
    let fd: number | undefined;
    try {
      fd = fs.openSync(lock, EXCLUSIVE, 0o600);
      fs.writeSync(fd, token);
    } catch (error) {
      if (fd === undefined && code(error) === 'EEXIST') {
        // Every turn of the loop, a take-over included, is bounded by the deadline.
        if (Date.now() > deadline)
          throw new StateStoreError(`another hook of this session held ${lock} for too long`);
        if (takeOverStale(lock)) continue;
        await sleep(Math.min(5 + attempt * 2, 25));
        continue;
      }
      if (fd !== undefined) release(lock, token);
      throw new StateStoreError(`the session lock ${lock} cannot be created (${code(error)})`);
    } finally {
      if (fd !== undefined) fs.closeSync(fd);
    }
    try {
      return await task();
    } finally {
      release(lock, token);
    }
  }
}

/** Exclusive, write-only, never through a symlink: a lock is ctxfiles' own file. */
const EXCLUSIVE =
  fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL | (fs.constants.O_NOFOLLOW ?? 0);

/**
 * Removes a lock left by a process that died (or hung far too long); true when it did. A lock that
 * is not a regular file (a symlink or a directory planted at its name) is no hook's: a symlink is
 * removed (never its target), anything else is refused at once.
 * @throws StateStoreError for a lock that is neither a regular file nor a symlink.
 */
function takeOverStale(lock: string): boolean {
  const info = lstatOrNull(lock);
  if (info === null) return true; // Released meanwhile: try again at once.
  if (info.isSymbolicLink()) return removeQuietly(lock);
  if (!info.isFile())
    throw new StateStoreError(`the session lock ${lock} is not a regular file; it is not used`);
  const age = Date.now() - info.mtimeMs;
  // A time in the future means the clock was stepped back: the age says nothing, so only the
  // owner's pid decides, and the distance from now counts as the age for the hung-owner limit.
  const future = age < -LOCK_STALE_MS;
  if (!future && age <= LOCK_STALE_MS) return false;
  const owner = readSmall(lock);
  // Unreadable: removed if it is still the file judged stale, else another hook's new lock.
  if (owner === null) return sameFile(lock, info) && removeQuietly(lock);
  const pid = Number(owner.split(' ')[0]);
  if (Math.abs(age) <= LOCK_STALE_MS * 4 && Number.isInteger(pid) && pid > 0 && isAlive(pid)) return false;
  // Remove it only if it is still the lock that was judged stale.
  if (readSmall(lock) === owner) removeQuietly(lock);
  return true;
}

function release(lock: string, token: string): void {
  if (readSmall(lock) === token) removeQuietly(lock);
}

/** The first 200 bytes of a lock file: its owner and nonce; never more (docs/security.md, "Caps"). */
function readSmall(file: string): string | null {
  let fd: number | undefined;
  try {
    fd = fs.openSync(
      file,
      fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0) | (fs.constants.O_NONBLOCK ?? 0),
    );
    const buffer = Buffer.alloc(200);
    const read = fs.readSync(fd, buffer, 0, buffer.length, 0);
    return buffer.subarray(0, read).toString('utf8');
  } catch {
    return null;
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return code(error) === 'EPERM';
  }
}

/**
 * Deletes session states, temp files and locks older than {@link SESSION_MAX_AGE_MS} (temp files
 * and locks: older than {@link LOCK_STALE_MS}). Cheap: one listing, one lstat per entry, bounded.
 */
export function sweepStateDirectory(dir: string, now: number): void {
  sweepDirectory(dir, now, (name) =>
    /\.json(\.due|\.seen|\.steps|\.type)?$/.test(name)
      ? SESSION_MAX_AGE_MS
      : name.endsWith('.tmp') || name.endsWith('.lock')
        ? LOCK_STALE_MS * 4
        : null,
  );
}

function lstatOrNull(file: string): fs.Stats | null {
  try {
    return fs.lstatSync(file);
  } catch {
    return null;
  }
}

/** Deletes `file`; true when it is gone (deleted here or by another process meanwhile). */
function removeQuietly(file: string): boolean {
  try {
    fs.unlinkSync(file);
    return true;
  } catch (error) {
    // Already gone, or another process removed it.
    return code(error) === 'ENOENT';
  }
}

function sameFile(file: string, seen: fs.Stats): boolean {
  const now = lstatOrNull(file);
  return now !== null && now.ino === seen.ino && now.dev === seen.dev;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
