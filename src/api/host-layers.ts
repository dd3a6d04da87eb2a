import type { Config, Flow } from '../config/types.js';
import type { Diagnostic } from '../diagnostics.js';
import { knownAgents } from './select-request.js';

/**
 * Where, inside a host, a hook event or a tool call comes from: the subagent and the mode the host
 * reports (docs/subagents.md). Every field is optional: the main agent in the default mode has none.
 */
export interface HostContext {
  /** The host's id of one running subagent (`agent_id`); absent in the main agent. */
  readonly agentId?: string | undefined;
  /** The subagent's name (`agent_type`: Claude Code's `Explore`, a custom agent's file name, a Codex role). */
  readonly agentType?: string | undefined;
  /** The host's mode (`permission_mode`: `default`, `plan`, `acceptEdits`, ...). */
  readonly mode?: string | undefined;
}

/** How a host's agent or mode became a layer. */
export type HostLayerReason =
  /** `subagents` in the config names the agent. */
  | 'mapped'
  /** A ctxfiles agent has the subagent's own name. */
  | 'same name'
  /** No agent for this subagent (or the mapping names an unknown one): the global layer. */
  | 'no agent'
  /** The main agent: the hook's `--agent`, if any. */
  | 'main agent';

/** The layers a host context selects: a request for `resolve` / `openSession`, and why. */
export interface HostLayers {
  readonly agent?: string;
  readonly flow?: string;
  readonly step?: string;
  readonly agentReason: HostLayerReason;
  /** `unknown-subagent` and `unknown-mode-step` warnings: a mapping that names nothing. */
  readonly diagnostics: readonly Diagnostic[];
}

/**
 * The layers of a host's subagent and mode (DESIGN §13): a subagent is the agent `subagents` maps
 * it to, else the agent of its own name when there is one, else no agent (the global layer); the
 * main agent is `mainAgent` (`--agent`). A mode selects the flow step `modes` maps it to; a mode not
 * mapped selects none, so leaving a mode returns to the default. A mapping that names an agent, flow
 * or step that does not exist is a `warn` and selects nothing: a typo never fails the host's call.
 * Pure: `flows` is the resolver's.
 */
export function hostLayers(
  config: Config,
  flows: ReadonlyMap<string, Flow>,
  context: Readonly<HostContext>,
  mainAgent?: string,
): HostLayers {
  const diagnostics: Diagnostic[] = [];
  const agent = agentOf(config, flows, context.agentType, mainAgent, diagnostics);
  const step = stepOf(config, flows, context.mode, diagnostics);
  return {
    ...(agent.id === undefined ? {} : { agent: agent.id }),
    ...(step === undefined ? {} : step),
    agentReason: agent.reason,
    diagnostics,
  };
}

function agentOf(
  config: Config,
  flows: ReadonlyMap<string, Flow>,
  agentType: string | undefined,
  mainAgent: string | undefined,
  diagnostics: Diagnostic[],
): { readonly id?: string; readonly reason: HostLayerReason } {
  if (agentType === undefined || agentType === '')
    return mainAgent === undefined ? { reason: 'main agent' } : { id: mainAgent, reason: 'main agent' };
  const known = knownAgents(config, flows);
  // Any name is an agent while none is declared (it has no layer of its own; `${agent}` expands).
  const exists = (id: string) => known.size === 0 || known.has(id);
  const mapped = Object.hasOwn(config.subagents ?? {}, agentType) ? config.subagents?.[agentType] : undefined;
  if (mapped !== undefined) {
    if (exists(mapped)) return { id: mapped, reason: 'mapped' };
    diagnostics.push({
      level: 'warn',
      code: 'unknown-subagent',
      message: `subagents.${agentType}: unknown agent "${mapped}"; the subagent gets no agent layer. Known agents: ${[...known].join(', ')}.`,
    });
    return { reason: 'no agent' };
  }
  return exists(agentType) ? { id: agentType, reason: 'same name' } : { reason: 'no agent' };
}

function stepOf(
  config: Config,
  flows: ReadonlyMap<string, Flow>,
  mode: string | undefined,
  diagnostics: Diagnostic[],
): { readonly flow: string; readonly step: string } | undefined {
  if (mode === undefined || !Object.hasOwn(config.modes ?? {}, mode)) return undefined;
  const target = config.modes?.[mode];
  if (target === undefined) return undefined;
  const flow = flows.get(target.flow);
  if (flow?.steps.some((step) => step.id === target.step) === true) return { ...target };
  diagnostics.push({
    level: 'warn',
    code: 'unknown-mode-step',
    message:
      flow === undefined
        ? `modes.${mode}: unknown flow "${target.flow}"; the mode selects no step. Known flows: ${[...flows.keys()].join(', ')}.`
        : `modes.${mode}: unknown step "${target.step}" in flow "${target.flow}"; the mode selects no step.`,
  });
  return undefined;
}
