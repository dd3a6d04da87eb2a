import type { Resolver } from '../api/create-resolver.js';
import { hostViews } from '../api/host-views.js';
import { formatHostAgents, hostDelivery } from '../doctor/host-agents.js';
import { HOST_REGISTRY as hosts } from '../hosts/index.js';
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
  if (json)
    io.stdout.write(`${JSON.stringify({ contexts: views, delivery: hostDelivery(hosts) }, null, 2)}\n`);
  else
    io.stdout.write(
      `${["Hosts' agents and modes here (docs/subagents.md)", '', ...formatHostAgents(views, hosts)].join('\n')}\n`,
    );
  return 0;
}
