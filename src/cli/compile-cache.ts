import fs from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import {
  cacheDisabledByEnv,
  ensurePrivateDirectory,
  readOwnFile,
  replaceFile,
  sweepDirectory,
  userCacheDirectory,
} from '../fs/user-cache.js';
import { homeDirectory } from '../fs/home-dir.js';

/**
 * The compile cache of the CLI bundles (docs/performance.md, "Start-up"). Most of a cold
 * `ctxfiles resolve` beyond Node's own start-up is V8 compiling the bundle; V8 can keep the code it
 * compiled and reuse it on the next run. The bundle is compiled through `vm.Script` with V8's code
 * cache, taken when the command ends so that it holds every function the command ran, and stored
 * per bundle, command, bundle build and Node version in a directory only the user can write. Node
 * 22's own `module.enableCompileCache` keeps only what was compiled before the bundle ran: measured
 * on Node 22.23, a cached `resolve` took 1.92× `node -e 0` with it and 1.52× with this cache.
 */

/** A cache file larger than this is not read (one holds the code of one command: under 2 MB). */
export const MAX_CACHE_FILE_BYTES = 16 * 1024 * 1024;
/** When a cache file is written, other cache files not used for this long are deleted. */
export const STALE_CACHE_MS = 30 * 24 * 60 * 60 * 1000;
/**
 * A cache file of an older build of the same bundle, for the same command, Node options and Node, is
 * deleted once it has not been used for this long (two days): it can never be read again by the build
 * that replaced it, while a second install of another version still in use refreshes its time daily.
 */
export const SUPERSEDED_CACHE_MS = 2 * 24 * 60 * 60 * 1000;
/**
 * The most cache files the directory keeps, and the most bytes they hold together: past either, the
 * files used least recently go first (each holds one command of one build: about 0.3 to 1.5 MB for a
 * command's bundle, 10 to 30 kB for a host's, which a command loads beside it).
 */
export const MAX_CACHE_FILES = 128;
export const MAX_CACHE_BYTES = 48 * 1024 * 1024;
/** A cache file read while older than this (a day) has its time set to now. */
const KEEP_ALIVE_AFTER_MS = 24 * 60 * 60 * 1000;
/** Temp files of a process that died while writing are deleted after this long (one hour). */
const TEMP_MAX_AGE_MS = 60 * 60 * 1000;

type Env = Readonly<Record<string, string | undefined>>;

/**
 * The cache directory: `compile-cache` in the user's cache directory (src/fs/user-cache.ts:
 * `$XDG_CACHE_HOME/ctxfiles/compile-cache`, else `~/.cache/ctxfiles/compile-cache`); `null` when
 * `CTXFILES_NO_CACHE` is set or Node's own `NODE_DISABLE_COMPILE_CACHE` is set to anything, or when
 * there is no absolute base directory.
 */
export function compileCacheDirectory(
  env: Env,
  homeDir: string = homeDirectory(),
  platform: NodeJS.Platform = process.platform,
): string | null {
  const nodeSwitch = env['NODE_DISABLE_COMPILE_CACHE'];
  if (cacheDisabledByEnv(env) || (nodeSwitch !== undefined && nodeSwitch !== '')) return null;
  return userCacheDirectory('compile-cache', { env, homeDir, platform });
}

const CHECK_OWNER = process.platform !== 'win32';

/**
 * Creates `dir` and its `ctxfiles` parent (mode 0700) when missing and says whether cached code may
 * be read from it: both real directories, the user's own and writable by no one else. Never throws.
 */
export function isPrivateDirectory(dir: string): boolean {
  return ensurePrivateDirectory(dir, CHECK_OWNER) === undefined;
}

/**
 * The cached code in `file`, or `undefined` when it is absent, a symlink, not a regular file, not
 * the user's own, writable by others or too large. A cache in use is not rewritten: its time is
 * refreshed once a day so the sweep keeps it. Never throws.
 */
export function readCacheFile(file: string): Buffer | undefined {
  const found = readOwnFile(file, {
    maxBytes: MAX_CACHE_FILE_BYTES,
    checkOwner: CHECK_OWNER,
    keepAliveAfterMs: KEEP_ALIVE_AFTER_MS,
  });
  return found.kind === 'read' ? found.data : undefined;
}

/**
 * Replaces `file` atomically (a new file in the same directory, mode 0600, then a rename), then
 * deletes the directory's other `.bin` files not written for {@link STALE_CACHE_MS}, and those of
 * other builds in the same slot as `file` (see {@link sameSlot}) not used for
 * {@link SUPERSEDED_CACHE_MS}, then the least recently used past {@link MAX_CACHE_FILES} files or
 * {@link MAX_CACHE_BYTES} bytes. Never throws: a cache that cannot be written only means the next run
 * compiles again.
 */
