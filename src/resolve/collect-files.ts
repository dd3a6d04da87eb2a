import type { Diagnostic } from '../errors.js';
import type { FileSystem } from '../fs/file-system.js';
import { expandEntry, type Candidate } from './expand-entries.js';
import type { ResolutionPlan } from './plan-resolution.js';
import { readContextFile, type ContextFile } from './read-context-file.js';

/**
 * Expands a plan's entries to files, orders them (layer order, then absolute path by code units
 * within a layer), drops later occurrences of the same file (device and inode), and reads them.
 */
export function collectFiles(fs: FileSystem, workDir: string, plan: ResolutionPlan, diagnostics: Diagnostic[]): ContextFile[] {
  const ordered: Candidate[] = [];
  for (const layer of plan.layers) {
    const layerFiles: Candidate[] = [];
    for (const { entry, expanded } of layer.entries) {
      layerFiles.push(...expandEntry({ fs, workDir, diagnostics }, layer.name, entry, expanded));
    }
    layerFiles.sort((a, b) => compareCodeUnits(a.path, b.path));
    ordered.push(...layerFiles);
  }
  const kept = dedupe(ordered, diagnostics);
  const files: ContextFile[] = [];
  for (const candidate of kept) {
    const file = readContextFile(fs, candidate, diagnostics);
    if (file !== null) files.push(file);
  }
  return files;
}

/** Keeps the first occurrence of each file identity. */
export function dedupe(candidates: readonly Candidate[], diagnostics: Diagnostic[]): Candidate[] {
  const seen = new Map<string, Candidate>();
  const kept: Candidate[] = [];
  for (const candidate of candidates) {
    const first = seen.get(candidate.identity);
    if (first !== undefined) {
      if (first.path !== candidate.path || first.layer !== candidate.layer || first.entry !== candidate.entry) {
        diagnostics.push({
          level: 'debug',
          code: 'deduped',
          message: `${candidate.path} is the same file as ${first.path} (${first.layer} layer) and is not repeated`,
          layer: candidate.layer,
          entry: candidate.entry,
          path: candidate.path,
        });
      }
      continue;
    }
    seen.set(candidate.identity, candidate);
    kept.push(candidate);
  }
  return kept;
}

/** Plain code-unit order, never locale. */
export function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
