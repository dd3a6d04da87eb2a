import { describe, expect, test } from 'vitest';
import { HOSTS } from '../src/hosts/index.js';
import type { Host, Preset } from '../src/registry/host.js';
import { HOST_INDEX } from '../src/registry/host-index.generated.js';
import { createLazyHostRegistry, hostIndexOf } from '../src/registry/lazy-registry.js';
import { createHostRegistry } from '../src/registry/registry.js';

// The CLI bundles' registry (src/cli/lazy-hosts.ts) loads a host the first time something of it is
// asked for: it must answer every question as the registry over every host does.

/** A lazy registry over HOSTS, and the ids it loaded, in order. */
function lazyOverHosts(): { registry: ReturnType<typeof createLazyHostRegistry>; loads: string[] } {
  const loads: string[] = [];
  const registry = createLazyHostRegistry(HOST_INDEX, (id) => {
    loads.push(id);
    return HOSTS.find((host) => host.id === id) as Host;
  });
  return { registry, loads };
}

describe('the host index', () => {
  test('is what the registry names, host by host (written by the build)', () => {
    expect(HOST_INDEX).toEqual(hostIndexOf(HOSTS));
    expect(HOST_INDEX.map((row) => row.id)).toEqual(HOSTS.map((host) => host.id));
  });
});

describe('the lazy registry', () => {
  const eager = createHostRegistry(HOSTS);
  const names = {
    presets: [...eager.presetNames, 'nope', 'Codex', '', '__proto__', 'constructor'],
    formats: [...eager.formatNames, 'opencode', 'xml', 'markdown', 'nope', '__proto__'],
    styles: [
      ...HOSTS.flatMap((host) => (host.importStyles ?? []).map((style) => style.name)),
      'ctxfiles',
      'nope',
    ],
    ids: [...HOSTS.map((host) => host.id), 'nope', 'toString', ''],
  };

  test('answers every lookup with the same objects as the registry over every host', () => {
    const { registry } = lazyOverHosts();
    for (const name of names.presets) {
      expect(registry.preset(name), name).toBe(eager.preset(name));
      expect(registry.hostOfPreset(name), name).toBe(eager.hostOfPreset(name));
    }
    for (const name of names.formats) expect(registry.format(name), name).toBe(eager.format(name));
    for (const name of names.styles) expect(registry.importStyle(name), name).toBe(eager.importStyle(name));
    for (const id of names.ids) {
      expect(registry.host(id), id).toBe(eager.host(id));
      expect(registry.hookProtocol(id), id).toBe(eager.hookProtocol(id));
    }
    for (const key of ['presetNames', 'hookHosts', 'initHosts', 'formatNames'] as const)
      expect(registry[key], key).toEqual(eager[key]);
    expect(registry.hosts).toEqual(eager.hosts);
    expect(registry.presets).toEqual(eager.presets);
    expect(registry.presets).toBe(registry.presets);
  });

  test('loads only the hosts asked for, each once, and none for a name of its own', () => {
    const { registry, loads } = lazyOverHosts();
    void [registry.presetNames, registry.formatNames, registry.hookHosts, registry.initHosts];
    expect([registry.preset('nope'), registry.format('xml'), registry.host('nope')]).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
    expect(loads).toEqual([]);
    expect(registry.preset('codex')?.name).toBe('codex');
    expect(registry.hookProtocol('codex')).toBeDefined();
    expect(registry.format('codex')?.name).toBe('codex');
    expect(loads).toEqual(['codex']);
    // A host is deeply frozen once handed out, as the eager registry hands it out.
    const codex = registry.host('codex') as Host;
    expect(Object.isFrozen(codex) && Object.isFrozen(codex.presets[0]?.config)).toBe(true);
    expect(registry.hosts.map((host) => host.id)).toEqual(HOSTS.map((host) => host.id));
    expect(loads.slice(1)).toEqual(HOSTS.map((host) => host.id).filter((id) => id !== 'codex'));
  });

  test('every host at once: one load of them all, a host loaded before kept, each checked against its row', () => {
    const loads: string[] = [];
    let everyLoads = 0;
    const copies = () => HOSTS.map((host) => ({ ...host }));
    const registry = createLazyHostRegistry(
      HOST_INDEX,
      (id) => {
        loads.push(id);
        return { ...(HOSTS.find((host) => host.id === id) as Host) };
      },
      () => {
        everyLoads += 1;
        return copies();
      },
    );
    const codex = registry.host('codex');
    expect(loads).toEqual(['codex']);
    const every = registry.hosts;
    expect(everyLoads).toBe(1);
    expect(loads).toEqual(['codex']);
    expect(every.map((host) => host.id)).toEqual(HOSTS.map((host) => host.id));
    // The host asked for first stays the object every answer gives; the others are the bundle's.
    expect(every.find((host) => host.id === 'codex')).toBe(codex);
    expect(registry.preset('claude-code')?.name).toBe('claude-code');
    expect(registry.hostOfPreset('claude-code')).toBe(every.find((host) => host.id === 'claude-code'));
    expect(every.every((host) => Object.isFrozen(host))).toBe(true);
    expect(registry.hosts).toBe(every);
    expect(everyLoads).toBe(1);
    // A host the bundle of every host lacks is loaded alone; one it gets wrong is an error.
    const missing = createLazyHostRegistry(
      HOST_INDEX,
      (id) => HOSTS.find((host) => host.id === id) as Host,
      () => HOSTS.filter((host) => host.id !== 'pi'),
    );
    expect(missing.hosts.map((host) => host.id)).toEqual(HOSTS.map((host) => host.id));
    const wrong = createLazyHostRegistry(
      HOST_INDEX,
      (id) => HOSTS.find((host) => host.id === id) as Host,
      () => HOSTS.map((host) => (host.id === 'pi' ? { ...host, presets: [] } : host)),
    );
    expect(() => wrong.hosts).toThrow(/the host loaded for "pi" \("pi"\) does not define/);
  });

  test('a loader that answers with another host, or a host the index no longer describes, is an error', () => {
    const registry = createLazyHostRegistry(HOST_INDEX, () => HOSTS[0] as Host);
    expect(() => registry.preset('codex')).toThrow(
      /the host loaded for "codex" \("opencode"\) does not define/,
    );
    // A stale index: the codex host now defines one preset more than its row names.
    const codex = HOSTS.find((host) => host.id === 'codex') as Host;
    const grown: Host = {
      ...codex,
      presets: [...codex.presets, { ...(codex.presets[0] as Preset), name: 'codex-2' }],
    };
    expect(() => createLazyHostRegistry(HOST_INDEX, () => grown).host('codex')).toThrow(
      /does not define what the host index says/,
    );
    expect(createLazyHostRegistry(HOST_INDEX, () => codex).host('codex')).toBe(codex);
  });
});
