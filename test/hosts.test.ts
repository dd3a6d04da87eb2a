import { describe, expect, test } from 'vitest';
import { FORMATS } from '../src/config/types.js';
import { HOSTS, HOST_REGISTRY } from '../src/hosts/index.js';
import { createHostRegistry } from '../src/registry/registry.js';
import type { Host } from '../src/registry/host.js';
import { HOSTS as LAB_HOSTS } from './conformance/hosts/index.mjs';

/** The formats the engine renders itself (docs/formats.md); every other format belongs to a host. */
const ENGINE_FORMATS = ['opencode', 'xml', 'reminder', 'magi'];

describe('the host registry (src/hosts)', () => {
  test('ids and preset names are unique, and each host has a preset named like itself', () => {
    const ids = HOSTS.map((host) => host.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(new Set(HOST_REGISTRY.presetNames).size).toBe(HOST_REGISTRY.presetNames.length);
    for (const host of HOSTS) {
      expect(host.presets[0]?.name).toBe(host.id);
      expect(host.sources.length).toBeGreaterThan(0);
      for (const preset of host.presets) expect(HOST_REGISTRY.hostOfPreset(preset.name)).toBe(host);
    }
    expect(HOST_REGISTRY.hostOfPreset('vim')).toBeUndefined();
  });

  test('every format is either the engine’s or exactly one host’s', () => {
    const hostFormats = HOSTS.flatMap((host) => (host.formats ?? []).map((format) => format.name));
    expect(new Set(hostFormats).size).toBe(hostFormats.length);
    expect([...ENGINE_FORMATS, ...hostFormats].sort()).toEqual([...FORMATS].sort());
    for (const name of ENGINE_FORMATS) expect(HOST_REGISTRY.format(name as never)).toBeUndefined();
    for (const name of hostFormats) expect(HOST_REGISTRY.format(name)?.name).toBe(name);
  });

  test('a host the lab drives is verified at the lab’s pinned version, and only those', () => {
    for (const host of HOSTS) {
      const driver = LAB_HOSTS.find((lab) => lab.id === host.id);
      if (host.verified === null) {
        expect(driver, `${host.id} is driven by the lab but says "from docs"`).toBeUndefined();
        continue;
      }
      expect(driver, `${host.id} says verified but the lab has no driver`).toBeDefined();
      expect(host.verified.version).toBe(driver?.version);
      expect(driver?.packages[0]).toBe(`${host.verified.package}@${host.verified.version}`);
    }
  });

  test('hook protocols: each names its three events and maps tools onto trigger kinds', () => {
    expect(HOST_REGISTRY.hookHosts).toEqual(
      HOSTS.filter((host) => host.hook !== undefined).map((host) => host.id),
    );
    expect(HOST_REGISTRY.hookHosts).toEqual(expect.arrayContaining(['claude-code', 'gemini-cli', 'codex']));
    expect(HOST_REGISTRY.initHosts).toEqual(
      HOSTS.filter((host) => host.init !== undefined).map((host) => host.id),
    );
    expect(HOST_REGISTRY.initHosts).toEqual(expect.arrayContaining(['claude-code', 'codex', 'opencode']));
    for (const id of HOST_REGISTRY.hookHosts) {
      const protocol = HOST_REGISTRY.hookProtocol(id);
      expect(Object.values(protocol?.events ?? {}).every((name) => name !== '')).toBe(true);
      expect(Object.keys(protocol?.tools ?? {}).length).toBeGreaterThan(0);
    }
    expect(HOST_REGISTRY.hookProtocol('cursor')).toBeUndefined();
  });

  test('a preset’s import style is ctxfiles’ own or one its own host defines', () => {
    let named = 0;
    for (const host of HOSTS) {
      for (const preset of host.presets) {
        const name = preset.profile?.importStyle;
        if (name === undefined || name === 'comment') continue;
        named += 1;
        expect(
          host.importStyles?.map((style) => style.name),
          `${preset.name}`,
        ).toContain(name);
        expect(HOST_REGISTRY.importStyle(name)).toBe(host.importStyles?.find((style) => style.name === name));
      }
    }
    expect(named).toBeGreaterThan(0);
    expect(HOST_REGISTRY.importStyle('comment')).toBeUndefined();
  });

  test('a host is handed out deeply frozen, and frozen only when first handed out', () => {
    const deeplyFrozen = (value: unknown): boolean =>
      typeof value !== 'object' ||
      value === null ||
      (Object.isFrozen(value) && Object.values(value).every(deeplyFrozen));
    const fresh = (id: string): Host => ({
      id,
      title: id,
      verified: null,
      sources: ['a test'],
      presets: [{ name: id, summary: 'a throwaway host', config: { contextPaths: [`${id}.md`] } }],
      ownNames: [`${id}.md`],
    });
    const [first, second] = [fresh('first'), fresh('second')];
    const registry = createHostRegistry([first, second]);
    // Loading the host modules and building the registry freezes nothing (start-up cost).
    expect(Object.isFrozen(first)).toBe(false);
    expect(Object.isFrozen(first.presets[0]!.config)).toBe(false);
    const preset = registry.preset('first');
    expect(preset).toBe(first.presets[0]);
    expect(deeplyFrozen(first)).toBe(true);
    expect(Object.isFrozen(second)).toBe(false);
    expect(() => (preset!.config['contextPaths'] as string[]).push('x')).toThrow(TypeError);
    // Listing every host freezes them all.
    expect(registry.hosts.every(deeplyFrozen)).toBe(true);
    expect(deeplyFrozen(registry.presets)).toBe(true);
    for (const host of HOSTS) expect(deeplyFrozen(HOST_REGISTRY.host(host.id))).toBe(true);
  });
});
