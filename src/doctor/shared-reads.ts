import type { FileSystem, ReadOptions, ReadResult } from '../fs/file-system.js';
import { MAX_CORPUS_BYTES } from './corpus.js';

/**
 * The most bytes of file content one doctor run keeps to share: the corpus's budget, since the
 * files doctor reads most often (the ones every host loads) are the ones its checks then read.
 */
export const MAX_SHARED_BYTES = MAX_CORPUS_BYTES;

/** A {@link FileSystem} whose reads are shared, and the way to let go of what it keeps. */
export interface SharedReads {
  readonly fs: FileSystem;
  /** Drops every kept read; from then on each read goes to the filesystem again. */
  release(): void;
}

/**
 * Wraps `fs` so that a file is read once for a whole doctor run: every host's resolution at every
 * site, then the corpus, ask for the same instruction files (a root AGENTS.md is read by most hosts
 * at every place doctor looks from). A read is kept, up to `maxBytes` in all (default
 * {@link MAX_SHARED_BYTES}), and a later read of the same path is answered from it as the port would
 * answer: the whole file when it was read whole, else its first bytes with `truncated` set, when
 * the later read asks for no more than was read (a later, larger read goes to `fs`). A read that
 * expects another device and inode, a failed read and every other call go to `fs`. The kept bytes
 * are handed to every reader; none of ctxfiles' readers writes to them (they are decoded and
 * digested). The caller owns the cache and calls `release` once the run no longer needs it.
 */
export function shareReads(fs: FileSystem, maxBytes: number = MAX_SHARED_BYTES): SharedReads {
  let kept: Map<string, Kept> | null = new Map();
  let room = maxBytes;
  const readFile = (path: string, options: ReadOptions): ReadResult => {
    const asked = Math.max(0, options.maxBytes);
    const known = kept?.get(path);
    if (known !== undefined && answers(known, asked, options)) return view(known, asked);
    const result = fs.readFile(path, options);
    if (kept !== null && result.bytes.byteLength <= room + (known?.result.bytes.byteLength ?? 0)) {
      room += (known?.result.bytes.byteLength ?? 0) - result.bytes.byteLength;
      kept.set(path, { result, asked });
    }
    return result;
  };
  return {
    fs: {
      lstat: (path) => fs.lstat(path),
      probe: (path) => fs.probe(path),
      stat: (path) => fs.stat(path),
      realpath: (path) => fs.realpath(path),
      readdir: (path) => fs.readdir(path),
      readFile,
    },
    release() {
      kept = null;
    },
  };
}

/** A read kept, and how many bytes it asked for. */
interface Kept {
  readonly result: ReadResult;
  readonly asked: number;
}

/** True when the kept read holds the answer to a read of `asked` bytes with these options. */
function answers({ result, asked: before }: Kept, asked: number, options: ReadOptions): boolean {
  const { expect } = options;
  if (expect !== undefined && (expect.dev !== result.info.dev || expect.ino !== result.info.ino))
    return false;
  return !result.truncated || asked <= before;
}

/** What the port returns for a read of `asked` bytes of the file the kept read saw. */
function view({ result }: Kept, asked: number): ReadResult {
  if (result.bytes.byteLength <= asked && !result.truncated) return result;
  return { bytes: result.bytes.subarray(0, asked), truncated: true, info: result.info };
}
