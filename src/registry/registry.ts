import type { HostProfile } from '../config/types.js';
import type { HostFormat } from '../render/render-types.js';
import type { ImportStyle } from '../imports/import-style.js';
import type { HookProtocol, Host, Preset } from './host.js';
import { deepFreeze } from '../shared/deep-freeze.js';

/**
 * The hosts ctxfiles reproduces, as the engine reaches them (DESIGN §13, ARCHITECTURE.md "Hosts").
 * The composition root (the CLI, the public API in src/api/lazy-api.ts) builds it from the host
 * modules of src/hosts/ and hands down what each step needs: the preset lookup to config loading,
 * the format lookup to rendering, a host's hook protocol to the hook. No engine module imports a
 * host (`npm run lint:deps`).
 */
export interface HostRegistry {
  /** Every host, in the order `ctxfiles presets` lists their presets. */
  readonly hosts: readonly Host[];
  /** Every preset of every host, in that order. */
  readonly presets: readonly Preset[];
  /** The names `preset` and `--preset` accept. */
  readonly presetNames: readonly string[];
  /** The ids of the hosts with a hook protocol, in registry order (`ctxfiles hook <id>`). */
  readonly hookHosts: readonly string[];
  /** The ids of the hosts `ctxfiles init` knows, in registry order. */
  readonly initHosts: readonly string[];
  /** The names of the hosts' output formats, in registry order. */
  readonly formatNames: readonly string[];
  /** The host of that id, or `undefined`. */
  host(id: string): Host | undefined;
  /** The preset of that name (names are exact: `codex`, not `Codex`), or `undefined`. */
  preset(name: string): Preset | undefined;
  /** The host that defines a preset, or `undefined` for a name that is not a preset. */
  hostOfPreset(name: string): Host | undefined;
  /** The host format of that name, or `undefined` for the engine's own formats. */
  format(name: string): HostFormat | undefined;
  /** A host's inline import style of that name (`Host.importStyles`), or `undefined`. */
  importStyle(name: string): ImportStyle | undefined;
  /** The hook protocol of a host, or `undefined` when it has none. */
  hookProtocol(id: string): HookProtocol | undefined;
}

/**
 * Builds the lookups over a list of hosts; the list is the registry's one row per host.
 *
 * Host tables are shared and must never change, so the registry hands a host out deeply frozen
 * (with its presets, formats, hook protocol and view). It freezes each host the first time it hands
 * out anything of it, not when the modules load: freezing every host's tables at start-up cost a cold
 * `resolve` ~2.4 M instructions (docs/performance.md, "Round eight"), while a command uses one host,
 * or none.
 */
export function createHostRegistry(hosts: readonly Host[]): HostRegistry {
  const presets = hosts.flatMap((host) => host.presets);
  const byId = new Map(hosts.map((host) => [host.id, host]));
  const byPreset = new Map(
    hosts.flatMap((host) => host.presets.map((preset) => [preset.name, host] as const)),
  );
  const presetByName = new Map(presets.map((preset) => [preset.name, preset]));
  const formatHost = new Map(
    hosts.flatMap((host) => (host.formats ?? []).map((format) => [format.name, host] as const)),
  );
  const formats = new Map(hosts.flatMap((host) => host.formats ?? []).map((format) => [format.name, format]));
  const styleHost = new Map(
    hosts.flatMap((host) => (host.importStyles ?? []).map((style) => [style.name, host] as const)),
  );
  const styles = new Map(
    hosts.flatMap((host) => host.importStyles ?? []).map((style) => [style.name, style]),
  );
  const handOut = <T>(host: Host | undefined, value: T): T => {
    if (host !== undefined) deepFreeze(host);
    return value;
  };
  let everyHost: readonly Host[] | undefined;
  const all = (): readonly Host[] => (everyHost ??= deepFreeze([...hosts]));
  return Object.freeze({
    get hosts() {
      return all();
    },
    get presets() {
      all();
      return Object.freeze(presets);
    },
    presetNames: Object.freeze(presets.map((preset) => preset.name)),
    hookHosts: Object.freeze(hosts.filter((host) => host.hook !== undefined).map((host) => host.id)),
    initHosts: Object.freeze(hosts.filter((host) => host.init !== undefined).map((host) => host.id)),
    formatNames: Object.freeze([...formats.keys()]),
    host: (id: string) => handOut(byId.get(id), byId.get(id)),
    preset: (name: string) => handOut(byPreset.get(name), presetByName.get(name)),
    hostOfPreset: (name: string) => handOut(byPreset.get(name), byPreset.get(name)),
    format: (name: string) => handOut(formatHost.get(name), formats.get(name)),
    importStyle: (name: string) => handOut(styleHost.get(name), styles.get(name)),
    hookProtocol: (id: string) => handOut(byId.get(id), byId.get(id)?.hook),
  });
}

/** The host profile of a preset (only the values that differ from ctxfiles' own); `{}` for none. */
export function presetProfile(registry: PresetLookup, name: string): Readonly<Partial<HostProfile>> {
  return registry.preset(name)?.profile ?? {};
}

/** What config loading needs of the registry: the presets, and the names `format` takes. */
export type PresetLookup = Pick<HostRegistry, 'preset' | 'presetNames' | 'hostOfPreset' | 'formatNames'>;