export function writeCacheFile(
  file: string,
  data: Uint8Array,
  now: number = Date.now(),
  limits: { readonly files: number; readonly bytes: number } = {
    files: MAX_CACHE_FILES,
    bytes: MAX_CACHE_BYTES,
  },
): void {
  if (replaceFile(file, data) !== undefined) return;
  const own = path.basename(file);
  sweepDirectory(path.dirname(file), now, (name) => {
    if (name.endsWith('.tmp')) return TEMP_MAX_AGE_MS;
    if (!name.endsWith('.bin') || name === own) return null;
    return sameSlot(name, own) ? SUPERSEDED_CACHE_MS : STALE_CACHE_MS;
  });
  capCacheFiles(path.dirname(file), own, limits);
}

/** Deletes the `.bin` files used least recently (by mtime, which reads refresh) past the limits. */
function capCacheFiles(
  dir: string,
  own: string,
  limits: { readonly files: number; readonly bytes: number },
): void {
  const files: Array<{ name: string; size: number; used: number }> = [];
  try {
    for (const name of fs.readdirSync(dir).slice(0, 2_000)) {
      if (!name.endsWith('.bin')) continue;
      const info = fs.lstatSync(path.join(dir, name));
      if (info.isFile()) files.push({ name, size: info.size, used: name === own ? Infinity : info.mtimeMs });
    }
  } catch {
    return;
  }
  files.sort((a, b) => b.used - a.used);
  let count = 0;
  let bytes = 0;
  for (const entry of files) {
    count += 1;
    bytes += entry.size;
    if (entry.name !== own && (count > limits.files || bytes > limits.bytes))
      try {
        fs.unlinkSync(path.join(dir, entry.name));
      } catch {
        // Gone already, or another process removed it.
      }
  }
}

// `<bundle>-<command>-<digest>-<stamp><rest>` (cacheFileName): the digest is 16 hex digits, the stamp
// base-36 digits, and the rest (`[-options]-<node version>-<arch>.bin`) starts with a dash.
const NAME_PARTS = /^(.+)-[0-9a-f]{16}-[0-9a-z]+(-.+\.bin)$/;

/**
 * True when two cache file names differ only in the bundle build (digest, size and time): the same
 * bundle and command under the same Node options, version and architecture.
 */
export function sameSlot(a: string, b: string): boolean {
  const [x, y] = [NAME_PARTS.exec(a), NAME_PARTS.exec(b)];
  return x !== null && y !== null && x[1] === y[1] && x[2] === y[2];
}

/** What {@link loadBundle} needs to know about one CLI bundle. */
export interface Bundle {
  /** Absolute path of the CommonJS bundle. */
  readonly file: string;
  /** A digest of the bundle's text, fixed at build time (scripts/bundle-cli.mjs). */
  readonly digest: string;
  /** The command about to run: each command keeps the code it compiled in its own cache file. */
  readonly command: string;
  /**
   * A `require` that resolves as one made for {@link file} would: the bin's own, as the bundles sit
   * beside it (`node:module`'s `createRequire` would load Node's ES module loader on every run).
   */
  readonly require: NodeJS.Require;
  /**
   * Asked when the process ends: `false` keeps this run's code out of the cache (a run that handed
   * its work to another bundle ran only a part of this one). Default: kept.
   */
  readonly keep?: () => boolean;
}

/**
 * How a bundle's text begins and ends (scripts/bundle-cli.mjs writes them): the function Node wraps
 * a CommonJS module in. Written into the file, it spares the loader a copy of the whole text (a
 * string joined from the wrapper and the text is flattened into a new one before V8 compiles it).
 */
export const BUNDLE_HEAD = '(function (exports, require, module, __filename, __dirname) {';
export const BUNDLE_TAIL = '\n})';

/**
 * Loads a CommonJS bundle written as {@link BUNDLE_HEAD} … {@link BUNDLE_TAIL} and returns its
 * exports, through the compile cache when there is a private cache directory (see
 * {@link compileCacheDirectory}); a file without the wrapper gets it around its text.
 */
