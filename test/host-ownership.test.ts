import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { createResolver } from '../src/api/create-resolver.js';
import { loadConfig, parseConfig } from '../src/config/load-config.js';
import { createMemoryFileSystem } from '../src/fs/memory-file-system.js';
import { parseHookEvent } from '../src/hooks/hook-event.js';
import { toToolEvents } from '../src/hooks/tool-names.js';
import { HOST_REGISTRY, HOSTS } from '../src/hosts/index.js';
import type { Host } from '../src/registry/host.js';
import { createHostRegistry } from '../src/registry/registry.js';
import { displayPath } from '../src/render/display-path.js';
import { HOSTS as LAB_HOSTS } from './conformance/hosts/index.mjs';

// DESIGN §13: a host is one folder. What it owns is listed here; a new host needs
// src/hosts/<id>/, its row in src/hosts/index.ts and its lab driver (test/conformance/hosts/), and
// nothing else written by hand (the build derives the names of its presets and formats; `npm run
// generate` rewrites the committed schema and the docs' lists).

const repo = path.resolve(import.meta.dirname, '..');
const hostsDir = path.join(repo, 'src/hosts');

/** The files each host's folder holds. */
const OWNED: Readonly<Record<string, readonly string[]>> = {
  opencode: ['format.ts', 'index.ts', 'init.ts', 'preset.ts', 'settings.ts'],
  'opencode-go': ['index.ts', 'preset.ts'],
  codex: ['format.ts', 'index.ts', 'init.ts', 'preset.ts', 'settings.ts'],
  'claude-code': ['format.ts', 'hook-frame.ts', 'index.ts', 'init.ts', 'preset.ts', 'settings.ts'],
  cursor: ['index.ts', 'preset.ts'],
  copilot: ['format.ts', 'import-style.ts', 'index.ts', 'preset.ts'],
  'gemini-cli': ['format.ts', 'index.ts', 'init.ts', 'preset.ts', 'settings.ts'],
  continue: ['format.ts', 'index.ts', 'preset.ts'],
  'qwen-code': ['format.ts', 'index.ts', 'init.ts', 'preset.ts'],
  kilo: ['index.ts', 'preset.ts', 'settings.ts'],
  pi: ['format.ts', 'index.ts', 'preset.ts', 'settings.ts'],
  cline: ['format.ts', 'hook.ts', 'index.ts', 'init.ts', 'preset.ts'],
};

/**
 * A host built from another one's code, which keeps that host's behaviour where the lab finds it
 * the same: Qwen Code is a fork of Gemini CLI (its `--- Context from:` markers), Kilo of OpenCode
 * (its instruction lists). The only imports from one host's folder into another's.
 */
const FORKS: Readonly<Record<string, string>> = { 'qwen-code': 'gemini-cli', kilo: 'opencode' };

/** Every `.ts` file under a directory, relative to the repository, `/` separators. */
function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(file);
    return entry.name.endsWith('.ts') ? [path.relative(repo, file).split(path.sep).join('/')] : [];
  });
}

/** The project files a module imports (static, dynamic and type imports), relative to the repository. */
function importsOf(file: string): string[] {
  const text = fs.readFileSync(path.join(repo, file), 'utf8');
  const specifiers = [...text.matchAll(/(?:from\s+|import\s*\(\s*|import\s+)'(\.[^']+)'/g)].map(
    (match) => match[1] as string,
  );
  return specifiers.map((specifier) =>
    path.posix.join(path.posix.dirname(file), specifier).replace(/\.js$/, '.ts'),
  );
}

describe('a host is one folder', () => {
  test('each host owns src/hosts/<id>/ and these files; the folder holds nothing else', () => {
    expect(Object.keys(OWNED)).toEqual(HOSTS.map((host) => host.id));
    const entries = fs.readdirSync(hostsDir).sort();
    expect(entries).toEqual([...HOSTS.map((host) => host.id), 'index.ts'].sort());
    for (const host of HOSTS)
      expect(fs.readdirSync(path.join(hostsDir, host.id)).sort(), host.id).toEqual(OWNED[host.id]);
  });

  test('each host module imports only its own folder and the host contract, and the host it forks', () => {
    for (const host of HOSTS)
      for (const file of sources(path.join(hostsDir, host.id)))
        for (const target of importsOf(file).filter((imported) => imported.startsWith('src/hosts/'))) {
          const owner = target.split('/')[2] as string;
          const allowed = owner === host.id || FORKS[host.id] === owner;
          expect(allowed, `${file} imports ${target}`).toBe(true);
        }
  });

  test('only the composition root (the CLI, the public API) imports a host', () => {
    const root = (file: string) =>
      file.startsWith('src/cli/') || file === 'src/api/lazy-api.ts' || file.startsWith('src/hosts/');
    const leaks = sources(path.join(repo, 'src'))
      .filter((file) => !root(file))
      .flatMap((file) =>
        importsOf(file)
          .filter((imported) => imported.startsWith('src/hosts/'))
          .map((imported) => `${file} → ${imported}`),
      );
    expect(leaks).toEqual([]);
  });

  test('each host the lab drives has one driver row, named by its id', () => {
    for (const driver of LAB_HOSTS) {
      const id = driver.id.replace(/-\d+\.\d+\.\d+$/, '');
      expect(HOST_REGISTRY.host(id), driver.id).toBeDefined();
    }
  });
});

