import type { LazyLoadedConfig } from '../config/load-config.js';

/**
 * What a config wants inside a host: as loaded, plus the host's own instruction names
 * (`Host.ownNames`) when no layer sets `contextPaths` (DESIGN §13, "wanted − already shown": with
 * no config, every instruction file ctxfiles knows, the host's own names included). A config that
 * names its `contextPaths` gets exactly those.
 */
export function wantedInside<T extends Pick<LazyLoadedConfig, 'config' | 'layers'>>(
  loaded: T,
  ownNames: readonly string[] | undefined,
): T {
  if (ownNames === undefined || ownNames.length === 0) return loaded;
  if ((loaded.layers ?? []).some((layer) => layer.keys.includes('contextPaths'))) return loaded;
  const paths = loaded.config.contextPaths;
  const added = ownNames.filter((name) => !paths.includes(name));
  if (added.length === 0) return loaded;
  return { ...loaded, config: { ...loaded.config, contextPaths: [...paths, ...added] } };
}
