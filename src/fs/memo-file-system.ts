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
export function memoizeFileSystem(fs: FileSystem, heard?: AnswerListener): FileSystem {
  const lstat = memo('lstat', (path: string) => fs.lstat(path), heard);
  const probe = memo('probe', (path: string) => fs.probe(path), heard);
  const stat = memo('stat', (path: string) => fs.stat(path), heard);
  const realpath = memo('realpath', (path: string) => fs.realpath(path), heard);
  const readdir = memo('readdir', (path: string) => fs.readdir(path), heard);
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
        heard?.({ call: 'readFile', path, options }, answer);
      }
      if (!answer.ok) throw answer.error;
      return { ...answer.value, bytes: answer.value.bytes.slice() };
    },
  };
}

/** A kept answer: what the call returned, or what it threw. */
export type Answer<T> =
  { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: unknown };

/** One question a port was asked: the method, the path and, for a read, its options. */
export type Question =
  | { readonly call: 'lstat' | 'probe' | 'stat' | 'realpath' | 'readdir'; readonly path: string }
  | { readonly call: 'readFile'; readonly path: string; readonly options: ReadOptions };

/**
 * Told each question the first time it is asked, with the answer every later asking gets: the
 * whole of what the run learned of the filesystem (src/cli/hint-cache.ts keeps it).
 */
export type AnswerListener = (question: Question, answer: Answer<unknown>) => void;

function ask<T>(call: () => T): Answer<T> {
  try {
    return { ok: true, value: call() };
  } catch (error) {
    return { ok: false, error };
  }
}

function memo<T extends FileInfo | null | string | readonly DirEntry[]>(
  name: 'lstat' | 'probe' | 'stat' | 'realpath' | 'readdir',
  call: (path: string) => T,
  heard: AnswerListener | undefined,
): (path: string) => T {
  const answers = new Map<string, Answer<T>>();
  return (path) => {
    let answer = answers.get(path);
    if (answer === undefined) {
      answer = ask(() => call(path));
      answers.set(path, answer);
      heard?.({ call: name, path }, answer);
    }
    if (!answer.ok) throw answer.error;
    return answer.value;
  };
}
