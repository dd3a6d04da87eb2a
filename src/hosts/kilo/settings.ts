import path from 'node:path';
import type { HostSettings, HostSettingsFile } from '../../registry/host.js';
import { opencodeSettings, rootDown, xdgConfigDir } from '../opencode/settings.js';
import { KILO_RULE_GLOBS } from './preset.js';

/** The names Kilo reads its config from, lowest precedence first. */
const USER_NAMES = ['config.json', 'kilo.json', 'kilo.jsonc', 'opencode.json', 'opencode.jsonc'];
/** In each project directory: Kilo's own names, then OpenCode's (each `.json` before `.jsonc`). */
const PROJECT_NAMES = [
  ['kilo.json', 'kilo.jsonc'],
  ['opencode.json', 'opencode.jsonc'],
];
/** Config folders of a project directory, and the names read in each. */
const FOLDERS = ['.kilocode', '.kilo'];
const FOLDER_NAMES = ['kilo.jsonc', 'kilo.json', 'opencode.jsonc', 'opencode.json'];

/**
 * Kilo's config files (`kilo.json`, `kilo.jsonc`, and OpenCode's names, which it still reads): the
 * one key that changes what it loads, `instructions`, read as OpenCode's (src/hosts/opencode/settings.ts)
 * and joined in Kilo's order: the user's files in `$XDG_CONFIG_HOME/kilo` (default `~/.config/kilo`)
 * first, then the project's from the filesystem root down to the work dir, Kilo's names before
 * OpenCode's, then the `kilo.json(c)` / `opencode.json(c)` of the `.kilocode/` and `.kilo/` folders
 * (where Kilo writes its project settings), root first (`Config.loadInstanceState` and
 * `ConfigPaths.files` in the JavaScript bundled in the 7.7.7 binary).
 */
export const kiloSettings: HostSettings = {
  // The project's files in precedence order, then the user's from the last to the first: the
  // reader puts a user file's patterns before the ones read so far (see opencodeSettings).
  files({ env, homeDir, cwd }) {
    const configDir = xdgConfigDir(env, homeDir, 'kilo');
    const dirs = rootDown(cwd);
    const project = (dir: string, name: string): HostSettingsFile => ({
      path: path.join(dir, name),
      tier: 'project',
    });
    const files: HostSettingsFile[] = [
      ...PROJECT_NAMES.flatMap((names) => dirs.flatMap((dir) => names.map((name) => project(dir, name)))),
      ...dirs.flatMap((dir) =>
        FOLDERS.flatMap((folder) => FOLDER_NAMES.map((name) => project(path.join(dir, folder), name))),
      ),
    ];
    for (const name of [...USER_NAMES].reverse())
      files.push({ path: path.join(configDir, name), tier: 'user' });
    return files;
  },
  // OpenCode's reader joins the lists; Kilo's rule folders stay ahead of every file's patterns.
  async read(text, file, preset) {
    const instructions = (preset['instructions'] ?? {}) as Readonly<Record<string, unknown>>;
    const earlier = Array.isArray(instructions['globs']) ? (instructions['globs'] as unknown[]) : [];
    const own = earlier.filter((glob) => typeof glob !== 'string' || !KILO_RULE_GLOBS.includes(glob));
    const result = await opencodeSettings.read(text, file, {
      ...preset,
      instructions: { ...instructions, globs: own },
    });
    const read = (result.config['instructions'] as { globs?: string[] } | undefined)?.globs;
    if (read === undefined) return result;
    const globs = [...new Set([...KILO_RULE_GLOBS.filter((glob) => earlier.includes(glob)), ...read])];
    return { ...result, config: { ...result.config, instructions: { globs } } };
  },
};
