import { createResolver, type ResolveResult } from '../api/create-resolver.js';
import type { Config } from '../config/types.js';
import type { FileSystem } from '../fs/file-system.js';
import type { Preset } from '../registry/host.js';
import type { HostRegistry } from '../registry/registry.js';
import { RULE_ADAPTERS } from '../rules/rule-adapters.js';

/**
 * One host doctor compares: a name and how to resolve what it loads. Each is a preset of the host
 * registry the CLI hands down (docs/presets.md); {@link listHosts} is the one place that knows it.
 */
export interface DoctorHost {
  readonly name: string;
  /** The paths that make a directory a place this host loads instructions from ({@link placeMarkers}). */
  readonly markers: readonly string[];
  /** The tags of the host's own frame, which a file's text can break (`frame-escaped`). */
  readonly frameTags: readonly string[];
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
export function listHosts(hosts: HostRegistry): readonly DoctorHost[] {
  // A preset for an older version of its host (its own `verified`: claude-code-2.1.197) is not a
  // host of its own here.
  return hosts.presets
    .filter((preset) => preset.verified === undefined)
    .map((entry) => {
      const { name, config: preset } = entry;
      const sources = (preset['rules'] as { sources?: readonly string[] } | undefined)?.sources ?? [];
      const config = { preset: name, rules: { sources: [...sources] } };
      const formats = hosts.hostOfPreset(name)?.formats ?? [];
      return {
        name,
        markers: presetMarkers(entry),
        // Codex's `INSTRUCTIONS` unless the host format says otherwise.
        frameTags: formats.find((format) => format.frameBreaks !== undefined)?.frameTags ?? ['INSTRUCTIONS'],
        async resolve(request: Readonly<HostRequest>): Promise<HostResolution> {
          const resolver = await createResolver(
            {
              workDir: request.workDir,
              config,
              env: request.env,
              ...(request.fs === undefined ? {} : { fs: request.fs }),
              ...(request.homeDir === undefined ? {} : { homeDir: request.homeDir }),
            },
            hosts,
          );
          const result = await resolver.resolve({ manifest: false, paths: [...request.paths] });
          return { result, config: resolver.config };
        },
      };
    });
}

/**
 * The paths (relative to a directory, `/` separators) that make a directory a place one of `hosts`
 * loads instructions from: each preset's chain candidates and fallbacks, its literal
 * `contextPaths`, and the locations of the rule sources it reads (`.cursor/rules`,
 * `.github/copilot-instructions.md`).
 */
export function placeMarkers(hosts: readonly DoctorHost[]): readonly string[] {
  return [...new Set(hosts.flatMap((host) => host.markers))];
}

/** The place markers of one preset (see {@link placeMarkers}). */
function presetMarkers({ config, profile }: Preset): readonly string[] {
  const markers = new Set<string>();
  const preset = config as PresetShape;
  const instructions = preset.instructions ?? {};
  for (const list of [instructions.candidates, profile?.fallbackCandidates, preset.contextPaths])
    for (const entry of list ?? [])
      if (typeof entry === 'string' && !/^[@$~]|[*?{[]/.test(entry)) markers.add(entry.replace(/\/+$/, ''));
  for (const source of preset.rules?.sources ?? [])
    for (const location of RULE_ADAPTERS.get(source)?.locations ?? []) markers.add(location.path);
  return [...markers];
}

interface PresetShape {
  readonly contextPaths?: readonly unknown[];
  readonly instructions?: {
    readonly candidates?: readonly unknown[];
  };
  readonly rules?: { readonly sources?: readonly string[] };
}
