import fs from 'node:fs';
import type { DirEntry, FileInfo, FileKind, FileSystem, ReadOptions, ReadResult } from './file-system.js';
import { fsError } from './file-system.js';

/** How {@link readRegularFile} opens files: the flags, and whether they refuse a final symlink. */
export interface OpenMode {
  readonly flags: number;
  readonly noFollow: boolean;
}

/** This platform's: `O_NOFOLLOW` and `O_NONBLOCK` where it has them (Windows has neither). */
const OPEN_MODE: OpenMode = {
  flags: fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0) | (fs.constants.O_NONBLOCK ?? 0),
  noFollow: fs.constants.O_NOFOLLOW !== undefined,
};

/** The ports this module made: they list the real disk of this machine. */
const nodePorts = new WeakSet<FileSystem>();

/**
 * True when `fs` is a port made by {@link createNodeFileSystem}: its listings are of this machine's
 * disk, so an index of them may be kept in the user's cache dir (docs/disclosure.md, "The walk
 * index"). An embedder's own port never gets one.
 */
export function isNodeFileSystem(fs: FileSystem): boolean {
  return nodePorts.has(fs);
}

/**
 * The Node.js implementation of {@link FileSystem}. Reads open the file with `O_NOFOLLOW` and
 * `O_NONBLOCK` where the platform has them (without `O_NOFOLLOW` they check the path after the open:
 * {@link readRegularFile}), check with `fstat` that the opened descriptor is a regular file (and the
 * expected one), and never read more than `maxBytes + 1` bytes.
 */
export function createNodeFileSystem(): FileSystem {
  const port: FileSystem = {
    lstat: (path) => toInfo(fs.lstatSync(path, { bigint: false })),
    probe: (path) => {
      try {
        const stats = fs.lstatSync(path, { bigint: false, throwIfNoEntry: false });
        return stats === undefined ? null : toInfo(stats);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOTDIR') return null;
        throw error;
      }
    },
    stat: (path) => toInfo(fs.statSync(path, { bigint: false })),
    realpath: (path) => fs.realpathSync.native(path),
    readdir,
    readFile: (path, options) => readRegularFile(path, options),
  };
  nodePorts.add(port);
  return port;
}

/**
 * The listing with each entry's kind. The walk lists every directory of a tree: the kind is set on
 * Node's own entry objects rather than on a copy of each, which halves what a listing allocates.
 */
function readdir(path: string): readonly DirEntry[] {
  const entries = fs.readdirSync(path, { withFileTypes: true }) as (fs.Dirent & { kind?: FileKind })[];
  for (const entry of entries) entry.kind = kindOf(entry);
  return entries as unknown as readonly DirEntry[];
}

/**
 * The port's `readFile`: a bounded read of the regular file at `path`, never through a final symlink.
 * Where the open cannot refuse one (no `O_NOFOLLOW`: Windows), the path is `lstat`-ed after the open
 * and must be a regular file with the opened file's device and inode (`ELOOP` otherwise), so a
 * file swapped for a link is refused there too. `mode` is this platform's; tests pass another.
 */
export function readRegularFile(path: string, options: ReadOptions, mode: OpenMode = OPEN_MODE): ReadResult {
  const fd = fs.openSync(path, mode.flags);
  try {
    const info = toInfo(fs.fstatSync(fd));
    if (info.kind !== 'file') throw fsError('EINVAL', 'read', path);
    if (!mode.noFollow) {
      const named = fs.lstatSync(path);
      if (!named.isFile() || named.dev !== info.dev || named.ino !== info.ino)
        throw fsError('ELOOP', 'read', path);
    }
    if (options.expect && (options.expect.dev !== info.dev || options.expect.ino !== info.ino)) {
      throw fsError('ESTALE', 'read', path);
    }
    const maxBytes = Math.max(0, options.maxBytes);
    const limit = maxBytes + 1;
    let buffer = Buffer.allocUnsafe(Math.min(limit, info.size + 1));
    let filled = 0;
    // The file may grow between fstat and read: keep reading up to the limit or end of file.
    for (;;) {
      if (filled === buffer.length) {
        if (buffer.length >= limit) break;
        const grown = Buffer.allocUnsafe(Math.min(limit, buffer.length * 2));
        buffer.copy(grown, 0, 0, filled);
        buffer = grown;
      }
      const wanted = buffer.length - filled;
      const read = fs.readSync(fd, buffer, filled, wanted, null);
      if (read === 0) break;
      filled += read;
      // A short read once the size fstat gave is in is the end of a regular file: no second read
      // just to see zero bytes (a file that grew since is read as far as this read reached).
      if (read < wanted && filled >= info.size) break;
    }
    const truncated = filled > maxBytes;
    const length = truncated ? maxBytes : filled;
    return { bytes: new Uint8Array(buffer.buffer, buffer.byteOffset, length), truncated, info };
  } finally {
    fs.closeSync(fd);
  }
}

function toInfo(stats: fs.Stats): FileInfo {
  return {
    kind: kindOf(stats),
    size: stats.size,
    mtimeMs: stats.mtimeMs,
    ctimeMs: stats.ctimeMs,
    dev: stats.dev,
    ino: stats.ino,
  };
}

function kindOf(value: fs.Stats | fs.Dirent): FileKind {
  if (value.isFile()) return 'file';
  if (value.isDirectory()) return 'directory';
  if (value.isSymbolicLink()) return 'symlink';
  if (value.isFIFO()) return 'fifo';
  if (value.isSocket()) return 'socket';
  if (value.isCharacterDevice() || value.isBlockDevice()) return 'device';
  return 'other';
}
