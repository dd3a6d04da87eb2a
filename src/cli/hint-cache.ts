import { lstatSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { codeConfigsLoaded } from '../config/read-config.js';
import type { FileInfo, FileSystem, ReadResult } from '../fs/file-system.js';
import { errorCode } from '../fs/file-system.js';
import type { Answer, Question } from '../fs/memo-file-system.js';
import { homeDirectory } from '../fs/home-dir.js';
import { createNodeFileSystem } from '../fs/node-file-system.js';
import {
  cacheDisabledByEnv,
  ensurePrivateDirectory,
  readOwnFile,
  replaceFile,
  sweepDirectory,
  unsafePrivateDirectory,
  userCacheDirectory,
} from '../fs/user-cache.js';

// The preset hint of the line `resolve` prints when nothing applies (src/cli/empty-output.ts) is the
// answer of twelve resolutions, one per other preset: more than twice what the resolution the user
// asked for costs (docs/performance.md, "Round ten"). Those resolutions learn the filesystem through
// one memoized port only, so their answer is a function of the questions that port was asked, what
// it answered, and what the key below holds. A run keeps the hint with every question and answer;
// a later run with the same key asks each question again and, when every answer is the same, gives
// the kept hint without resolving anything: it is what the twelve resolutions would find, since they
// would be asked the same questions and get the same answers. A single different answer, a
// different key, a code config (which reads what it likes, not through the port) or any fault of
// the cache: the resolutions run, as without it.

/** Bumped when the file's shape or what a question's answer holds changes. */
const FORMAT = 1;

/** Largest cache file read (a hint's questions are a few hundred; a deep tree's are more). */
const MAX_FILE_BYTES = 4 * 1024 * 1024;

/** More questions than this and the hint is not kept: checking them again would cost what it saves. */
const MAX_QUESTIONS = 20_000;

/** Files not used for this long are deleted by the sweep a write makes. */
const HINT_MAX_AGE_MS = 14 * 24 * 60 * 60 * 1000;

/** A temp file left by a run that died is deleted by a sweep after this long. */
const TEMP_MAX_AGE_MS = 60 * 60 * 1000;

/** A read file is kept if it was used since this long ago (its time set to now when older). */
const KEEP_ALIVE_MS = 24 * 60 * 60 * 1000;

/** The calls a kept question may name. */
const CALLS: ReadonlySet<string> = new Set(['lstat', 'probe', 'stat', 'realpath', 'readdir', 'readFile']);

/** One kept question: call, path, read options (`maxBytes:dev:ino`, `''` for others), answer. */
type Kept = readonly [call: Question['call'], path: string, options: string, answer: string];

/** What a cache file holds. */
interface HintFile {
  readonly format: number;
  readonly key: string;
  readonly hint: string;
  readonly questions: readonly Kept[];
}

/** Where and under what key a hint is kept. */
export interface HintCacheOptions {
  /** Read for `CTXFILES_NO_CACHE` and `XDG_CACHE_HOME` (the user's environment, as given). */
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly homeDir: string;
  /**
   * Everything besides the filesystem that the hint depends on: the build, the command line, the
   * work dir, the environment the resolutions are given. Two runs share a hint only with equal keys.
   */
  readonly key: string;
}

/** A place to keep one hint, opened by {@link openHintCache}. */
export interface HintCache {
  /** The kept hint when every question it was computed from has the same answer now. */
  lookup(): string | undefined;
  /** Called by the memoized port with each question the first time it is asked. */
  heard(question: Question, answer: Answer<unknown>): void;
  /**
   * Says that the hint depends on something besides the port's answers (a resolution failed for a
   * reason of its own, not for what the port answered): {@link keep} then keeps nothing.
   */
  unsure(): void;
  /** Keeps `hint` with the questions heard; nothing when there were too many, or a code config. */
  keep(hint: string): void;
}

/** What a run of `resolve` or `manifest` keys its hint by, besides the build. */
export interface RunHintKey {
  readonly version: string;
  readonly kind: 'block' | 'manifest';
  /** The command line's options, as parsed. */
  readonly options: object;
  readonly preset: string | undefined;
  readonly presets: readonly string[];
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
}

/**
 * The hint cache of one run of `resolve` or `manifest`: the hint depends on the filesystem (the
 * port's answers, checked again by the cache) and on this: the build, the platform and user, the
 * home directory, the command line, the work dir and the environment.
 */
export function openRunHintCache(run: Readonly<RunHintKey>): HintCache | undefined {
  const homeDir = homeDirectory();
  return openHintCache({
    env: run.env,
    homeDir,
    key: JSON.stringify([
      run.version,
      buildStamp(),
      dependencyStamps(),
      process.version,
      process.platform,
      process.arch,
      process.getuid?.() ?? null,
      homeDir,
      run.cwd,
      run.kind,
      run.options,
      run.preset ?? null,
      run.presets,
      environmentDigest(run.env),
    ]),
  });
}

/** The hint cache of `options.key`, or undefined when no private cache dir can be used. */
export function openHintCache(options: Readonly<HintCacheOptions>): HintCache | undefined {
  if (cacheDisabledByEnv(options.env)) return undefined;
  const dir = userCacheDirectory('hints', { env: options.env, homeDir: options.homeDir });
  if (dir === null || !path.isAbsolute(dir)) return undefined;
  const checkOwner = process.platform !== 'win32';
  const file = path.join(dir, `hint-${digest64(options.key)}.json`);
  // The answers are checked again with the Node port, which the recording port wraps.
  const disk = createNodeFileSystem();
  const questions: Kept[] = [];
  // Set when the hint must not be kept: too many questions, or a run that was unsure.
  let unkept = false;
  const codeConfigsBefore = codeConfigsLoaded.count;
  return {
    lookup() {
      if (unsafePrivateDirectory(dir, checkOwner) !== undefined) return undefined;
      const found = readOwnFile(file, {
        maxBytes: MAX_FILE_BYTES,
        checkOwner,
        keepAliveAfterMs: KEEP_ALIVE_MS,
      });
      if (found.kind !== 'read') return undefined;
      const kept = parseHintFile(found.data.toString('utf8'));
      if (kept === undefined || kept.key !== options.key) return undefined;
      const { questions: asked } = kept;
      for (let index = 0; index < asked.length; index += 1)
        if (!sameAnswer(disk, asked[index] as Kept)) return undefined;
      return kept.hint;
    },
    heard(question, answer) {
      if (questions.length >= MAX_QUESTIONS) {
        unkept = true;
        return;
      }
      const { maxBytes, expect } =
        question.call === 'readFile' ? question.options : { maxBytes: 0, expect: undefined };
      const read =
        question.call === 'readFile'
          ? `${maxBytes}:${expect === undefined ? '' : `${expect.dev}:${expect.ino}`}`
          : '';
      questions.push([question.call, question.path, read, describe(question.call, answer)]);
    },
    unsure() {
      unkept = true;
    },
    keep(hint) {
      if (unkept || codeConfigsLoaded.count !== codeConfigsBefore) return;
      if (ensurePrivateDirectory(dir, checkOwner) !== undefined) return;
      const text = JSON.stringify({ format: FORMAT, key: options.key, hint, questions } satisfies HintFile);
      if (Buffer.byteLength(text) > MAX_FILE_BYTES) return;
      const now = Date.now();
      // The temp file of a run that died is deleted after an hour.
      sweepDirectory(dir, now, (name) =>
        !name.startsWith('hint-') ? null : name.endsWith('.tmp') ? TEMP_MAX_AGE_MS : HINT_MAX_AGE_MS,
      );
      replaceFile(file, text, { privateDirectory: true });
    },
  };
}

/** The kept file, or undefined when it is not one this build wrote. */
function parseHintFile(text: string): HintFile | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const file = value as Partial<HintFile>;
  if (file.format !== FORMAT || typeof file.key !== 'string' || typeof file.hint !== 'string')
    return undefined;
  if (!Array.isArray(file.questions)) return undefined;
  for (const kept of file.questions as unknown[])
    if (
      !Array.isArray(kept) ||
      kept.length !== 4 ||
      !kept.every((part) => typeof part === 'string') ||
      !CALLS.has(kept[0] as string)
    )
      return undefined;
  return file as HintFile;
}

