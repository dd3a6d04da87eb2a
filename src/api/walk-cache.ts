import type { Diagnostic } from '../errors.js';
import type { FileSystem } from '../fs/file-system.js';
import type { ResolverContext } from './load-context.js';

/**
 * The gate to the walk index (`contextDiscovery.cache`, docs/disclosure.md "The walk index"): with
 * the key off nothing of it loads; with it on, `open-walk-cache.ts` loads on the first walk.
 */

type OpenWalkCache = typeof import('./open-walk-cache.js');
let loaded: Promise<OpenWalkCache> | undefined;

/**
 * What a nested walk lists directories through, given the file names it looks for: the port itself,
 * or with `contextDiscovery.cache` the port decorated by the resolver's walk index.
 */
export async function walkLister(context: ResolverContext): Promise<(names: Iterable<string>) => FileSystem> {
  if (context.config.contextDiscovery.cache !== true) return () => context.fs;
  const { walkFileSystem } = await (loaded ??= import('./open-walk-cache.js'));
  return (names) => walkFileSystem(context, names);
}

/**
 * After a request's walks: saves the resolver's walk index when they changed it, and returns the
 * `walk-cache` diagnostics not reported yet. Nothing when no walk used an index.
 */
export async function saveWalkCache(context: ResolverContext): Promise<readonly Diagnostic[]> {
  if (loaded === undefined || context.config.contextDiscovery.cache !== true) return [];
  return (await loaded).saveWalkIndex(context);
}
