import { DEFAULT_CONFIG } from './defaults.js';
import type { ConfigInput } from './schema.js';
import type { AgentConfig, Config } from './types.js';

/** Applies every default to a config that passed validation; the result is deeply frozen. */
export function normalizeConfig(data: ConfigInput): Config {
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
    contextDiscovery: Object.freeze({
      ...DEFAULT_CONFIG.contextDiscovery,
      ...stripUndefined(data.contextDiscovery ?? {}),
    }),
    flows: Object.freeze([...(data.flows ?? DEFAULT_CONFIG.flows)]),
    instructions: deepFreeze({
      ...DEFAULT_CONFIG.instructions,
      ...stripUndefined(structuredClone(data.instructions ?? {})),
    }),
    format: data.format ?? DEFAULT_CONFIG.format,
    budget: Object.freeze({ ...DEFAULT_CONFIG.budget, ...stripUndefined(data.budget ?? {}) }),
    wording: Object.freeze({ ...DEFAULT_CONFIG.wording, ...stripUndefined(data.wording ?? {}) }),
    session: deepFreeze({ tools: structuredClone(data.session?.tools ?? {}) }),
    imports: Object.freeze({ ...DEFAULT_CONFIG.imports, ...stripUndefined(data.imports ?? {}) }),
    contextRoot: data.contextRoot ?? DEFAULT_CONFIG.contextRoot,
  });
}

/** The config used when no file is found. */
export const DEFAULT_LOADED: Config = normalizeConfig({});

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined)) as Partial<T>;
}

/** Freezes a value and everything below it. */
export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}
