import { createResolver, type ResolveResult } from '../api/create-resolver.js';
import type { Config } from '../config/types.js';
import type { FileSystem } from '../fs/file-system.js';
import { PRESETS } from '../presets/index.js';
import { RULE_ADAPTERS } from '../rules/rule-adapters.js';

/**
 * One host doctor compares: a name and how to resolve what it loads. Today each host is a preset
 * of the presets registry (docs/presets.md); {@link listHosts} is the one place that knows it, so
 * the host modules can replace the source without touching the rest of doctor.
 */
export interface DoctorHost {
  readonly name: string;
  /** What the host loads at `workDir`, before the first tool call, with `paths` in play. */
  resolve(request: Readonly<HostRequest>): Promise<HostResolution>;
}

/** Where a host starts and what is in play. */
export interface HostRequest {
  /** Absolute directory the host is started in. */
  readonly workDir: string;
  /** Paths in play, relative to `workDir` (glob rules that match them load). */
  readonly paths: readonly string[];
  readonly fs?: FileSystem | undefined;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly homeDir?: string | undefined;
}

/** A host's resolution and the effective config it ran with (for its caps). */
export interface HostResolution {
  readonly result: ResolveResult;
  readonly config: Config;
}

/**
 * Every host, in the order `ctxfiles presets` lists them, by its presets for the host's verified version. Each resolves with its preset alone:
 * no config is searched (a host never reads ctxfiles' config), and the keys whose defaults may
 * change (`rules.sources`) are pinned to what the preset says, or to nothing.
 */
export function listHosts(): readonly DoctorHost[] {
  // A preset for an older version of its host (its own `verified`: claude-code-2.1.197) is not a
  // host of its own here.
  return PRESETS.filter((preset) => preset.verified === undefined).map(({ name, config: preset }) => {
    const sources = (preset['rules'] as { sources?: readonly string[] } | undefined)?.sources ?? [];
    const config = { preset: name, rules: { sources: [...sources] } };
    return {
      name,
      async resolve(request: Readonly<HostRequest>): Promise<HostResolution> {
        const resolver = await createResolver({
          workDir: request.workDir,
          config,
          env: request.env,
          ...(request.fs === undefined ? {} : { fs: request.fs }),
          ...(request.homeDir === undefined ? {} : { homeDir: request.homeDir }),
        });
        const result = await resolver.resolve({ manifest: false, paths: [...request.paths] });
        return { result, config: resolver.config };
      },
    };
  });
}

/** The names {@link listHosts} gives, for `--host`. */
export function hostNames(): readonly string[] {
  return listHosts().map((host) => host.name);
}

/**
 * The paths (relative to a directory, `/` separators) that make a directory a place some host loads
 * instructions from: each preset's chain candidates and fallbacks, its literal `contextPaths`, and
 * the locations of the rule sources it reads (`.cursor/rules`, `.github/copilot-instructions.md`).
 */
export function placeMarkers(names?: readonly string[]): readonly string[] {
  const markers = new Set<string>();
  for (const { name, config, profile } of PRESETS) {
    if (names !== undefined && !names.includes(name)) continue;
    const preset = config as PresetShape;
    const instructions = preset.instructions ?? {};
    for (const list of [instructions.candidates, profile?.fallbackCandidates, preset.contextPaths])
      for (const entry of list ?? [])
        if (typeof entry === 'string' && !/^[@$~]|[*?{[]/.test(entry)) markers.add(entry.replace(/\/+$/, ''));
    for (const source of preset.rules?.sources ?? [])
      for (const location of RULE_ADAPTERS.get(source)?.locations ?? []) markers.add(location.path);
  }
  return [...markers];
}

interface PresetShape {
  readonly contextPaths?: readonly unknown[];
  readonly instructions?: {
    readonly candidates?: readonly unknown[];
  };
  readonly rules?: { readonly sources?: readonly string[] };
}
