import path from 'node:path';
import { compareCodeUnits } from '../discover/compare-code-units.js';
import type { Diagnostic } from '../errors.js';
import type { FileSystem } from '../fs/file-system.js';
import { expandEntry, type Candidate } from './expand-entries.js';
import type { ResolutionPlan } from './plan-resolution.js';
import type { SourceOptions } from './source-options.js';

// The contextPaths layers' files as candidates, each layer's entries expanded against the context
// root (src/resolve/expand-entries.ts), and what a `replace` layer kept out of the layers below it.

/**
 * One contextPaths layer's files, by absolute path in code-unit order; an entry naming an enabled
 * rule source's folder is left to the rules engine (an `info`).
 */
export function layerCandidates(
  fs: FileSystem,
  layer: ResolutionPlan['layers'][number],
  layerRoot: string,
  options: SourceOptions,
  diagnostics: Diagnostic[],
): Candidate[] {
  const { rules } = options;
  const symlinks = options.instructions.symlinks ?? 'inside';
  const layerFiles: Candidate[] = [];
  for (const { entry, expanded } of layer.entries) {
    if (rules !== undefined && rules.folders.has(path.resolve(layerRoot, expanded))) {
      diagnostics.push({
        level: 'info',
        code: 'rule-folder-entry',
        message: `${entry} is a rule folder: the rules engine reads it (docs/rules.md), so it is not inlined as files`,
        layer: layer.name,
        entry,
      });
      continue;
    }
    layerFiles.push(
      ...expandEntry({ fs, workDir: layerRoot, diagnostics, symlinks }, layer.name, entry, expanded),
    );
  }
  return layerFiles.sort((a, b) => compareCodeUnits(a.path, b.path));
}

/**
 * A `replace` layer silently keeps out the files of the layers below it; say which ones (an
 * `info` diagnostic `layer-replaced` per replaced layer that would have contributed files).
 */
export function reportReplaced(
  fs: FileSystem,
  workDir: string,
  plan: ResolutionPlan,
  kept: readonly Candidate[],
  diagnostics: Diagnostic[],
): void {
  const included = new Set(kept.map((candidate) => candidate.identity));
  for (const layer of plan.replaced) {
    const scratch: Diagnostic[] = [];
    const left = layer.entries
      .flatMap(({ entry, expanded }) =>
        expandEntry({ fs, workDir, diagnostics: scratch }, layer.name, entry, expanded),
      )
      .filter((candidate) => !included.has(candidate.identity))
      .map((candidate) => path.relative(workDir, candidate.path))
      .sort(compareCodeUnits);
    if (left.length === 0) continue;
    diagnostics.push({
      level: 'info',
      code: 'layer-replaced',
      message: `the ${layer.by} layer replaces the ${layer.name} layer: ${[...new Set(left)].join(', ')} ${left.length === 1 ? 'is' : 'are'} left out`,
      layer: layer.name,
    });
  }
}
