/**
 * Named presets (docs/config.md, "Layers"). This is the minimal shape the config loader needs; the
 * presets themselves live in this folder when they land.
 */
const PRESETS: Readonly<Record<string, Readonly<Record<string, unknown>>>> = Object.freeze({});

/** The names of the known presets, in documentation order. */
export const PRESET_NAMES: readonly string[] = Object.freeze(Object.keys(PRESETS));

/** The config object of a preset, or `undefined` for an unknown name. */
export function getPreset(name: string): Readonly<Record<string, unknown>> | undefined {
  return Object.hasOwn(PRESETS, name) ? PRESETS[name] : undefined;
}
