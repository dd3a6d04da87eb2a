import { HOST_REGISTRY as hosts } from '../hosts/index.js';
import { EXIT, type CliIo } from './io.js';

/** One preset as `ctxfiles presets --json` lists it (docs/presets.md). */
export interface PresetListing {
  readonly name: string;
  /** The host module that defines it. */
  readonly host: string;
  /** The host version the conformance lab verified, or `null`: the preset follows the host's docs. */
  readonly verified: { readonly version: string; readonly package: string } | null;
  readonly summary: string;
  /**
   * Its host profile: how the host shapes what it loads where no config key does, the values that
   * differ from ctxfiles' own (docs/config.md, "Host profiles"); `{}` for none.
   */
  readonly profile: Readonly<Record<string, unknown>>;
}

/** Every preset with its host and verified version, in the order `ctxfiles presets` lists them. */
export function listPresets(): PresetListing[] {
  return hosts.hosts.flatMap((host) =>
    host.presets.map((preset) => ({
      name: preset.name,
      host: host.title,
      verified: preset.verified ?? host.verified,
      summary: preset.summary,
      profile: preset.profile ?? {},
    })),
  );
}

/** `Codex CLI 0.171.0`, or `from docs` for a host no lab drives. */
function verifiedLabel(listing: PresetListing): string {
  return listing.verified === null ? 'from docs' : `${listing.host} ${listing.verified.version}`;
}

/**
 * `ctxfiles presets` lists the presets, one line each: name, the host version the lab verified it
 * against (or `from docs`), summary; `--json` prints the same as an array. `ctxfiles presets show
 * NAME` prints one preset as JSON (docs/presets.md). An unknown action or name is a usage error
 * (exit 2) that lists the names.
 */
export function presetsCommand(
  action: string | undefined,
  name: string | undefined,
  io: CliIo,
  json = false,
): number {
  if (action === undefined) {
    const listings = listPresets();
    if (json) {
      io.stdout.write(`${JSON.stringify(listings, null, 2)}\n`);
      return EXIT.ok;
    }
    const nameWidth = Math.max(...listings.map((listing) => listing.name.length));
    const versionWidth = Math.max(...listings.map((listing) => verifiedLabel(listing).length));
    for (const listing of listings)
      io.stdout.write(
        `${listing.name.padEnd(nameWidth)}  ${verifiedLabel(listing).padEnd(versionWidth)}  ${listing.summary}\n`,
      );
    return EXIT.ok;
  }
  if (action !== 'show') {
    io.stderr.write(`ctxfiles: error: unknown action "${action}"; use: ctxfiles presets [show NAME]\n`);
    return EXIT.usage;
  }
  const preset = name === undefined ? undefined : hosts.preset(name)?.config;
  if (preset === undefined) {
    const what = name === undefined ? 'name a preset' : `"${name}" is not a preset`;
    io.stderr.write(`ctxfiles: error: ${what}; the presets are: ${hosts.presetNames.join(', ')}\n`);
    return EXIT.usage;
  }
  io.stdout.write(`${JSON.stringify(preset, null, 2)}\n`);
  return EXIT.ok;
}