/** True when asking `fs` the kept question now gives the kept answer. */
function sameAnswer(fs: FileSystem, question: Kept): boolean {
  // Indexed, not destructured: a destructuring walks the array's iterator, and this runs cold.
  const call = question[0];
  const file = question[1];
  const kept = question[3];
  // Most questions are probes of places that hold nothing (the config search): asked as they were.
  if (call === 'probe' && kept === '-') {
    try {
      return fs.probe(file) === null;
    } catch {
      return false;
    }
  }
  // A path that was not there: an `lstat` that does not throw for a missing entry tells whether it
  // still is not, where the call itself would build and throw an error (with its stack) to say so.
  // Missing (ENOENT, not ENOTDIR: that one throws here) to `lstat` is missing to every call.
  if (kept === MISSING) {
    try {
      if (lstatSync(file, { throwIfNoEntry: false }) === undefined) return true;
    } catch {
      // ENOTDIR and the rest: the call itself says.
    }
  }
  let answer: Answer<unknown>;
  try {
    answer = { ok: true, value: ask(fs, call, file, question[2]) };
  } catch (error) {
    answer = { ok: false, error };
  }
  return describe(call, answer) === kept;
}

function ask(fs: FileSystem, call: Kept[0], file: string, read: string): unknown {
  switch (call) {
    case 'lstat':
      return fs.lstat(file);
    case 'probe':
      return fs.probe(file);
    case 'stat':
      return fs.stat(file);
    case 'realpath':
      return fs.realpath(file);
    case 'readdir':
      return fs.readdir(file);
    case 'readFile': {
      const [maxBytes, dev, ino] = read.split(':');
      return fs.readFile(file, {
        maxBytes: Number(maxBytes),
        ...(dev === '' || dev === undefined ? {} : { expect: { dev: Number(dev), ino: Number(ino) } }),
      });
    }
    default:
      throw new Error(`unknown call ${String(call)}`);
  }
}