/** A host that is no real tool: a module as a new host would write it, and nothing else. */
const throwaway: Host = {
  id: 'throwaway',
  title: 'Throwaway',
  verified: null,
  sources: ['test/host-ownership.test.ts'],
  presets: [
    {
      name: 'throwaway',
      summary: 'Throwaway: a host made up for a test',
      config: { contextPaths: ['NOTES.md'], format: 'throwaway-notes' },
      profile: { trim: true },
    },
  ],
  formats: [
    {
      name: 'throwaway-notes',
      render: (files, context) =>
        files
          .map((file) => `## ${displayPath(file.path, context.workDir, context.homeDir)}\n${file.text}`)
          .join('\n'),
      sessionFrame: (files) => files.map((file) => `(also ${file.path})`).join('\n'),
    },
  ],
  hook: {
    events: { start: 'Begin', afterTool: 'Used', compact: 'Squeeze' },
    tools: { Look: { as: 'read', pathKeys: ['file'] } },
  },
};

describe('a new host needs its folder and a registry row', () => {
  const registry = createHostRegistry([...HOSTS, throwaway]);
  const tree = () => {
    const memory = createMemoryFileSystem({}, { root: '/w' });
    memory.set('/w', { dir: true });
    memory.set('/w/NOTES.md', '  Keep it short.  \n\n');
    memory.set('/w/ctxfiles.config.json', '{ "preset": "throwaway" }');
    return memory;
  };

  test('its preset, profile and format work through the registry handed down', async () => {
    const memory = tree();
    const loaded = await loadConfig(
      { cwd: '/w', fs: memory, userConfig: null, hostSettings: false },
      registry,
    );
    expect(loaded.config.format).toBe('throwaway-notes');
    expect(loaded.config.profile.trim).toBe(true);
    const resolver = await createResolver({ workDir: '/w', config: loaded, fs: memory, env: {} }, registry);
    // Trimmed by its profile, framed by its format.
    expect((await resolver.resolve()).text).toBe('## NOTES.md\nKeep it short.');
  });

  test('the registry decides: without the host, its preset and format are config errors', async () => {
    await expect(
      loadConfig({ cwd: '/w', fs: tree(), userConfig: null, hostSettings: false }, HOST_REGISTRY),
    ).rejects.toThrow(/ctxfiles\.config\.json:1:13: preset: Invalid option: expected one of "opencode"/);
    await expect(
      createResolver(
        { workDir: '/w', config: { format: 'throwaway-notes' }, fs: tree(), env: {} },
        HOST_REGISTRY,
      ),
    ).rejects.toThrow(/format: Invalid option: expected one of "opencode"\|"xml"/);
  });

  test('a registry without a host refuses its names, though the shipped schema lists them', async () => {
    // The fast validator is generated from the published schema (every shipped host); the registry
    // handed down decides, on the fast path as on zod's.
    const without = createHostRegistry(HOSTS.filter((host) => host.id !== 'codex'));
    await expect(parseConfig({ format: 'codex' }, without)).rejects.toThrow(/format: Invalid option/);
    await expect(parseConfig({ preset: 'codex' }, without)).rejects.toThrow(/"codex" is not a preset/);
    expect((await parseConfig({ format: 'codex' }, HOST_REGISTRY)).config.format).toBe('codex');
  });

  test('its hook protocol reads its events and tools', () => {
    const protocol = registry.hookProtocol('throwaway');
    expect(protocol).toBe(throwaway.hook);
    const event = parseHookEvent(
      protocol!,
      JSON.stringify({
        hook_event_name: 'Used',
        session_id: 's',
        cwd: '/w',
        tool_name: 'Look',
        tool_input: {},
      }),
    );
    expect(event).toMatchObject({ kind: 'after-tool', toolName: 'Look' });
    expect(toToolEvents(protocol!, 'Look', { file: 'src/a.ts' }, true)).toEqual([
      { tool: 'read', input: { file_path: 'src/a.ts' }, ok: true },
    ]);
    expect(registry.hookHosts).toContain('throwaway');
    expect(HOST_REGISTRY.hookHosts).not.toContain('throwaway');
  });
});
