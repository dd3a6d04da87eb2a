import path from 'node:path';
import type { Diagnostic } from '../errors.js';
import type { Rule } from '../rules/rule.js';
import { errorCode, isAbsent, type FileSystem } from '../fs/file-system.js';
import { identityOf, type Candidate } from './expand-entries.js';
import type { ResolutionPlan } from './plan-resolution.js';
import type { ContextFile } from './read-context-file.js';
import { globCandidates, type GlobScope } from './glob-files.js';
import { chainCandidates } from './chain-files.js';
import { layerCandidates, reportReplaced } from './layer-files.js';
import { readWithinCap } from './read-within-cap.js';
import type { SourceOptions } from './source-options.js';
import { expandHome, userCandidate, userFileCandidates } from './user-files.js';

/** What {@link collectSources} found besides the files: the chain's containment root. */
export interface CollectedSources {
  readonly files: ContextFile[];
  /** Where the chain started (its containment root), or `null` without a chain. */
  readonly chainStart: string | null;
  /** Where the matches of `instructions.globs` are contained (for their imports). */
  readonly globScope: GlobScope;
}

/**
 * Builds the one ordered list of context files (docs/chains.md, "One ordered list"): the user file, then the
 * chain (ancestors first), then the contextPaths layers (global, agent, step; by absolute path in code-unit
 * order within a layer), then the extra files. A file appears once, at its first occurrence (device and
 * inode). Every fault is a diagnostic. With the files, the chain's start and the globs' scope, for the
 * steps that follow (imports).
 */
export function collectSources(
  fs: FileSystem,
  workDir: string,
  plan: ResolutionPlan,
  options: SourceOptions,
  diagnostics: Diagnostic[],
): CollectedSources {
  const { instructions, homeDir, rules } = options;
  const layerRoot = options.layerRoot ?? workDir;
  const ordered: Candidate[] = [];
  const ruleOf = new Map<Candidate, Rule>();
  const addRule = (rule: Rule, layer: 'rules' | 'user' = 'rules') => {
    const candidate = ruleCandidate(fs, rule, layer, diagnostics);
    if (candidate === null) return;
    ruleOf.set(candidate, rule);
    ordered.push(candidate);
  };
  if (instructions.userFile !== null)
    ordered.push(...userFileCandidates(fs, instructions.userFile, options, diagnostics));
  // When the chain places rules itself (`@rules`), the home directory's always rules
  // (`rules.userFolders`) follow the user file, in its layer (Claude Code's `~/.claude/rules`).
  if (instructions.walk !== 'off' && instructions.candidates.includes('@rules'))
    for (const rule of rules?.alwaysRulesOf?.(homeDir) ?? []) addRule(rule, 'user');
  const chainStart =
    instructions.walk === 'off' ? null : chainCandidates(fs, workDir, options, ordered, addRule, diagnostics);
  for (const rule of rules?.layer ?? []) addRule(rule);
  for (const layer of plan.layers)
    ordered.push(...layerCandidates(fs, layer, layerRoot, options, diagnostics));
  const globScope: GlobScope = {
    symlinks: instructions.symlinks ?? 'inside',
    root: chainStart ?? workDir,
    ...(options.projectGlobs === undefined ? {} : { projectRoots: options.projectGlobs }),
  };
  if (instructions.globs !== undefined && instructions.globs.length > 0) {
    const dirs = globDirs(workDir, chainStart);
    ordered.push(...globCandidates(fs, instructions.globs, dirs, homeDir, diagnostics, globScope));
  }
  for (const extra of instructions.extraFiles)
    ordered.push(...userCandidate(fs, expandHome(extra, homeDir), extra, 'extra', diagnostics));

  const kept = dedupe(ordered, diagnostics);
  reportReplaced(fs, layerRoot, plan, kept, diagnostics);
  const skipBlank = instructions.skipBlank ?? 'whitespace';
  return { files: readWithinCap(fs, kept, ruleOf, skipBlank, diagnostics), chainStart, globScope };
}

/** Where relative `instructions.globs` match: the work dir and its parents up to the chain's start. */
function globDirs(workDir: string, chainStart: string | null): string[] {
  const dirs = [workDir];
  if (chainStart === null) return dirs;
  for (let dir = workDir; dir !== chainStart && path.dirname(dir) !== dir;) {
    dir = path.dirname(dir);
    dirs.push(dir);
  }
  return dirs;
}

/** A rule of the `rules` layer as a candidate: its identity (device and inode) for dedupe. */
function ruleCandidate(
  fs: FileSystem,
  rule: Rule,
  layer: 'rules' | 'user',
  diagnostics: Diagnostic[],
): Candidate | null {
  try {
    const info = fs.stat(rule.realPath);
    return {
      path: rule.path,
      realPath: rule.realPath,
      source: 'rule',
      layer,
      entry: rule.name,
      depth: null,
      identity: identityOf(info),
      info,
    };
  } catch (error) {
    if (!isAbsent(error))
      diagnostics.push({
        level: 'warn',
        code: 'unreadable',
        message: `${rule.path} cannot be read (${errorCode(error)})`,
        layer: 'rules',
        entry: rule.name,
        path: rule.path,
      });
    return null;
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
