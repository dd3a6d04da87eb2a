import { HOST_INDEX } from '../registry/host-index.generated.js';
import type { Host } from '../registry/host.js';
import { createLazyHostRegistry } from '../registry/lazy-registry.js';
import type { HostRegistry } from '../registry/registry.js';
import type { LoadBundle } from './bin.js';

// What the CLI bundles import in place of src/hosts/index.ts (scripts/bundle-cli.mjs, `lazyHosts`):
// the same registry, whose hosts each sit in a bundle of their own (`dist/bin/host-<id>.cjs`), loaded
// through the compile cache the first time something of that host is asked for. A bundle runs the
// top level of every module it holds when it loads, and the twelve hosts' tables were a fifth of
// what a `resolve` without a preset added to Node's start (docs/performance.md, "Round nine").

let loadBundle: LoadBundle | undefined;

/** Gives the registry the bin's loader; each bundle's `main` calls it first. */
export function useBundleLoader(load: LoadBundle): void {
  loadBundle ??= load;
}

/** The registry of every host, each loaded on first use. */
export const HOST_REGISTRY: HostRegistry = createLazyHostRegistry(
  HOST_INDEX,
  (id) => {
    if (loadBundle === undefined)
      throw new Error(`ctxfiles: the host ${id} was asked for before the bundle loader was set`);
    return (loadBundle(`host-${id}`) as { readonly host: Host }).host;
  },
  () => {
    if (loadBundle === undefined)
      throw new Error('ctxfiles: every host was asked for before the bundle loader was set');
    return (loadBundle('hosts') as { readonly hosts: readonly Host[] }).hosts;
  },
);
