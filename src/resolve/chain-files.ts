import { DEFAULT_PROFILE } from '../config/types.js';
import { walkChain } from '../discover/chain-walk.js';
import { compareCodeUnits } from '../discover/compare-code-units.js';
import type { Diagnostic } from '../errors.js';
import type { Rule } from '../rules/rule.js';
import type { FileSystem } from '../fs/file-system.js';
import { identityOf, type Candidate } from './expand-entries.js';
import type { SourceOptions } from './source-options.js';

// The chain's files as candidates (docs/chains.md): the walk with the host profile's fallback
// candidates and order, and the `@rules` slots that place a directory's rules among them. The walk
// itself is src/discover/chain-walk.ts.

/**
 * The chain's candidates, ancestors first, pushed onto `ordered`; an `@rules` slot adds that
 * directory's `always` rules through `addRule` (docs/chains.md). Returns where the chain started.
 */
export function chainCandidates(
  fs: FileSystem,
  workDir: string,
  options: SourceOptions,
  ordered: Candidate[],
  addRule: (rule: Rule) => void,
  diagnostics: Diagnostic[],
): string {
  const { instructions, rules } = options;
  const profile = options.profile ?? DEFAULT_PROFILE;
  const walk = (candidates: readonly string[]) =>
    walkChain(fs, {
      workDir,
      walk: instructions.walk as 'root' | 'project',
      projectRootMarkers: instructions.projectRootMarkers,
      candidates,
      select: instructions.select ?? 'first',
      symlinks: instructions.symlinks ?? 'inside',
      candidateScope: profile.candidateScope,
      projectRootFallback: profile.projectRootFallback,
      walkFrom: profile.walkFrom,
      homeDir: options.homeDir,
      ceiling: options.ceiling,
    });
  let chain = walk(instructions.candidates);
  // `fallbackCandidates` are tried only when no directory of the chain holds a candidate file
  // (Claude Code reads AGENTS.md where no CLAUDE.md is found: docs/chains.md).
  const fallback = profile.fallbackCandidates;
  if (fallback.length > 0 && chain.items.every((item) => item.kind === 'rules'))
    chain = walk([...fallback, ...instructions.candidates]);
  diagnostics.push(...chain.diagnostics);
  const items =
    profile.order === 'closest-first'
      ? [...chain.items].reverse()
      : profile.order === 'path'
        ? byPath(chain.items)
        : chain.items;
  for (const item of items) {
    if (item.kind === 'rules') {
      for (const rule of rules?.alwaysRulesOf?.(item.dir) ?? []) addRule(rule);
      ordered.push(...(options.rulesAt?.(item.dir, item.depth) ?? []));
      continue;
    }
    ordered.push({
      path: item.path,
      realPath: item.realPath ?? item.path,
      source: 'chain',
      layer: 'chain',
      entry: item.candidate,
      depth: item.depth,
      identity: identityOf(item.info),
      info: item.info,
    });
  }
  return chain.start;
}

/**
 * The chain's files sorted by absolute path as plain strings (code-unit order), as Gemini CLI sorts
 * the paths it found (`getEnvironmentMemoryPaths`: `unique.sort()`); an `@rules` slot keeps its
 * directory's place.
 */
function byPath<T extends { readonly dir: string; readonly path?: string }>(items: readonly T[]): T[] {
  const key = (item: T) => item.path ?? item.dir;
  return [...items].sort((a, b) => compareCodeUnits(key(a), key(b)));
}
