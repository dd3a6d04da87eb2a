import path from 'node:path';
import type { Diagnostic } from '../diagnostics.js';
import type { Resolver } from './create-resolver.js';
import { hostLayers, type HostContext, type HostLayerReason } from './host-layers.js';

/** What one context inside a host would be given here (docs/subagents.md). */
export interface HostView {
  /** `main`: the main agent in the default mode; `subagent`: a subagent name; `mode`: a mode. */
  readonly kind: 'main' | 'subagent' | 'mode';
  /** The subagent's or the mode's name; absent for the main agent. */
  readonly name?: string;
  readonly agent?: string;
  readonly flow?: string;
  readonly step?: string;
  readonly reason: HostLayerReason | 'mapped mode';
  /** The resolved files, relative to the work dir (absolute outside it), in the block's order. */
  readonly files: readonly string[];
  readonly diagnostics: readonly Diagnostic[];
}

/**
 * What the main agent, each subagent name the config knows (the `subagents` keys and the declared
 * agents, which a subagent of the same name becomes) and each mapped mode would be given in this
 * work dir, in that order. The hosts deliver it through their hooks or the MCP server.
 */
export async function hostViews(
  resolver: Resolver,
  options: Readonly<{ mainAgent?: string | undefined }> = {},
): Promise<HostView[]> {
  const { config } = resolver;
  const flows = await resolver.flows();
  const contexts: Array<[HostView['kind'], string | undefined, HostContext]> = [['main', undefined, {}]];
  const names = new Set([...Object.keys(config.subagents ?? {}), ...Object.keys(config.agents)]);
  for (const name of names) contexts.push(['subagent', name, { agentId: 'explain', agentType: name }]);
  for (const mode of Object.keys(config.modes ?? {})) contexts.push(['mode', mode, { mode }]);
  const views: HostView[] = [];
  for (const [kind, name, context] of contexts) {
    const layers = hostLayers(config, flows, context, options.mainAgent);
    const { agent, flow, step } = layers;
    const request = {
      ...(agent === undefined ? {} : { agent }),
      ...(flow === undefined ? {} : { flow, step }),
    };
    const result = await resolver.resolve({ ...request, manifest: false });
    const shown = (file: string) => {
      const relative = path.relative(resolver.workDir, file);
      return relative.startsWith('..') || path.isAbsolute(relative) ? file : relative;
    };
    views.push({
      kind,
      ...(name === undefined ? {} : { name }),
      ...request,
      reason: kind === 'mode' ? 'mapped mode' : layers.agentReason,
      files: result.files.map((file) => shown(file.path)),
      diagnostics: layers.diagnostics,
    });
  }
  return views;
}
