import type { ContextLayer } from '../config/types.js';

/** Layers in output order, lowest precedence first (docs/precedence.md). Evaluation runs the other way. */
export const LAYER_ORDER = Object.freeze(['global', 'agent', 'step'] as const);

/** The name of a context layer. */
export type LayerName = (typeof LAYER_ORDER)[number];

/** The default mode of a declared layer. */
export const DEFAULT_MODE = 'replace';

/** A layer that contributes entries to the resolution. */
export interface SelectedLayer {
  readonly name: LayerName;
  readonly entries: readonly string[];
  /** The mode as written (`undefined` for the global layer, which has none). */
  readonly mode: string | undefined;
}

/** The raw layers of one request. */
export interface LayerInputs {
  readonly global: readonly string[];
  readonly agent?: ContextLayer | undefined;
  readonly step?: ContextLayer | undefined;
}

/**
 * Picks the layers that contribute, in output order (global → agent → step). Evaluation starts at
 * the highest declared layer (one that sets `paths`); its mode decides whether the next declared
 * layer below contributes, and that layer's own mode governs further down. `replace` stops the
 * descent; `append` and any unknown mode continue (unknown modes are reported to `onUnknownMode`).
 */
export function selectLayers(
  inputs: LayerInputs,
  onUnknownMode: (mode: string, layer: LayerName) => void,
): SelectedLayer[] {
  const selected: SelectedLayer[] = [];
  for (const layer of declaredLayers(inputs)) {
    selected.unshift(layer);
    if (layer.name === 'global') break;
    const mode = layer.mode ?? DEFAULT_MODE;
    if (mode === 'replace') break;
    if (mode !== 'append') onUnknownMode(mode, layer.name);
  }
  return selected;
}

/** The declared layers, highest precedence first; the global layer is always declared. */
export function declaredLayers(inputs: LayerInputs): SelectedLayer[] {
  const declared: SelectedLayer[] = [];
  if (inputs.step?.paths !== undefined)
    declared.push({ name: 'step', entries: inputs.step.paths, mode: inputs.step.mode });
  if (inputs.agent?.paths !== undefined)
    declared.push({ name: 'agent', entries: inputs.agent.paths, mode: inputs.agent.mode });
  declared.push({ name: 'global', entries: inputs.global, mode: undefined });
  return declared;
}
