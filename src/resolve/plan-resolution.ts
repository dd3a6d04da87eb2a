import type { Config, Flow, FlowStep } from '../config/types.js';
import type { Diagnostic } from '../errors.js';
import { expandTokens } from './expand-tokens.js';
import {
  declaredLayers,
  LAYER_ORDER,
  selectLayers,
  type LayerName,
  type SelectedLayer,
} from './precedence.js';

/** One entry of a layer after token expansion. */
export interface PlannedEntry {
  readonly entry: string;
  readonly expanded: string;
}

/** One contributing layer after token expansion. */
export interface PlannedLayer {
  readonly name: LayerName;
  readonly mode: string | undefined;
  readonly entries: readonly PlannedEntry[];
}

/** What will be probed on disk, decided without touching it. */
export interface ResolutionPlan {
  readonly layers: readonly PlannedLayer[];
  /** Declared layers that a `replace` above them keeps out, with the layer that replaced them. */
  readonly replaced: ReadonlyArray<PlannedLayer & { readonly by: LayerName }>;
  readonly diagnostics: readonly Diagnostic[];
}

/** A normalized request: the agent, flow and step to resolve for. */
export interface Selection {
  readonly agent: string | undefined;
  readonly flow: Flow | undefined;
  readonly step: FlowStep | undefined;
}

/**
 * Picks the contributing layers and expands their tokens. Entries whose tokens cannot be expanded
 * are dropped here with a `debug` diagnostic, so they never reach the filesystem.
 */
export function planResolution(
  config: Config,
  selection: Selection,
  env: Readonly<Record<string, string | undefined>>,
  onUnknownMode: (mode: string, layer: LayerName) => Diagnostic | undefined,
): ResolutionPlan {
  const diagnostics: Diagnostic[] = [];
  const agentLayer = selection.agent === undefined ? undefined : config.agents[selection.agent]?.context;
  const layers = selectLayers(
    { global: config.contextPaths, agent: agentLayer, step: selection.step?.context },
    (mode, layer) => {
      const diagnostic = onUnknownMode(mode, layer);
      if (diagnostic !== undefined) diagnostics.push(diagnostic);
    },
  );
  const values = { agent: selection.agent, flowId: selection.flow?.id, flowStep: selection.step?.id, env };
  const plan = (layer: SelectedLayer, report: boolean): PlannedLayer => {
    const entries: PlannedEntry[] = [];
    for (const entry of layer.entries) {
      const expansion = expandTokens(entry, values);
      if (expansion.ok) {
        entries.push({ entry, expanded: expansion.value });
        continue;
      }
      if (!report) continue;
      const why =
        expansion.reason === 'unknown-token'
          ? `it holds an unknown token ${expansion.token}`
          : emptyTokenReason(expansion.token);
      diagnostics.push({
        level: 'debug',
        code: expansion.reason,
        message: `${JSON.stringify(entry)} is skipped: ${why}`,
        layer: layer.name,
        entry,
      });
    }
    return { name: layer.name, mode: layer.mode, entries };
  };
  const planned = layers.map((layer) => plan(layer, true));
  // The layers below the lowest contributing one were kept out by its `replace`.
  const lowest = layers[0];
  const replaced = declaredLayers({
    global: config.contextPaths,
    agent: agentLayer,
    step: selection.step?.context,
  })
    .filter(
      (layer) => lowest !== undefined && LAYER_ORDER.indexOf(layer.name) < LAYER_ORDER.indexOf(lowest.name),
    )
    .map((layer) => ({ ...plan(layer, false), by: lowest?.name as LayerName }));
  return { layers: planned, replaced, diagnostics };
}

/** Why a known token gave the empty string, in the user's terms (`${env.NOPE}` → the variable). */
function emptyTokenReason(token: string): string {
  const variable = /^\$\{env\.(.+)\}$/.exec(token)?.[1];
  if (variable !== undefined) return `the environment variable ${variable} is not set (or is empty)`;
  if (token === '${agent}') return `${token} is empty: no agent is selected (--agent)`;
  return `${token} is empty: no flow step is selected (--flow and --step)`;
}