/** The answer of a call on a path that is not there. */
const MISSING = '!ENOENT';

/**
 * An answer as a string that is equal for two answers exactly when a resolution could not tell them
 * apart: every field of a file's metadata, every entry of a listing, a read's bytes (by a 64-bit
 * digest), and of an error its code (what the resolutions branch on).
 */
function describe(call: Kept[0], answer: Answer<unknown>): string {
  if (!answer.ok) return `!${errorCode(answer.error)}`;
  const { value } = answer;
  switch (call) {
    case 'lstat':
    case 'probe':
    case 'stat':
      return value === null ? '-' : info(value as FileInfo);
    case 'realpath':
      return `=${value as string}`;
    case 'readdir':
      return (value as readonly { name: string; kind: string }[])
        .map((entry) => `${entry.kind}/${entry.name}`)
        .join('\0');
    case 'readFile': {
      const read = value as ReadResult;
      return `${read.truncated ? 't' : 'f'}${info(read.info)}#${digest64(read.bytes)}:${read.bytes.length}`;
    }
    default:
      return '?';
  }
}

function info(file: FileInfo): string {
  return `${file.kind}:${file.size}:${file.mtimeMs}:${file.ctimeMs ?? ''}:${file.dev}:${file.ino}`;
}

/**
 * Two 32-bit FNV-1a hashes (two offset bases) of a string's UTF-16 code units or of bytes, in hex:
 * a 64-bit check that a file, a key or an environment is the same, not a secret.
 */
function digest64(units: string | Uint8Array): string {
  let a = 0x811c9dc5;
  let b = 0x2b992ddf;
  const text = typeof units === 'string' ? units : undefined;
  for (let index = 0; index < units.length; index += 1) {
    const unit = text === undefined ? ((units as Uint8Array)[index] as number) : text.charCodeAt(index);
    a = Math.imul(a ^ unit, 0x01000193) >>> 0;
    b = Math.imul(b ^ unit, 0x01000193) >>> 0;
  }
  return `${a.toString(16).padStart(8, '0')}${b.toString(16).padStart(8, '0')}`;
}

/** The packages the bundles load at run time (scripts/bundle-cli.mjs); absent elsewhere. */
declare const CTXFILES_DEPENDENCIES: readonly string[] | undefined;

/**
 * The `package.json` of each package the bundles load from node_modules at run time (the config's
 * YAML parser, micromatch, ignore…), found where Node would find it, as its size, time and inode:
 * an update of one of them, which the build's digest does not see, may change what a resolution
 * finds, and rewrites that file. (Read and parsed, the versions cost a run 7 M instructions.)
 */
function dependencyStamps(): string[] {
  if (typeof CTXFILES_DEPENDENCIES === 'undefined') return [];
  const require = createRequire(import.meta.url);
  return CTXFILES_DEPENDENCIES.map((name) => {
    for (const dir of require.resolve.paths(name) ?? []) {
      try {
        const info = lstatSync(path.join(dir, name, 'package.json'), { throwIfNoEntry: false });
        if (info !== undefined) return `${name}:${info.size}:${info.mtimeMs}:${info.ino}`;
      } catch {
        // Not a directory here: the next one.
      }
    }
    return `${name}:`;
  });
}

/** A digest of the sources a CLI bundle was built from (scripts/bundle-cli.mjs); absent elsewhere. */
declare const CTXFILES_BUILD: string | undefined;

/** The build the running bundle is of: a hint kept by another build is never taken. */
function buildStamp(): string {
  return typeof CTXFILES_BUILD === 'string' ? CTXFILES_BUILD : '';
}

/**
 * A digest of an environment (sorted), for a key: the values themselves are not written, though a
 * 64-bit digest of them is (in a file only the user can read).
 */
export function environmentDigest(env: Readonly<Record<string, string | undefined>>): string {
  const text = Object.keys(env)
    .sort()
    .map((name) => `${name}=${env[name] ?? ''}`)
    .join('\0');
  return digest64(text);
}
