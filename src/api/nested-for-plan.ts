import path from 'node:path';
import type { InstructionsConfig } from '../config/types.js';
import type { NestedFile } from '../discover/nested-index.js';
import type { ResolutionPlan } from '../resolve/plan-resolution.js';

/**
 * The file names the discovery walk looks for: the basenames of the file entries of the
 * contributing layers (directory entries excluded), plus the chain candidates in chain mode.
 */
export function nestedBasenames(plan: ResolutionPlan, instructions: InstructionsConfig): Set<string> {
  const basenames = new Set<string>();
  for (const layer of plan.layers) {
    for (const { expanded } of layer.entries)
      if (!expanded.endsWith('/')) basenames.add(expanded.slice(expanded.lastIndexOf('/') + 1));
  }
  // A sub-path candidate (`.claude/CLAUDE.md`) lies in a dot directory the walk never enters, and
  // `@rules` is not a file: neither is looked for below the work dir.
  if (instructions.walk !== 'off')
    for (const candidate of instructions.candidates)
      if (!candidate.includes('/') && !candidate.startsWith('@')) basenames.add(candidate);
  return basenames;
}

/**
 * The nested files a plan discloses: in chain mode only the first existing candidate of each
 * directory; never a file that a layer already inlines (`inlined` holds real paths); and each file
 * once (DESIGN §13, "Identity"): of the names that lead to one file (`CLAUDE.md -> AGENTS.md`),
 * the one that is no link is kept, else the first.
 */
export function nestedForPlan(
  files: readonly NestedFile[],
  instructions: InstructionsConfig,
  inlined: ReadonlySet<string>,
): NestedFile[] {
  const chosen =
    instructions.walk === 'off' || instructions.select === 'all'
      ? files
      : firstCandidatePerDirectory(files, instructions.candidates);
  const open = chosen.filter((file) => !inlined.has(file.path) && !inlined.has(file.realPath ?? file.path));
  return oncePerFile(open);
}

/** One nested file per real path: the one that is no link, else the first. */
export function oncePerFile(files: readonly NestedFile[]): NestedFile[] {
  const kept = new Map<string, NestedFile>();
  for (const file of files) {
    const real = file.realPath ?? file.path;
    const current = kept.get(real);
    if (current === undefined || (current.realPath !== undefined && file.realPath === undefined))
      kept.set(real, file);
  }
  if (kept.size === files.length) return [...files];
  const chosen = new Set(kept.values());
  return files.filter((file) => chosen.has(file));
}

function firstCandidatePerDirectory(
  files: readonly NestedFile[],
  candidates: readonly string[],
): readonly NestedFile[] {
  const best = new Map<string, NestedFile>();
  const rank = (file: NestedFile) => {
    const position = candidates.indexOf(path.basename(file.path));
    return position === -1 ? candidates.length : position;
  };
  for (const file of files) {
    const current = best.get(file.ownerDir);
    if (current === undefined || rank(file) < rank(current)) best.set(file.ownerDir, file);
  }
  return files.filter((file) => best.get(file.ownerDir) === file);
}
