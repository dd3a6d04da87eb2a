/**
 * A preset: a named config object that reproduces what one coding tool loads and how it frames it
 * (docs/presets.md). The user's config is merged over it.
 */
export interface Preset {
  /** The name `preset` and `--preset` take. */
  readonly name: string;
  /** One line for `ctxfiles presets`. */
  readonly summary: string;
  /** The config values, written with the config keys of docs/config.md. Deeply frozen. */
  readonly config: Readonly<Record<string, unknown>>;
}

/** Freezes a plain value and everything below it; presets are shared and must never change. */
export function frozen<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    for (const child of Object.values(value)) frozen(child);
    Object.freeze(value);
  }
  return value;
}
