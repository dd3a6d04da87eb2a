import type { DirEntry, FileInfo, FileSystem, ReadOptions, ReadResult } from './file-system.js';

/**
 * Wraps `fs` so that each question is asked of it once: the answer to a metadata call, a listing or a
 * read of one path (or the error it threw) is kept and given again to every later call with the same
 * arguments. For a run that resolves the same directory many times over in a moment, each time with
 * another preset (the line `resolve` prints when nothing applies, src/cli/empty-output.ts): every
 * resolution probes the same config places, the same chain and the same folders. It answers as the
 * filesystem did at the first call, so it is for one such run, never for a resolver that lives on.
 * Listings are shared as the walks already share them (read-only); each read gets its own bytes.
 */
export function memoizeFileSystem(fs: FileSystem): FileSystem {
  const lstat = memo((path: string) => fs.lstat(path));
  const probe = memo((path: string) => fs.probe(path));
  const stat = memo((path: string) => fs.stat(path));
  const realpath = memo((path: string) => fs.realpath(path));
  const readdir = memo((path: string) => fs.readdir(path));
  const reads = new Map<string, Answer<ReadResult>>();
  return {
    lstat,
    probe,
    stat,
    realpath,
    readdir,
    readFile(path: string, options: ReadOptions): ReadResult {
      const { expect } = options;
      const key = `${options.maxBytes}\0${expect === undefined ? '' : `${expect.dev}:${expect.ino}`}\0${path}`;
      let answer = reads.get(key);
      if (answer === undefined) {
        answer = ask(() => fs.readFile(path, options));
        reads.set(key, answer);
      }
      if (!answer.ok) throw answer.error;
      return { ...answer.value, bytes: answer.value.bytes.slice() };
    },
  };
}

/** A kept answer: what the call returned, or what it threw. */
type Answer<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: unknown };

function ask<T>(call: () => T): Answer<T> {
  try {
    return { ok: true, value: call() };
  } catch (error) {
    return { ok: false, error };
  }
}

function memo<T extends FileInfo | null | string | readonly DirEntry[]>(
  call: (path: string) => T,
): (path: string) => T {
  const answers = new Map<string, Answer<T>>();
  return (path) => {
    let answer = answers.get(path);
    if (answer === undefined) {
      answer = ask(() => call(path));
      answers.set(path, answer);
    }
    if (!answer.ok) throw answer.error;
    return answer.value;
  };
}
