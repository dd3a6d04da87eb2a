import path from 'node:path';
import { formatProblem, type Diagnostic } from '../../errors.js';
import type { HostSettings, HostSettingsFile, HostSettingsPlace } from '../../registry/host.js';

/** The names OpenCode reads its config from, in each place, lowest precedence first. */
const USER_NAMES = ['config.json', 'opencode.json', 'opencode.jsonc'];
const PROJECT_NAMES = ['opencode.json', 'opencode.jsonc'];

/**
 * OpenCode's own config files (`opencode.json`, `opencode.jsonc`): the one key that changes what
 * it loads, `instructions`, a list of glob patterns read after the walk, as `instructions.globs`.
 * The user's files in `$XDG_CONFIG_HOME/opencode` (default `~/.config/opencode`) come first, then
 * the project's, from the filesystem root down to the work dir; the lists are joined, repeats
 * dropped, as OpenCode merges them (`instructions` concatenated, packages/opencode/src/config/config.ts).
 * URLs are never fetched; a project file's patterns that name a place outside the project
 * (absolute, `~/`, `..`) are not read (an `info` each): a repository cannot make ctxfiles read the
 * user's files.
 */
export const opencodeSettings: HostSettings = {
  // Read in this order so that no project file ever carries a user file's patterns (which the
  // trust tiers would drop with it): the project's files from the root down, then the user's from
  // the last to the first, each user file putting its patterns before the ones read so far.
  files({ env, homeDir, cwd }) {
    const configDir = xdgConfigDir(env, homeDir, 'opencode');
    const files: HostSettingsFile[] = rootDown(cwd).flatMap((dir) =>
      PROJECT_NAMES.map((name) => ({ path: path.join(dir, name), tier: 'project' as const })),
    );
    for (const name of [...USER_NAMES].reverse())
      files.push({ path: path.join(configDir, name), tier: 'user' });
    return files;
  },
  async read(text, file, preset) {
    const diagnostics: Diagnostic[] = [];
    const note = (level: 'info' | 'warn', problem: string, at?: { line: number; column: number }) =>
      diagnostics.push({
        level,
        code: 'host-settings-invalid',
        message: formatProblem({ file: file.shown, line: at?.line, column: at?.column }, problem).message,
        path: file.path,
      });
    const { parse } = await import('jsonc-parser');
    const errors: import('jsonc-parser').ParseError[] = [];
    const value = parse(text.replace(/^\uFEFF/, ''), errors, { allowTrailingComma: true }) as unknown;
    const first = errors[0];
    if (first !== undefined) {
      note('warn', "not valid JSON with comments; the preset's values apply", position(text, first.offset));
      return { config: {}, diagnostics };
    }
    if (typeof value !== 'object' || value === null || !Object.hasOwn(value, 'instructions'))
      return { config: {}, diagnostics };
    const list = (value as { instructions: unknown }).instructions;
    if (!Array.isArray(list)) {
      note('warn', 'instructions: must be a list of paths or glob patterns; it is ignored');
      return { config: {}, diagnostics };
    }
    const own: string[] = [];
    for (const entry of list as unknown[]) {
      const skip = skipReason(entry, file);
      if (skip !== null) note(typeof entry === 'string' ? 'info' : 'warn', `instructions: ${skip}`);
      else own.push(entry as string);
    }
    const earlier = earlierGlobs(preset);
    const joined = file.tier === 'user' ? [...own, ...earlier] : [...earlier, ...own];
    return { config: { instructions: { globs: [...new Set(joined)] } }, diagnostics };
  },
};

/** `$XDG_CONFIG_HOME/<name>`, by default `~/.config/<name>`: where OpenCode and its forks keep their config. */
export function xdgConfigDir(env: HostSettingsPlace['env'], homeDir: string, name: string): string {
  const xdg = env['XDG_CONFIG_HOME'];
  return path.join(xdg !== undefined && xdg !== '' ? xdg : path.join(homeDir, '.config'), name);
}

/** The directories from the filesystem root down to `cwd`. */
export function rootDown(cwd: string): string[] {
  const dirs: string[] = [];
  for (let dir = cwd; ; dir = path.dirname(dir)) {
    dirs.unshift(dir);
    if (path.dirname(dir) === dir) return dirs;
  }
}

/** The patterns the files read before this one gave (OpenCode joins the lists, repeats dropped). */
function earlierGlobs(config: Readonly<Record<string, unknown>>): readonly string[] {
  const globs = (config['instructions'] as { globs?: unknown } | undefined)?.globs;
  return Array.isArray(globs) ? globs.filter((glob): glob is string => typeof glob === 'string') : [];
}

/** Why an `instructions` entry is not read, or `null` when it is. */
function skipReason(entry: unknown, file: HostSettingsFile): string | null {
  if (typeof entry !== 'string' || entry === '')
    return `${JSON.stringify(entry)} is not a path or a glob pattern`;
  if (/^https?:\/\//.test(entry)) return `${entry} is a URL: ctxfiles never fetches one (the host does)`;
  const outside =
    entry.startsWith('~') ||
    path.isAbsolute(entry) ||
    /^[A-Za-z]:/.test(entry) ||
    entry.split(/[/\\]/).includes('..');
  if (file.tier === 'project' && outside)
    return `${entry} names a place outside the project: a project's ${path.basename(file.path)} cannot make ctxfiles read it`;
  return null;
}

/** Line and column (1-based) of a character offset. */
function position(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset).split('\n');
  return { line: before.length, column: (before[before.length - 1]?.length ?? 0) + 1 };
}
