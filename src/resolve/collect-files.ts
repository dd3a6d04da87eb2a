import path from 'node:path';
import type { InstructionsConfig } from '../config/types.js';
import { walkChain } from '../discover/chain-walk.js';
import { compareCodeUnits } from '../discover/compare-code-units.js';
import type { Diagnostic } from '../errors.js';
import { errorCode, isAbsent, type FileSystem } from '../fs/file-system.js';
import { expandEntry, identityOf, type Candidate } from './expand-entries.js';
import type { ResolutionPlan } from './plan-resolution.js';
import { readContextFile, type ContextFile } from './read-context-file.js';

/** The sources besides the contextPaths layers. */
export interface SourceOptions {
  readonly instructions: InstructionsConfig;
  /** The user's home directory, for `~`. */
  readonly homeDir: string;
}

/**
 * Builds the one ordered list of context files (docs/chains.md, "One ordered list"): the user file, then the
 * chain (ancestors first), then the contextPaths layers (global, agent, step; by absolute path in code-unit
 * order within a layer), then the extra files. A file appears once, at its first occurrence (device and
 * inode). Every fault is a diagnostic.
 */
export function collectFiles(
  fs: FileSystem,
  workDir: string,
  plan: ResolutionPlan,
  options: SourceOptions,
  diagnostics: Diagnostic[],
): ContextFile[] {
  const { instructions, homeDir } = options;
  const ordered: Candidate[] = [];
  if (instructions.userFile !== null)
    ordered.push(
      ...userCandidate(
        fs,
        expandHome(instructions.userFile, homeDir),
        instructions.userFile,
        'user',
        diagnostics,
      ),
    );
  if (instructions.walk !== 'off') {
    const chain = walkChain(fs, {
      workDir,
      walk: instructions.walk,
      projectRootMarkers: instructions.projectRootMarkers,
      candidates: instructions.candidates,
    });
    diagnostics.push(...chain.diagnostics);
    for (const file of chain.files) {
      ordered.push({
        path: file.path,
        realPath: file.path,
        source: 'chain',
        layer: 'chain',
        entry: file.candidate,
        depth: file.depth,
        identity: identityOf(file.info),
        info: file.info,
      });
    }
  }
  for (const layer of plan.layers) {
    const layerFiles: Candidate[] = [];
    for (const { entry, expanded } of layer.entries) {
      layerFiles.push(...expandEntry({ fs, workDir, diagnostics }, layer.name, entry, expanded));
    }
    layerFiles.sort((a, b) => compareCodeUnits(a.path, b.path));
    ordered.push(...layerFiles);
  }
  for (const extra of instructions.extraFiles)
    ordered.push(...userCandidate(fs, expandHome(extra, homeDir), extra, 'extra', diagnostics));

  const kept = dedupe(ordered, diagnostics);
  reportReplaced(fs, workDir, plan, kept, diagnostics);
  const files: ContextFile[] = [];
  for (const candidate of kept) {
    const file = readContextFile(fs, candidate, diagnostics);
    if (file !== null) files.push(file);
  }
  return files;
}

/**
 * A `replace` layer silently keeps out the files of the layers below it; say which ones (an
 * `info` diagnostic `layer-replaced` per replaced layer that would have contributed files).
 */
function reportReplaced(
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

/** Expands a leading `~`, `~/` or `~\` against the home directory. */
export function expandHome(value: string, homeDir: string): string {
  if (value === '~') return homeDir;
  if (value.startsWith('~/') || value.startsWith('~\\')) return path.join(homeDir, value.slice(2));
  return path.resolve(value);
}

/** User and extra files belong to the person running the agent: symlinks are followed. */
function userCandidate(
  fs: FileSystem,
  file: string,
  entry: string,
  kind: 'user' | 'extra',
  diagnostics: Diagnostic[],
): Candidate[] {
  const where = { layer: kind, entry, path: file };
  try {
    const realPath = fs.realpath(file);
    const info = fs.stat(realPath);
    if (info.kind !== 'file') {
      diagnostics.push({
        level: 'warn',
        code: 'not-regular',
        message: `${file} is a ${info.kind}, not a regular file`,
        ...where,
      });
      return [];
    }
    return [
      {
        path: file,
        realPath,
        source: kind,
        layer: kind,
        entry,
        depth: null,
        identity: identityOf(info),
        info,
      },
    ];
  } catch (error) {
    if (isAbsent(error))
      diagnostics.push({ level: 'debug', code: 'missing', message: `${file} does not exist`, ...where });
    else
      diagnostics.push({
        level: 'warn',
        code: 'unreadable',
        message: `${file} cannot be read (${errorCode(error)})`,
        ...where,
      });
    return [];
  }
}

/** Keeps the first occurrence of each file identity. */
export function dedupe(candidates: readonly Candidate[], diagnostics: Diagnostic[]): Candidate[] {
  const seen = new Map<string, Candidate>();
  const kept: Candidate[] = [];
  for (const candidate of candidates) {
    const first = seen.get(candidate.identity);
    if (first !== undefined) {
      if (
        first.path !== candidate.path ||
        first.layer !== candidate.layer ||
        first.entry !== candidate.entry
      ) {
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
