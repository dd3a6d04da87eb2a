import fs from 'node:fs';
import type { Resolver, ResolveResult } from '../api/create-resolver.js';
import { hostLayers, type HostContext } from '../api/host-layers.js';
import type { ResolveRequest } from '../api/select-request.js';
import type { Flow } from '../config/types.js';
import type { StateFile } from './state-store.js';

/**
 * The id a context's once-only state is kept under: the session, and the subagent inside it. A
 * subagent has a context of its own, but Claude Code and Qwen Code put the main agent's
 * `session_id` on its events (with its `agent_id`), so the session alone would share one state
 * between a subagent and its parent (docs/subagents.md).
 */
export function contextKey(sessionId: string, context: Readonly<HostContext>): string {
  return context.agentId === undefined ? sessionId : `${sessionId}\0agent\0${context.agentId}`;
}

/**
 * The event's context, with the subagent's name remembered from its start when the event does not
 * carry it (Qwen Code's events inside a subagent carry `agent_id` only).
 */
export function completeContext(state: StateFile, context: Readonly<HostContext>): HostContext {
  if (context.agentId === undefined || context.agentType !== undefined) return context;
  try {
    const agentType = fs.readFileSync(typeFile(state), 'utf8');
    return agentType === '' ? context : { ...context, agentType };
  } catch {
    return context;
  }
}

/** Remembers a subagent's name beside its state (see {@link completeContext}). */
export function rememberType(state: StateFile, context: Readonly<HostContext>): void {
  if (context.agentId === undefined || context.agentType === undefined) return;
  fs.writeFileSync(typeFile(state), context.agentType, { mode: 0o600 });
}

const typeFile = (state: StateFile) => `${state.file}.type`;

/**
 * The request a hook resolves for: the layers of the event's subagent and mode (`subagents` and
 * `modes` of the config, src/api/host-layers.ts), the main agent being `--agent`. A mapping that
 * names nothing adds a warning and selects nothing.
 */
export async function hookRequest(
  resolver: Resolver,
  requestAgent: string | undefined,
  context: Readonly<HostContext>,
  warnings: string[],
): Promise<ResolveRequest> {
  const mapped =
    context.agentType !== undefined || (context.mode !== undefined && resolver.config.modes !== undefined);
  if (!mapped) return requestAgent === undefined ? {} : { agent: requestAgent };
  const layers = hostLayers(resolver.config, await flowsOrNone(resolver, warnings), context, requestAgent);
  for (const diagnostic of layers.diagnostics) warnings.push(`${diagnostic.message} [${diagnostic.code}]`);
  const { agent, flow, step } = layers;
  return { ...(agent === undefined ? {} : { agent }), ...(flow === undefined ? {} : { flow, step }) };
}

/** The resolver's flows; a broken flow file is a warning and no flows, never a failed hook. */
async function flowsOrNone(resolver: Resolver, warnings: string[]): Promise<ReadonlyMap<string, Flow>> {
  try {
    return await resolver.flows();
  } catch (error) {
    warnings.push(
      `the flows cannot be read (${error instanceof Error ? error.message.split('\n')[0] : String(error)})`,
    );
    return new Map();
  }
}

/** A signature line of the context's layers for the quick check: a new subagent or mode reloads. */
export function contextSignature(context: Readonly<HostContext>): string[] {
  const lines: string[] = [];
  if (context.agentType !== undefined) lines.push(`subagent ${context.agentType}`);
  if (context.mode !== undefined) lines.push(`mode ${context.mode}`);
  return lines;
}

/** The key of a request's flow step, or `undefined` without one. */
export function stepKey(request: Readonly<ResolveRequest>): string | undefined {
  return request.flow === undefined || request.step === undefined
    ? undefined
    : `${request.flow}\0${request.step}`;
}

/** The flow steps whose files this context was given (one key a line, beside the state). */
export function deliveredSteps(state: StateFile): Set<string> {
  try {
    return new Set(
      fs
        .readFileSync(stepsFile(state), 'utf8')
        .split('\n')
        .filter((line) => line !== ''),
    );
  } catch {
    return new Set();
  }
}

/** Records that this context was given the files of step `key`. */
export function markStep(state: StateFile, key: string): void {
  const steps = deliveredSteps(state);
  if (steps.has(key)) return;
  steps.add(key);
  fs.writeFileSync(stepsFile(state), [...steps].map((line) => `${line}\n`).join(''), { mode: 0o600 });
}

/** Forgets the steps given (after `/clear` or a compaction the model no longer sees them). */
export function forgetSteps(state: StateFile): void {
  fs.rmSync(stepsFile(state), { force: true });
}

const stepsFile = (state: StateFile) => `${state.file}.steps`;

/** The files a step layer brings (those of the `step` layer of the resolution). */
export function stepFiles(result: ResolveResult): ResolveResult {
  return { ...result, files: result.files.filter((file) => file.layer === 'step') };
}
