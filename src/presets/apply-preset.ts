import { isPlainObject } from '../shared/is-plain-object.js';

/**
 * The effective config value before validation: the preset as the base, the loaded config
 * deep-merged over it. Plain objects merge key by key; arrays and every other value replace.
 * A value that is not a plain object (an invalid config) is returned as it is, for the validator
 * to report. Neither input is changed.
 */
export function applyPreset(preset: Readonly<Record<string, unknown>>, config: unknown): unknown {
  if (!isPlainObject(config)) return config;
  return mergeOver(preset, config);
}

function mergeOver(base: Readonly<Record<string, unknown>>, over: Readonly<Record<string, unknown>>) {
  const merged: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(over)) {
    const below = merged[key];
    merged[key] = isPlainObject(below) && isPlainObject(value) ? mergeOver(below, value) : value;
  }
  return merged;
}
