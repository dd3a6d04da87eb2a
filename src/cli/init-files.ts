import fs from 'node:fs';
import path from 'node:path';
import { CtxfilesError } from '../errors.js';
import { replaceFile } from '../fs/user-cache.js';

/** Host config files larger than this are refused (16 MiB). */
const MAX_HOST_CONFIG_BYTES = 16_777_216;

/**
 * Where `init` may write, and how links are treated. In a project every folder and file below
 * `base` (the project directory) belongs to the repository, which could plant a link that leads a
 * write out of it (`.claude -> ~/.claude`, `.claude/settings.json -> ../CLAUDE.md`): each is
 * refused. `--user` writes the user's own files, where a link is the user's choice (dotfiles): it is
 * followed.
 */
export interface InitPlace {
  readonly base: string;
  readonly followLinks: boolean;
}

/** A host config as `init` found it. */
export interface HostConfigFile {
  /** Its text; '' when it does not exist. */
  readonly text: string;
  readonly exists: boolean;
}

function fail(file: string, why: string): CtxfilesError {
  return new CtxfilesError('usage', `${file}: ${why}; nothing was written`);
}

function lstatOrNull(file: string): fs.Stats | null {
  try {
    return fs.lstatSync(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return null;
    throw fail(file, `cannot be checked (${code})`);
  }
}

/**
 * Checks each folder and the file itself from below `place.base` down to `file`: none may be a
 * link (unless `place.followLinks`), each folder must be a folder and the file a regular file.
 * What does not exist yet is fine: it will be created.
 * @throws CtxfilesError naming the link, or the entry of another kind.
 */
export function checkInitPath(file: string, place: InitPlace): void {
  const relative = path.relative(place.base, file);
  const parts = relative.split(path.sep);
  let current = place.base;
  for (const [index, part] of parts.entries()) {
    current = path.join(current, part);
    const last = index === parts.length - 1;
    let info = lstatOrNull(current);
    if (info === null) return;
    if (info.isSymbolicLink()) {
      if (!place.followLinks)
        throw fail(
          current,
          `is a symbolic link (to ${fs.readlinkSync(current)}); init never writes through a link in a project`,
        );
      try {
        info = fs.statSync(current);
      } catch (error) {
        throw fail(current, `is a link that leads nowhere (${(error as NodeJS.ErrnoException).code})`);
      }
    }
    if (!last && !info.isDirectory()) throw fail(current, 'is not a folder');
    if (last && !info.isFile()) throw fail(current, 'is not a regular file; it is left as it is');
  }
}

/**
 * Reads a host config after {@link checkInitPath}: '' when it does not exist.
 * @throws CtxfilesError for a link (in a project), another kind of entry, or a file over 16 MiB.
 */
export function readHostConfig(file: string, place: InitPlace): HostConfigFile {
  checkInitPath(file, place);
  let info: fs.Stats;
  try {
    info = fs.statSync(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { text: '', exists: false };
    throw fail(file, `cannot be read (${code})`);
  }
  if (info.size > MAX_HOST_CONFIG_BYTES)
    throw fail(file, `${info.size} bytes, over ${MAX_HOST_CONFIG_BYTES}; it is left as it is`);
  return { text: fs.readFileSync(file, 'utf8'), exists: true };
}

/**
 * Replaces a host config (src/fs/user-cache.ts, `replaceFile`: a temp file with a random name,
 * created with `O_CREAT|O_EXCL|O_NOFOLLOW`, then a rename), keeping its mode (or giving it `mode`,
 * for a script the host runs); creates the missing
 * folders one at a time, never through a link. With `place.followLinks`, a linked file is
 * replaced at its real path, so the link stays.
 * @throws CtxfilesError when it cannot.
 */
export function writeHostConfig(
  file: string,
  text: string,
  place: InitPlace,
  mode: number | 'keep' = 'keep',
): void {
  checkInitPath(file, place);
  const target = place.followLinks && fs.existsSync(file) ? fs.realpathSync(file) : file;
  createFolders(path.dirname(target), place);
  const failed = replaceFile(target, text, { mode });
  if (failed !== undefined) throw new CtxfilesError('usage', `${file}: cannot be written (${failed})`);
}

/**
 * Deletes a host config `init` had created, and the folders below the project that it leaves
 * empty; a link (with `place.followLinks`) is removed, never its target.
 */
export function deleteHostConfig(file: string, place: InitPlace): void {
  checkInitPath(file, place);
  fs.rmSync(file, { force: true });
  for (let dir = path.dirname(file); dir.length > place.base.length; dir = path.dirname(dir)) {
    try {
      fs.rmdirSync(dir);
    } catch {
      return; // Not empty (or not ours to remove).
    }
  }
}

function createFolders(dir: string, place: InitPlace): void {
  if (fs.existsSync(dir)) return;
  if (place.followLinks) {
    fs.mkdirSync(dir, { recursive: true });
    return;
  }
  createFolders(path.dirname(dir), place);
  try {
    fs.mkdirSync(dir);
  } catch (error) {
    throw fail(dir, `cannot be created (${(error as NodeJS.ErrnoException).code})`);
  }
}
