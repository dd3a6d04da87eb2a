import type { Config, Flow, Format } from '../config/types.js';
import { stepAgentPrefix } from '../config/flow-locations.js';
import { CtxfilesError } from '../errors.js';
import type { Selection } from '../resolve/plan-resolution.js';

/** What to resolve for. All optional: no agent and no flow resolve the global layer. */
export interface ResolveRequest {
  readonly agent?: string | undefined;
  readonly flow?: string | undefined;
  readonly step?: string | undefined;
  /** Render in this format instead of the config's `format`. */
  readonly format?: Format | undefined;
  /**
   * `false` skips the discovery walk: `manifest` is empty and `nested` lists nothing. For callers
   * that only need the block (the plain `ctxfiles resolve`). Default true.
   */
  readonly manifest?: boolean | undefined;
  /**
   * Paths in play (relative to the work dir, or absolute): `glob` rules matching one of them, and
   * `always` rules of nested owners holding one, join the `rules` layer (docs/rules.md).
   */
  readonly paths?: readonly string[] | undefined;
  /** Rule names (or paths relative to the work dir): those rules join the `rules` layer, whatever their kind. */
  readonly rules?: readonly string[] | undefined;
}

/**
 * Checks a request against the config and flows. The agent defaults to the step's `agent`.
 * Known agents are the config's `agents` plus every agent a flow step names; when there are none,
 * any agent is accepted (it has no layer of its own).
 * @throws CtxfilesError `unknown-agent`, `unknown-flow`, `unknown-step`, or `usage` when a flow
 * is given without a step (or a step without a flow).
 */
export function selectRequest(
  config: Config,
  flows: ReadonlyMap<string, Flow>,
  request: ResolveRequest,
): Selection {
  let flow: Flow | undefined;
  let step: Selection['step'];
  if (request.flow !== undefined || request.step !== undefined) {
    if (request.flow === undefined)
      throw new CtxfilesError(
        'usage',
        `a step needs a flow: add --flow (known flows: ${list(flows.keys())})`,
      );
    flow = flows.get(request.flow);
    if (flow === undefined)
      throw new CtxfilesError(
        'unknown-flow',
        `unknown flow "${request.flow}". Known flows: ${list(flows.keys())}.`,
      );
    const stepIds = flow.steps.map((candidate) => candidate.id);
    if (request.step === undefined)
      throw new CtxfilesError('usage', `flow "${flow.id}" needs a step: one of ${list(stepIds)}`);
    step = flow.steps.find((candidate) => candidate.id === request.step);
    if (step === undefined)
      throw new CtxfilesError(
        'unknown-step',
        `unknown step "${request.step}" in flow "${flow.id}". Known steps: ${list(stepIds)}.`,
      );
  }
  const agent = request.agent ?? step?.agent;
  // With no agent declared anywhere (a project without a ctxfiles config), any agent name is
  // accepted and gets the global layer: `resolve --agent coder` works in every repository. Once
  // agents are declared, an unknown name is a typo and an error.
  const known = knownAgents(config, flows);
  if (agent !== undefined && known.size > 0 && !known.has(agent)) {
    const where = request.agent === undefined && step !== undefined ? stepAgentPrefix(step) : '';
    throw new CtxfilesError(
      'unknown-agent',
      `${where}unknown agent "${agent}". Known agents: ${list(known)}.`,
    );
  }
  return { agent, flow, step };
}

/**
 * The agents a request may name: the config's `agents` when it declares any (then a step naming
 * another agent is a typo: `codr` for `coder`); otherwise every agent a flow step names.
 */
export function knownAgents(config: Config, flows: ReadonlyMap<string, Flow>): Set<string> {
  const known = new Set(Object.keys(config.agents));
  if (known.size > 0) return known;
  for (const flow of flows.values()) {
    for (const step of flow.steps) if (step.agent !== undefined) known.add(step.agent);
  }
  return known;
}

/**
 * Steps that name an agent the config does not declare, when it declares any: one located problem
 * each (`ctxfiles validate` fails on them).
 */
export function undeclaredStepAgents(config: Config, flows: ReadonlyMap<string, Flow>): string[] {
  const declared = Object.keys(config.agents);
  if (declared.length === 0) return [];
  const problems: string[] = [];
  for (const flow of flows.values())
    for (const step of flow.steps)
      if (step.agent !== undefined && !declared.includes(step.agent))
        problems.push(
          `${stepAgentPrefix(step)}unknown agent "${step.agent}" in flow "${flow.id}", step "${step.id}". Known agents: ${list(declared)}.`,
        );
  return problems;
}

function list(values: Iterable<string>): string {
  const sorted = [...values].sort();
  return sorted.length === 0 ? '(none)' : sorted.join(', ');
}
