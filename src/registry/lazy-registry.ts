import { deepFreeze } from '../shared/deep-freeze.js';
import type { Host, Preset } from './host.js';
import type { HostRegistry } from './registry.js';

/**
 * What the registry knows of one host without loading it: its id and the names it defines. Written
 * at build time from the registry (`src/registry/host-index.generated.ts`, by
 * scripts/generate-sources.mjs with {@link hostIndexOf}).
 */
export interface HostIndexRow {
  readonly id: string;
  readonly presets: readonly string[];
  readonly formats: readonly string[];
  readonly importStyles: readonly string[];
  /** The host has a hook protocol (`ctxfiles hook <id>`). */
  readonly hook: boolean;
  /** `ctxfiles init <id>` knows the host. */
  readonly init: boolean;
}

/** The index rows of `hosts`, in their order. */
export function hostIndexOf(hosts: readonly Host[]): HostIndexRow[] {
  return hosts.map((host) => ({
    id: host.id,
    presets: host.presets.map((preset) => preset.name),
    formats: (host.formats ?? []).map((format) => format.name),
    importStyles: (host.importStyles ?? []).map((style) => style.name),
    hook: host.hook !== undefined,
    init: host.init !== undefined,
  }));
}

/**
 * A registry that loads a host the first time something of it is asked for (`loadHost`, which
 * returns the host of that id), and answers the names from `index` alone. It answers as
 * `createHostRegistry` over the same hosts does (`test/lazy-registry.test.ts`), host by host: the CLI
 * bundles use it so that a run builds only the tables of the hosts it asks for, and a run without a
 * preset none (docs/performance.md, "Round nine"). A host is deeply frozen when it is loaded.
 */
export function createLazyHostRegistry(
  index: readonly HostIndexRow[],
  loadHost: (id: string) => Host,
  loadEvery?: () => readonly Host[],
): HostRegistry {
  const rows = new Map(index.map((row) => [row.id, row] as const));
  const owner = (pick: (row: HostIndexRow) => readonly string[]) =>
    new Map(index.flatMap((row) => pick(row).map((name) => [name, row.id] as const)));
  const presetHost = owner((row) => row.presets);
  const formatHost = owner((row) => row.formats);
  const styleHost = owner((row) => row.importStyles);
  const loaded = new Map<string, Host>();
  const keep = (row: HostIndexRow, host: Host): Host => {
    // The index is built apart from the bundles: one that no longer names what the host defines
    // (a bundle built without `generate-sources`) is an error here, not wrong answers later.
    if (JSON.stringify(hostIndexOf([host])[0]) !== JSON.stringify(row))
      throw new Error(
        `the host loaded for ${JSON.stringify(row.id)} (${JSON.stringify(host.id)}) does not define what the host index says: rebuild (npm run build)`,
      );
    loaded.set(row.id, deepFreeze(host));
    return host;
  };
  const load = (id: string | undefined): Host | undefined => {
    const row = id === undefined ? undefined : rows.get(id);
    if (row === undefined) return undefined;
    return loaded.get(row.id) ?? keep(row, loadHost(row.id));
  };
  let everyHost: readonly Host[] | undefined;
  let everyPreset: readonly Preset[] | undefined;
  const all = (): readonly Host[] => {
    if (everyHost !== undefined) return everyHost;
    // Every host at once, where that is one load rather than one per host; a host loaded before
    // stays the object it was.
    if (loadEvery !== undefined && index.filter((row) => !loaded.has(row.id)).length > 1) {
      const every = new Map(loadEvery().map((host) => [host.id, host] as const));
      for (const row of index) if (!loaded.has(row.id)) keep(row, every.get(row.id) ?? loadHost(row.id));
    }
    return (everyHost = Object.freeze(index.map((row) => load(row.id) as Host)));
  };
  return Object.freeze({
    get hosts() {
      return all();
    },
    get presets() {
      return (everyPreset ??= Object.freeze(all().flatMap((host) => host.presets)));
    },
    presetNames: Object.freeze(index.flatMap((row) => row.presets)),
    hookHosts: Object.freeze(index.filter((row) => row.hook).map((row) => row.id)),
    initHosts: Object.freeze(index.filter((row) => row.init).map((row) => row.id)),
    formatNames: Object.freeze(index.flatMap((row) => row.formats)),
    host: (id: string) => load(id),
    preset: (name: string) => load(presetHost.get(name))?.presets.find((preset) => preset.name === name),
    hostOfPreset: (name: string) => load(presetHost.get(name)),
    format: (name: string) => load(formatHost.get(name))?.formats?.find((format) => format.name === name),
    importStyle: (name: string) =>
      load(styleHost.get(name))?.importStyles?.find((style) => style.name === name),
    hookProtocol: (id: string) => load(id)?.hook,
  });
}
