import type { FlowStep } from './types.js';

/** Where a flow step's `agent` is written: file, line and column (1-based), for error messages. */
export interface StepPlace {
  readonly file: string;
  readonly line?: number | undefined;
  readonly column?: number | undefined;
  /** The key path in that file, e.g. `steps[1].agent`. */
  readonly keyPath: string;
}

// Kept beside the frozen steps rather than in them: a step's keys are the embedder's (they pass
// through), and this module loads without the flow loader (yaml, zod).
const places = new WeakMap<FlowStep, StepPlace>();

/** Records where `step` names its agent (the flow loader calls it). */
export function recordStepPlace(step: FlowStep, place: StepPlace): void {
  places.set(step, place);
}

/** `file:line:col: keyPath: ` for a step's agent, or `''` when the step was not loaded from a file. */
export function stepAgentPrefix(step: FlowStep): string {
  const place = places.get(step);
  if (place === undefined) return '';
  const at = place.line === undefined ? place.file : `${place.file}:${place.line}:${place.column ?? 1}`;
  return `${at}: ${place.keyPath}: `;
}
