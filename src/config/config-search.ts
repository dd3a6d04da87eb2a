import path from 'node:path';
import { CtxfilesError, formatProblem, type Diagnostic } from '../errors.js';
import { isInside } from '../fs/contain.js';
import type { FileSystem } from '../fs/file-system.js';
import { isSourceFile, probeSourceFile, readSourceFile, requireSourceFile } from './read-source.js';
import { CODE_EXTENSIONS, parseJson } from './read-config.js';
import { CONFIG_SEARCH_PLACES } from './search-places.js';
import { joinName } from '../shared/join-name.js';

// Where a config is found (docs/config.md, "Where the config is found"): the project search from the
// work dir up, and the user config's place. Reading what is found is src/config/read-config.ts;
// layering it over a preset and the user config is src/config/load-config.ts.

/** What {@link findUserConfig} reads of the options of `loadConfig`. */
export interface UserConfigOptions {
  readonly cwd?: string;
  readonly userConfig?: string | null;
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/** What code configs the search refuses, and where and how it reports what it passes over. */
interface SearchReporting {
  readonly refuseCode: boolean;
  readonly diagnostics: Diagnostic[];
  readonly display: (file: string) => string;
}

/**
 * The first config of the search (docs/config.md, "Where the config is found"). It reads data
 * configs only: with `refuseCode` (an untrusted project), a code config found on the way is never
 * loaded, only named in a `warn` `code-config-refused`, and the search goes on as if it were not there.
 */
export function searchConfig(
  fs: FileSystem,
  start: string,
  stopDir: string,
  search: SearchReporting,
): string | null {
  const { diagnostics, display } = search;
  const stop = path.resolve(stopDir);
  let dir = start;
  for (;;) {
    const [first, ...shadowed] = configsIn(fs, dir, search);
    if (first !== undefined) {
      for (const other of shadowed) {
        diagnostics.push({
          level: 'info',
          code: 'config-shadowed',
          message: `${display(other)} is ignored: ${display(first)} comes first in the search order`,
          path: other,
        });
      }
      return first;
    }
    const parent = path.dirname(dir);
    if (dir === stop || parent === dir) return null;
    dir = parent;
  }
}

/**
 * The configs of one directory of the search, in search order: each place that holds a regular
 * file (a directory or other kind there is a `warn`), but a refused code config and a
 * `package.json` without a `ctxfiles` key.
 * @throws CtxfilesError `config-invalid` for a config behind a link leading out of `dir`;
 * `config-syntax` for a place that cannot be probed or a `package.json` that cannot be read.
 */
function configsIn(fs: FileSystem, dir: string, search: SearchReporting): string[] {
  const { diagnostics, display } = search;
  const found: string[] = [];
  const listed = namesOfDeep(fs, dir);
  for (const place of CONFIG_SEARCH_PLACES) {
    if (listed !== null && !listed.has(place.toLowerCase())) continue;
    // The search's directories are normalized (the work dir resolved, then its parents), and each
    // place is one name: no join that normalizes again (the nothing-applies line runs this 13 times).
    const candidate = joinName(dir, place);
    // The shown path is worked out only for a message: it costs as much as the directory's depth.
    const kind = probeSourceFile(fs, candidate, () => display(candidate), 'config-syntax');
    if (kind === 'absent') continue;
    if (kind !== 'file') {
      diagnostics.push({
        level: 'warn',
        code: 'config-not-file',
        message: `${display(candidate)}: skipped: ${kind === 'directory' ? 'a directory' : 'not a regular file'}, not a config file`,
        path: candidate,
      });
      continue;
    }
    if (search.refuseCode && CODE_EXTENSIONS.has(path.extname(place))) {
      diagnostics.push(refusedCodeConfig(display(candidate), candidate));
      continue;
    }
    refuseOutsideLink(fs, candidate, dir, display);
    if (place === 'package.json' && !packageHasKey(fs, candidate, display(candidate))) continue;
    found.push(candidate);
  }
  return found;
}

/** Directories at least this deep are listed once by the search rather than probed per place. */
export const DEEP_SEARCH_SEGMENTS = 64;

/**
 * In a directory {@link DEEP_SEARCH_SEGMENTS} deep or more, the names it holds (lower case), from
 * one listing: every `stat` of a path walks all its components, so eleven per directory made the
 * search of a work dir 2,000 directories deep take seconds (docs/security.md, "Bounds"). A place
 * listed is then probed as usual (lower case, so that a case-insensitive disk finds what a `stat`
 * finds). `null` above that depth, or when the directory cannot be listed: each place is probed.
 */
function namesOfDeep(fs: FileSystem, dir: string): Set<string> | null {
  let depth = 0;
  for (let at = dir.indexOf(path.sep); at !== -1; at = dir.indexOf(path.sep, at + 1)) depth += 1;
  if (depth < DEEP_SEARCH_SEGMENTS) return null;
  try {
    return new Set(fs.readdir(dir).map((entry) => entry.name.toLowerCase()));
  } catch {
    return null;
  }
}

function refusedCodeConfig(shown: string, file: string): Diagnostic {
  return {
    level: 'warn',
    code: 'code-config-refused',
    message: `${shown}: not loaded: a config found by the search runs no code; name it with --config (configFile), or list the project in the user config's trustedProjects`,
    path: file,
  };
}

/**
 * A config found by the search that is a symlink (or sits behind one) leading out of the
 * directory it was found in is refused: the repository would choose what file configures ctxfiles.
 * @throws CtxfilesError `config-invalid`.
 */
function refuseOutsideLink(
  fs: FileSystem,
  file: string,
  dir: string,
  display: (file: string) => string,
): void {
  let real: string;
  let realDir: string;
  try {
    real = fs.realpath(file);
    realDir = fs.realpath(dir);
  } catch (error) {
    throw new CtxfilesError('config-syntax', [
      formatProblem(
        { file: display(file) },
        `cannot read the file (${(error as { code?: string }).code ?? 'error'})`,
      ),
    ]);
  }
  if (isInside(realDir, real)) return;
  throw new CtxfilesError('config-invalid', [
    formatProblem(
      { file: display(file) },
      `the config is a symlink to a file outside ${display(dir) || '.'}; name the file with --config to use it`,
    ),
  ]);
}

/** The default user config location, or the one given; `null` when there is none to read. */
export function findUserConfig(
  fs: FileSystem,
  options: UserConfigOptions,
  homeDir: string,
  display: (file: string) => string,
): string | null {
  if (options.userConfig === null) return null;
  if (options.userConfig !== undefined) {
    const file = path.resolve(options.cwd ?? process.cwd(), options.userConfig);
    requireSourceFile(fs, file, display(file), 'user config');
    return file;
  }
  const file = defaultUserConfigPath(options.env ?? process.env, homeDir);
  return isSourceFile(fs, file, display(file), 'config-syntax') ? file : null;
}

/**
 * Where the user config is when none is named: `$XDG_CONFIG_HOME/ctxfiles/config.json` when that
 * variable is an absolute path, else `~/.config/ctxfiles/config.json`.
 */
export function defaultUserConfigPath(
  env: Readonly<Record<string, string | undefined>>,
  homeDir: string,
): string {
  const xdg = env['XDG_CONFIG_HOME'];
  const base = xdg !== undefined && path.isAbsolute(xdg) ? xdg : path.join(homeDir, '.config');
  return path.join(base, 'ctxfiles', 'config.json');
}

/**
 * True when a `package.json` has a `ctxfiles` key. A package.json that cannot be read is an error
 * (it may hold the config); one that is not JSON is passed over unless it mentions `"ctxfiles":`.
 */
function packageHasKey(fs: FileSystem, file: string, shown: string): boolean {
  const text = readSourceFile(fs, file, shown, 'config-syntax');
  const value = parseJson(text, false);
  // Malformed JSON with a `"ctxfiles": {` is read as the config, so its syntax error is reported;
  // a dependency on ctxfiles (`"ctxfiles": "^1.0.0"`) is no config.
  if (value === undefined) return /"ctxfiles"\s*:\s*\{/.test(text);
  return typeof value === 'object' && value !== null && Object.hasOwn(value, 'ctxfiles');
}
