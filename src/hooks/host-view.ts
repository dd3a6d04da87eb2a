import type { Resolver } from '../api/create-resolver.js';
import { openHostView, type HostView } from '../api/host-view.js';
import { hostById } from '../hosts/index.js';

/**
 * The view of the host a hook runs in (DESIGN §13, "A host's own view"): what it shows by itself,
 * which the hook never repeats. `undefined` when the config asks for the host's own files too
 * (`contextDiscovery.repeatHostFiles`) or the host is not known.
 */
export async function hookHostView(
  hostId: string,
  resolver: Resolver,
  env: Readonly<Record<string, string | undefined>>,
  homeDir: string,
): Promise<HostView | undefined> {
  if (resolver.config.contextDiscovery.repeatHostFiles === true) return undefined;
  const host = hostById(hostId);
  if (host === undefined) return undefined;
  return openHostView({
    preset: host.presets[0],
    view: host.view,
    workDir: resolver.workDir,
    env,
    homeDir,
  });
}
