import { createResolver, type Resolver } from '../api/create-resolver.js';
import { hostViews, type HostView } from '../api/host-views.js';
import type { HostRegistry } from '../registry/registry.js';

/** Which hosts deliver a subagent's and a mode's layers by their hook, and which only through MCP. */
export function hostDelivery(hosts: HostRegistry): {
  readonly hook: readonly string[];
  readonly mcp: readonly string[];
} {
  const hook = hosts.hosts.filter((host) => host.hook?.events.subagentStart !== undefined);
  return {
    hook: hook.map((host) => host.id),
    mcp: hosts.hosts.filter((host) => !hook.includes(host)).map((host) => host.id),
  };
}

/**
 * The lines `explain --hosts` and `doctor` print (docs/subagents.md): one per context (the main
 * agent, each subagent name the config knows, each mapped mode) with its files, the warnings of a
 * mapping that names nothing, then which hosts deliver them how.
 */
export function formatHostAgents(views: readonly HostView[], hosts: HostRegistry): string[] {
  const title = (id: string) => hosts.host(id)?.title ?? id;
  const delivery = hostDelivery(hosts);
  const lines = views.map((view) => `${describe(view)}: ${view.files.join(', ') || '(no files)'}`);
  for (const view of views)
    for (const diagnostic of view.diagnostics) lines.push(`  warning: ${diagnostic.message}`);
  lines.push(
    '',
    `By the hook (SubagentStart, UserPromptSubmit): ${delivery.hook.map(title).join(', ')}`,
    `By the MCP tools' agent, flow and step arguments: ${delivery.mcp.map(title).join(', ')}`,
  );
  return lines;
}

/**
 * Doctor's section on the hosts' agents and modes: empty when the project's config declares no
 * agent, no `subagents` and no `modes` (every context would see the same).
 */
export async function hostAgentsSection(
  options: Readonly<{ workDir: string; env: Readonly<Record<string, string | undefined>>; homeDir: string }>,
  hosts: HostRegistry,
): Promise<string> {
  let resolver: Resolver;
  try {
    const { workDir, env, homeDir } = options;
    resolver = await createResolver({ workDir, env, homeDir }, hosts);
  } catch {
    // A broken config is reported by the rest of doctor.
    return '';
  }
  const { config } = resolver;
  if (Object.keys(config.agents).length === 0 && config.subagents === undefined && config.modes === undefined)
    return '';
  const lines = formatHostAgents(await hostViews(resolver), hosts);
  return `\nHosts' agents and modes (docs/subagents.md)\n${lines.map((line) => (line === '' ? '' : `  ${line}`)).join('\n')}\n`;
}

function describe(view: HostView): string {
  const step = view.flow === undefined ? '' : `flow ${view.flow}, step ${view.step}`;
  const agent = view.agent === undefined ? '' : `agent ${view.agent}`;
  const layers = [agent, step].filter((part) => part !== '').join(', ') || 'global layer';
  if (view.kind === 'main') return `main agent (${layers})`;
  if (view.kind === 'mode') return `mode ${view.name} → ${layers}`;
  return `subagent ${view.name} → ${layers} (${view.reason})`;
}
