import { HOSTS } from '../hosts/index.js';
import type { Preset } from '../hosts/index.js';

export type { Preset } from '../hosts/index.js';

/** Every preset, in the order `ctxfiles presets` lists them (docs/presets.md): the hosts' presets. */
export const PRESETS: readonly Preset[] = Object.freeze(HOSTS.flatMap((host) => host.presets));

/** The names `preset` and `--preset` accept. */
export const PRESET_NAMES: readonly string[] = Object.freeze(PRESETS.map((preset) => preset.name));

/** One line per preset, by name, for `ctxfiles presets`. */
export const PRESET_SUMMARIES: Readonly<Record<string, string>> = Object.freeze(
  Object.fromEntries(PRESETS.map((preset) => [preset.name, preset.summary])),
);

/**
 * The config object of a preset, deeply frozen; `undefined` for a name that is not a preset
 * (names are exact: `codex`, not `Codex`).
 */
export function getPreset(name: string): Readonly<Record<string, unknown>> | undefined {
  return PRESETS.find((preset) => preset.name === name)?.config;
}

/** The host profile of a preset (only the values that differ from ctxfiles' own); `{}` for none. */
export function getPresetProfile(name: string): NonNullable<Preset['profile']> {
  return PRESETS.find((preset) => preset.name === name)?.profile ?? {};
}
