import { openWalkIndex, type WalkIndex } from '../discover/walk-index.js';
import type { Diagnostic } from '../errors.js';
import type { FileSystem } from '../fs/file-system.js';
import { isNodeFileSystem } from '../fs/node-file-system.js';
import { cacheDisabledByEnv, openWalkIndexStore, type WalkIndexStore } from '../fs/walk-index-store.js';
import type { ResolverContext } from './load-context.js';

/**
 * The walk index of each resolver (docs/disclosure.md, "The walk index"): loaded from the user's
 * cache dir on the first walk, shared by the resolver's walks (the nested files and the rule
 * folders), kept across `refresh()` (it revalidates every directory anyway) and saved after each
 * request whose walks changed it. Used only over the Node port, whose listings are this machine's
 * disk, and not when `CTXFILES_NO_CACHE` is set.
 */

interface OpenedIndex {
  readonly index: WalkIndex;
  readonly store: WalkIndexStore;
  /** False once the store failed: one `walk-cache` diagnostic per resolver, not one per request. */
  saving: boolean;
  /** `walk-cache` diagnostics not handed to a request yet. */
  readonly pending: Diagnostic[];
}

const opened = new WeakMap<ResolverContext, OpenedIndex | null>();

/** The port the walks of `context` list through when they look for files named in `names`. */
export function walkFileSystem(context: ResolverContext, names: Iterable<string>): FileSystem {
  let cache = opened.get(context);
  if (cache === undefined) {
    cache = openIndex(context);
    opened.set(context, cache);
  }
  return cache === null ? context.fs : cache.index.fsFor(names);
}

/** Saves the index when it changed; returns the diagnostics of loading and saving not reported yet. */
export function saveWalkIndex(context: ResolverContext): readonly Diagnostic[] {
  const cache = opened.get(context);
  if (cache === undefined || cache === null) return [];
  const text = cache.saving ? cache.index.serialize() : null;
  const problem = text === null ? undefined : cache.store.save(text);
  if (problem !== undefined) {
    cache.saving = false;
    cache.pending.push(diagnostic(`${problem}; the next run lists every directory again`));
  }
  return cache.pending.splice(0);
}

function openIndex(context: ResolverContext): OpenedIndex | null {
  const { fs, env, homeDir, workDir } = context;
  if (!isNodeFileSystem(fs) || cacheDisabledByEnv(env)) return null;
  const store = openWalkIndexStore(workDir, { env, homeDir });
  const pending: Diagnostic[] = [];
  const loaded = store.load();
  if (loaded.problem !== undefined) pending.push(diagnostic(loaded.problem));
  const index = openWalkIndex(fs, { key: workDir, root: workDir, saved: loaded.text, now: Date.now });
  if (index.rejected !== undefined)
    pending.push(diagnostic(`the walk index ${store.file} is ignored (${index.rejected}) and rebuilt`));
  // A store that cannot be read safely is not written either (the same fault, said once).
  return { index, store, saving: loaded.problem === undefined, pending };
}

function diagnostic(message: string): Diagnostic {
  return { level: 'info', code: 'walk-cache', message };
}
