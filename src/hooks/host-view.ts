import type { Resolver } from '../api/create-resolver.js';
import { openHostView, type HostView } from '../api/host-view.js';
import type { Host } from '../registry/host.js';
import type { HostRegistry } from '../registry/registry.js';

/**
 * The view of the host a hook runs in (DESIGN §13, "A host's own view"): what it shows by itself,
 * which the hook never repeats. `undefined` when the config asks for the host's own files too
 * (`contextDiscovery.repeatHostFiles`).
 */
export async function hookHostView(
  host: Host,
  hosts: HostRegistry,
  resolver: Resolver,
  env: Readonly<Record<string, string | undefined>>,
  homeDir: string,
): Promise<HostView | undefined> {
  if (resolver.config.contextDiscovery.repeatHostFiles === true) return undefined;
  return openHostView({
    hosts,
    preset: host.presets[0],
    view: host.view,
    workDir: resolver.workDir,
    env,
    homeDir,
  });
}
