import type { Resolver } from '../api/create-resolver.js';
import { hostViews, type HostView } from '../api/host-views.js';
import { HOSTS } from '../hosts/index.js';
import type { CliIo } from './io.js';

/**
 * `ctxfiles explain --hosts`: what each host's agents and modes would see here (docs/subagents.md):
 * the main agent, each subagent name the config knows, each mapped mode, with the files each gets,
 * and which hosts deliver them through their hook and which through the MCP tools' arguments.
 */
export async function explainHostsCommand(
  resolver: Resolver,
  mainAgent: string | undefined,
  json: boolean,
  io: CliIo,
): Promise<number> {
  const views = await hostViews(resolver, { mainAgent });
  const hooked = HOSTS.filter((host) => host.hook?.events.subagentStart !== undefined);
  const others = HOSTS.filter((host) => !hooked.includes(host));
  const delivery = {
    hook: hooked.map((host) => host.id),
    mcp: others.map((host) => host.id),
  };
  if (json) {
    io.stdout.write(`${JSON.stringify({ contexts: views, delivery }, null, 2)}\n`);
    return 0;
  }
  const lines = ["Hosts' agents and modes here (docs/subagents.md)", ''];
  for (const view of views) lines.push(`${describe(view)}: ${view.files.join(', ') || '(no files)'}`);
  for (const view of views)
    for (const diagnostic of view.diagnostics) lines.push(`  warning: ${diagnostic.message}`);
  lines.push(
    '',
    `By the hook (SubagentStart, UserPromptSubmit): ${hooked.map((host) => host.title).join(', ')}`,
    `By the MCP tools' agent, flow and step arguments: ${others.map((host) => host.title).join(', ')}`,
  );
  io.stdout.write(`${lines.join('\n')}\n`);
  return 0;
}

function describe(view: HostView): string {
  const step = view.flow === undefined ? '' : `flow ${view.flow}, step ${view.step}`;
  const agent = view.agent === undefined ? '' : `agent ${view.agent}`;
  const layers = [agent, step].filter((part) => part !== '').join(', ') || 'global layer';
  if (view.kind === 'main') return `main agent (${layers})`;
  if (view.kind === 'mode') return `mode ${view.name} → ${layers}`;
  return `subagent ${view.name} → ${layers} (${view.reason})`;
}