export function loadBundle(bundle: Bundle, env: Env): unknown {
  const { dir, cached } = cacheDirectoryOf(env);
  // The name and the text come from one open file: a bundle replaced meanwhile (an upgrade during
  // a run) cannot leave its code under the old bundle's name.
  const fd = fs.openSync(bundle.file, 'r');
  let info: fs.Stats;
  let source: string;
  try {
    info = fs.fstatSync(fd);
    // The bundles are ASCII (scripts/bundle-cli.mjs checks it): read as Latin-1, the text is the
    // same and no UTF-8 decoding runs over ~650 kB.
    source = fs.readFileSync(fd, 'latin1');
  } finally {
    fs.closeSync(fd);
  }
  if (!source.startsWith(BUNDLE_HEAD)) source = `${BUNDLE_HEAD}${source}${BUNDLE_TAIL}`;
  // A bundle written after this process started (an upgrade while an MCP server runs, which loads a
  // host's bundle when first asked for it) is compiled from its text: the cache file's name holds
  // the digest this process was built with, which says nothing of the new text.
  const current = info.mtimeMs <= Date.now() - process.uptime() * 1000;
  return runWithCodeCache(
    bundle,
    source,
    cached && current && dir !== null ? path.join(dir, cacheFileName(bundle, info)) : undefined,
  );
}

/** The cache directory a run checked, by the environment it was asked with. */
let checked: { readonly env: Env; readonly dir: string | null; readonly cached: boolean } | undefined;

/**
 * The cache directory and whether it may be used: checked once per run, for the first bundle, and
 * the answer kept for the others it loads (a command may load each host's bundle beside its own).
 */
function cacheDirectoryOf(env: Env): { readonly dir: string | null; readonly cached: boolean } {
  if (checked?.env !== env) {
    const dir = compileCacheDirectory(env);
    checked = { env, dir, cached: dir !== null && isPrivateDirectory(dir) };
  }
  return checked;
}

/**
 * The cache file of one bundle build, command, Node version and architecture. The build is the
 * digest of the bundle's text (fixed when it is built) and its size: V8 checks cached code only
 * against the length of the text, and a rebuild of the same text reuses the same file rather than
 * adding one (the modification time is not part of the name). So are the Node options the
 * process runs with (`flags`: `process.execArgv` and `NODE_OPTIONS`): V8 rejects code cached
 * under other flags, and two ways of running would otherwise replace each other's cache.
 */
export function cacheFileName(
  bundle: Omit<Bundle, 'require' | 'keep'>,
  info: fs.Stats = fs.statSync(bundle.file),
  flags: string = `${process.execArgv.join(' ')}\0${process.env['NODE_OPTIONS'] ?? ''}`,
): string {
  const command = /^[a-z][a-z-]{0,31}$/.test(bundle.command) ? bundle.command : 'other';
  const base = path.basename(bundle.file, '.cjs');
  const stamp = info.size.toString(36);
  const options = flags === '\0' ? '' : `-${fnv1a(flags)}`;
  return `${base}-${command}-${bundle.digest}-${stamp}${options}-${process.version}-${process.arch}.bin`;
}

/** The 32-bit FNV-1a hash of a string's UTF-16 code units, in base 36: a name part, not a secret. */
function fnv1a(text: string): string {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index += 1)
    hash = Math.imul(hash ^ text.charCodeAt(index), 0x01000193) >>> 0;
  return hash.toString(36);
}

/**
 * Compiles the wrapped bundle with the cached code when there is some, runs it as a CommonJS module,
 * and when the process ends with status 0 writes the code V8 compiled during the run, if there was
 * no cache or V8 rejected it. Without a cache file (no private cache dir), it only compiles and runs.
 */
function runWithCodeCache(bundle: Bundle, source: string, cacheFile: string | undefined): unknown {
  const cachedData = cacheFile === undefined ? undefined : readCacheFile(cacheFile);
  const script = new vm.Script(
    source,
    cachedData === undefined ? { filename: bundle.file } : { filename: bundle.file, cachedData },
  );
  // Only a run that ended well leaves its code: a usage error or a closed pipe stops early and
  // would fix a cache that lacks most of what the command runs.
  if (cacheFile !== undefined && (cachedData === undefined || script.cachedDataRejected === true))
    atExit((status) => {
      if (status !== 0 || bundle.keep?.() === false) return;
      try {
        writeCacheFile(cacheFile, script.createCachedData());
      } catch {
        // Never fail a command over its cache.
      }
    });
  const module = { exports: {} };
  const wrapper = script.runInThisContext() as (...args: unknown[]) => void;
  wrapper.call(
    module.exports,
    module.exports,
    bundle.require,
    module,
    bundle.file,
    path.dirname(bundle.file),
  );
  return module.exports;
}

/** The cache writes due when the process ends, one per bundle loaded without a usable cache. */
const exitWrites: Array<(status: number) => void> = [];

/**
 * Runs `write` when the process ends, with its status. One `exit` listener serves every bundle a
 * run loads (a command may load each host's bundle: src/cli/lazy-hosts.ts), so Node never warns of
 * a listener leak.
 */
function atExit(write: (status: number) => void): void {
  if (exitWrites.length === 0)
    process.once('exit', (status) => {
      for (const each of exitWrites) each(status);
    });
  exitWrites.push(write);
}
