import { createRequire } from 'node:module';
import type { Ignore } from 'ignore';
import type { Diagnostic } from '../errors.js';
import { errorCode, isAbsent, type FileSystem } from '../fs/file-system.js';
import { under } from './nested-walk.js';

// `ignore` (CommonJS) loads on first use: only walks that respect .gitignore need it.
const require = createRequire(import.meta.url);
let library: ((options?: { ignorecase?: boolean }) => Ignore) | undefined;
const ignoreFactory = () => (library ??= require('ignore') as (options?: { ignorecase?: boolean }) => Ignore);

/** Options of {@link createGitignore}. */
export interface GitignoreOptions {
  /** Match names case-insensitively, like `core.ignorecase=true` (macOS, Windows). Default false. */
  readonly ignoreCase?: boolean;
  /** A `.gitignore` larger than this is not used (a `warn`). Default 1 MiB. */
  readonly maxBytes?: number;
}

/** What {@link createGitignore} returns: a matcher that reads `.gitignore` files as it needs them. */
export interface Gitignore {
  /**
   * True when git would ignore `relativePath` (relative to the root, `/` separators, no `./`),
   * a directory when `isDirectory`. A path below an ignored directory is ignored, whatever a
   * negation says (git never looks inside an ignored directory).
   */
  ignores(relativePath: string, isDirectory: boolean): boolean;
  /** Faults met so far (an unreadable or oversized `.gitignore`). */
  readonly diagnostics: readonly Diagnostic[];
}

/** The default of {@link GitignoreOptions.maxBytes}. */
export const MAX_GITIGNORE_BYTES = 1 << 20;

/**
 * A matcher of git's ignore rules below `rootDir` (docs/gitignore.md): the
 * `.gitignore` of every directory applies to its subtree, a deeper file's rules win over a
 * shallower one's, the last matching rule of a file wins (so `!pattern` re-includes), a pattern
 * ending in `/` matches directories only, and `.git/info/exclude` applies below every
 * `.gitignore`. Each directory's `.gitignore` is read once, the first time a path below that
 * directory is matched, so a top-down walk reads exactly the files of the directories it enters.
 * A `.gitignore` that is a symlink is not read (git does not follow it either). The global
 * `core.excludesFile` is not read. Never throws.
 */
export function createGitignore(fs: FileSystem, rootDir: string, options: GitignoreOptions = {}): Gitignore {
  const ignoreCase = options.ignoreCase ?? false;
  const maxBytes = options.maxBytes ?? MAX_GITIGNORE_BYTES;
  const diagnostics: Diagnostic[] = [];
  const levels = new Map<string, Ignore | null>();
  const directories = new Map<string, boolean>();
  let exclude: Ignore | null | undefined;

  const load = (file: string) => loadRules(fs, file, { maxBytes, ignoreCase }, diagnostics);

  function level(relativeDir: string): Ignore | null {
    let rules = levels.get(relativeDir);
    if (rules === undefined) {
      rules = load(under(rootDir, relativeDir === '' ? '.gitignore' : `${relativeDir}/.gitignore`));
      levels.set(relativeDir, rules);
    }
    return rules;
  }

  /** The rules that mention `relativePath` itself, deepest `.gitignore` first, then the exclude file. */
  function matchOwn(relativePath: string, isDirectory: boolean): boolean {
    const suffix = isDirectory ? '/' : '';
    for (let cut = relativePath.lastIndexOf('/'); ; cut = relativePath.lastIndexOf('/', cut - 1)) {
      const dir = cut <= 0 ? '' : relativePath.slice(0, cut);
      const rules = level(dir);
      if (rules !== null) {
        const verdict = rules.test((dir === '' ? relativePath : relativePath.slice(cut + 1)) + suffix);
        if (verdict.ignored) return true;
        if (verdict.unignored) return false;
      }
      if (cut <= 0) break;
    }
    exclude ??= load(under(rootDir, '.git/info/exclude'));
    return exclude !== null && exclude.test(relativePath + suffix).ignored;
  }

  function directoryIgnored(relativeDir: string): boolean {
    let ignored = directories.get(relativeDir);
    if (ignored === undefined) {
      const cut = relativeDir.lastIndexOf('/');
      ignored = (cut > 0 && directoryIgnored(relativeDir.slice(0, cut))) || matchOwn(relativeDir, true);
      directories.set(relativeDir, ignored);
    }
    return ignored;
  }

  return {
    diagnostics,
    ignores(relativePath: string, isDirectory: boolean): boolean {
      const clean = trim(relativePath);
      if (!isPlainRelative(clean)) return false;
      if (isDirectory) return directoryIgnored(clean);
      const cut = clean.lastIndexOf('/');
      return (cut > 0 && directoryIgnored(clean.slice(0, cut))) || matchOwn(clean, false);
    },
  };
}

/**
 * The rules of one ignore file; `null` when it is absent, not a regular file, too large or
 * unreadable (the last two reported in `diagnostics`).
 */
function loadRules(
  fs: FileSystem,
  file: string,
  { maxBytes, ignoreCase }: { maxBytes: number; ignoreCase: boolean },
  diagnostics: Diagnostic[],
): Ignore | null {
  let text: string;
  try {
    const result = fs.readFile(file, { maxBytes });
    if (result.truncated) {
      diagnostics.push({
        level: 'warn',
        code: 'gitignore-unreadable',
        message: `${file} is larger than ${maxBytes} bytes and is not used`,
        path: file,
      });
      return null;
    }
    text = new TextDecoder().decode(result.bytes);
  } catch (error) {
    // Absent, or not a regular file (a symlink, a directory): no rules, as in git.
    if (isAbsent(error) || errorCode(error) === 'EINVAL') return null;
    diagnostics.push({
      level: 'warn',
      code: 'gitignore-unreadable',
      message: `${file} cannot be read (${errorCode(error)})`,
      path: file,
    });
    return null;
  }
  return ignoreFactory()({ ignorecase: ignoreCase }).add(text);
}

/** A path relative to the root, without `.` or `..` parts: the only paths that can be ignored. */
function isPlainRelative(clean: string): boolean {
  return (
    clean !== '' && !clean.startsWith('/') && !clean.split('/').some((part) => part === '..' || part === '.')
  );
}

/** Drops leading `./` and trailing `/` without a regular expression (a run of slashes must cost O(n)). */
function trim(relativePath: string): string {
  let start = 0;
  while (relativePath.startsWith('./', start)) start += 2;
  let end = relativePath.length;
  while (end > start && relativePath.charCodeAt(end - 1) === 47) end -= 1;
  return relativePath.slice(start, end);
}
