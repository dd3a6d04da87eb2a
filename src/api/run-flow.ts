import type { SessionToolConfig } from '../config/types.js';
import { CtxfilesError } from '../errors.js';
import { contextPrompt } from '../prompt/context-prompt.js';
import type { DisclosureState } from '../session/disclosure-state.js';
import type { Resolver, ResolveResult } from './create-resolver.js';
import type { Session } from './open-session.js';

/** One step of {@link runFlow}, as its `run` callback gets it. */
export interface FlowStepRun {
  /** The step's id, and its place in the run (0 first). */
  readonly step: string;
  readonly index: number;
  /** The step's agent, as the resolution names it (`null` when it names none). */
  readonly agent: string | null;
  /** The system prompt for the step: `base`, the step's block and its manifest. */
  readonly prompt: string;
  readonly result: ResolveResult;
  /** The step's session: report its tool calls here (or through an adapter). */
  readonly session: Session;
}

/** Options of {@link runFlow}. */
export interface RunFlowOptions<T> {
  readonly flow: string;
  /** The steps to run, in this order. Default: every step of the flow, in its order. */
  readonly steps?: readonly string[];
  /** The base text of every step's prompt. */
  readonly base?: string;
  /** A state from an earlier part of the same history (`runFlow`'s own `state`), to go on from. */
  readonly state?: unknown;
  /** Tool mappings for every step's session (`openSession({ tools })`). */
  readonly tools?: Readonly<Record<string, SessionToolConfig>>;
  /** Runs the agent of one step; awaited before the next step starts. */
  readonly run: (step: FlowStepRun) => T | Promise<T>;
}

/**
 * Runs the steps of a flow in order, with one shared history (docs/embedding.md, "Flows across
 * steps"). Each step gets its own prompt, resolved for its agent and step, and its own session;
 * the session state carries on from step to step, because the history the model sees carries on:
 * a nested file injected in step 1 is still in the history in step 2 and is not injected again.
 * Each step's prompt files are tracked from the text that prompt shows (`newPrompt`).
 * Resolves to each step's value and the state after the last step.
 * @throws CtxfilesError `unknown-flow`, `unknown-step` (as `resolve`), or what `run` throws.
 */
export async function runFlow<T>(
  resolver: Resolver,
  options: Readonly<RunFlowOptions<T>>,
): Promise<{ readonly results: T[]; readonly state: DisclosureState | undefined }> {
  const flow = (await resolver.flows()).get(options.flow);
  if (flow === undefined)
    throw new CtxfilesError('unknown-flow', `runFlow: no flow is named ${JSON.stringify(options.flow)}`);
  const steps = options.steps ?? flow.steps.map((step) => step.id);
  let state: unknown = options.state;
  const results: T[] = [];
  for (const [index, step] of steps.entries()) {
    const request = { flow: options.flow, step };
    const result = await resolver.resolve(request);
    const session = await resolver.openSession({
      ...request,
      ...(options.tools === undefined ? {} : { tools: options.tools }),
      ...(state === undefined ? {} : { state, newPrompt: true }),
    });
    const prompt = contextPrompt(result, options.base);
    results.push(await options.run({ step, index, agent: result.agent, prompt, result, session }));
    state = session.state();
  }
  return { results, state: state as DisclosureState | undefined };
}
