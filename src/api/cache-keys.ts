import type { Config, Format } from '../config/types.js';
import type { PlannedLayer } from '../resolve/plan-resolution.js';

/**
 * Every key of a resolver's memo tables (`createCaches` in create-resolver.ts), built in this one
 * module: what makes two requests share an entry is read here. Parts are joined with NUL, which no
 * path, name or format holds.
 */

/** What a request asks of the rules: its paths in play and rule names. */
interface RulesAsked {
  readonly paths?: readonly string[] | undefined;
  readonly rules?: readonly string[] | undefined;
}

/** The request table: one resolution per agent, flow step, format, manifest choice and rules asked. */
export function requestKey(
  config: Config,
  request: Readonly<
    RulesAsked & { agent?: string; flow?: string; step?: string; format?: Format; manifest?: boolean }
  >,
): string {
  const format = request.format ?? config.format;
  const manifest = request.manifest === false ? 0 : 1;
  return `${request.agent ?? ''}\0${request.flow ?? ''}\0${request.step ?? ''}\0${format}\0${manifest}${rulesKey(request)}`;
}

/** The part of a key a rules request adds; empty without paths and names. */
export function rulesKey(request: Readonly<RulesAsked>): string {
  const paths = request.paths ?? [];
  const names = request.rules ?? [];
  if (paths.length === 0 && names.length === 0) return '';
  return `\0p${JSON.stringify(paths)}\0r${JSON.stringify(names)}`;
}

/** A plan: the work dir and each layer's name, mode and expanded entries. */
export function planKey(workDir: string, layers: readonly PlannedLayer[]): string {
  return JSON.stringify([
    workDir,
    layers.map((layer) => [layer.name, layer.mode ?? null, layer.entries.map((entry) => entry.expanded)]),
  ]);
}

/**
 * One resolution's files: its plan, and with rules on the rules asked and, when some rule is
 * scoped to agents, the agent.
 */
export function resolutionKey(
  plan: string,
  request: Readonly<RulesAsked>,
  rules: { readonly agentScoped: boolean } | null,
  agent: string | undefined,
): string {
  if (rules === null) return plan;
  return plan + rulesKey(request) + (rules.agentScoped ? `\0a${agent ?? ''}` : '');
}

/**
 * The collect table: a resolution, marked when it read only the work dir's and the chain's rule
 * folders (`local`) and when the nested files are inlined.
 */
export function collectKey(resolution: string, local: boolean, inline: boolean): string {
  return resolution + (local ? '\0local' : '') + (inline ? '\0inline' : '');
}

/** The render table: a collected resolution in one format. */
export function renderKey(format: Format, collected: string): string {
  return `${format}\0${collected}`;
}

/** The disclosure table: a resolution, and whether the nested walk ran for it. */
export function disclosureKey(resolution: string, walked: boolean): string {
  return walked ? resolution : `${resolution}\0nowalk`;
}

/** The walk table: the sorted names walked for, and the nested files of them the block holds. */
export function walkKey(names: ReadonlySet<string>, held: ReadonlySet<string>): string {
  const sorted = [...names].sort().join('\0');
  return held.size === 0 ? sorted : `${sorted}\0\0${[...held].sort().join('\0')}`;
}
