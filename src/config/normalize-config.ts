import { CAP_MAXIMA, DEFAULT_CONFIG } from './defaults.js';
import type { ConfigInput } from './schema.js';
import { DEFAULT_PROFILE, type AgentConfig, type Config, type Format, type HostProfile } from './types.js';
import { deepFreeze } from '../shared/deep-freeze.js';

/**
 * Applies every default to a config that passed validation, with the host profile of the preset it
 * was merged over (absent: ctxfiles' own); the result is deeply frozen.
 */
export function normalizeConfig(data: ConfigInput, profile: Readonly<Partial<HostProfile>> = {}): Config {
  return Object.freeze({
    contextPaths: Object.freeze([...(data.contextPaths ?? DEFAULT_CONFIG.contextPaths)]),
    agents: Object.freeze(
      Object.fromEntries(
        Object.entries(data.agents ?? {}).map(([id, agent]) => [
          id,
          deepFreeze(structuredClone(agent)) as unknown as AgentConfig,
        ]),
      ),
    ),
    contextDiscovery: Object.freeze(
      clampCaps({ ...DEFAULT_CONFIG.contextDiscovery, ...stripUndefined(data.contextDiscovery ?? {}) }),
    ),
    flows: Object.freeze([...(data.flows ?? DEFAULT_CONFIG.flows)]),
    instructions: deepFreeze({
      ...DEFAULT_CONFIG.instructions,
      ...stripUndefined(structuredClone(data.instructions ?? {})),
    }),
    // Checked against the host registry's names by the loader (`unknownNames` in types.ts).
    format: (data.format as Format | undefined) ?? DEFAULT_CONFIG.format,
    budget: Object.freeze({ ...DEFAULT_CONFIG.budget, ...stripUndefined(data.budget ?? {}) }),
    wording: Object.freeze({ ...DEFAULT_CONFIG.wording, ...stripUndefined(data.wording ?? {}) }),
    session: deepFreeze({ tools: structuredClone(data.session?.tools ?? {}) }),
    ...(data.preset === undefined ? {} : { preset: data.preset }),
    profile: deepFreeze({ ...DEFAULT_PROFILE, ...stripUndefined(structuredClone(profile)) }),
    rules: deepFreeze({
      sources: [...(data.rules?.sources ?? DEFAULT_CONFIG.rules.sources)],
      nested: data.rules?.nested ?? DEFAULT_CONFIG.rules.nested,
      userFolders: data.rules?.userFolders ?? DEFAULT_CONFIG.rules.userFolders,
    }),
    imports: deepFreeze({
      ...DEFAULT_CONFIG.imports,
      ...stripUndefined(structuredClone(data.imports ?? {})),
    }),
    contextRoot: data.contextRoot ?? DEFAULT_CONFIG.contextRoot,
    ...(data.subagents === undefined ? {} : { subagents: deepFreeze({ ...data.subagents }) }),
    ...(data.modes === undefined ? {} : { modes: deepFreeze(structuredClone(data.modes)) }),
  });
}

/** The `contextDiscovery` caps clamped to {@link CAP_MAXIMA}: no config makes one call read gigabytes. */
export function clampCaps<T extends Record<keyof typeof CAP_MAXIMA, number>>(caps: T): T {
  const clamped = { ...caps };
  for (const [key, maximum] of Object.entries(CAP_MAXIMA) as Array<[keyof typeof CAP_MAXIMA, number]>) {
    if (clamped[key] > maximum) (clamped as Record<string, number>)[key] = maximum;
  }
  return clamped;
}

/** The caps of a config value that {@link clampCaps} lowers, as key paths with their maxima. */
export function capsAboveMaxima(value: unknown): Array<{ keyPath: string; maximum: number }> {
  const discovery = (value as { contextDiscovery?: Record<string, unknown> } | null)?.contextDiscovery;
  if (typeof discovery !== 'object' || discovery === null) return [];
  return Object.entries(CAP_MAXIMA)
    .filter(([key, maximum]) => typeof discovery[key] === 'number' && (discovery[key] as number) > maximum)
    .map(([key, maximum]) => ({ keyPath: `contextDiscovery.${key}`, maximum }));
}

/** The config used when no file is found. */
export const DEFAULT_LOADED: Config = normalizeConfig({});

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined)) as Partial<T>;
}
