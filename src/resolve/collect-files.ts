import path from 'node:path';
import type { InstructionsConfig } from '../config/types.js';
import { walkChain } from '../discover/chain-walk.js';
import { compareCodeUnits } from '../discover/compare-code-units.js';
import type { Diagnostic } from '../errors.js';
import type { Rule } from '../rules/rule.js';
import { errorCode, isAbsent, type FileSystem } from '../fs/file-system.js';
import { expandEntry, identityOf, type Candidate } from './expand-entries.js';
import type { ResolutionPlan } from './plan-resolution.js';
import { MAX_INLINE_BYTES } from '../fs/read-instruction.js';
import { readContextFile, type ContextFile } from './read-context-file.js';

/**
 * Total bytes read for one resolution (docs/security.md, "caps"). Files past it are not read:
 * together with the `xml` escaping (at most 5 bytes per byte), it keeps a rendered block far below
 * the longest string a JavaScript engine can build.
 */
export const MAX_TOTAL_READ_BYTES = 8 * 1024 * 1024;

/** The sources besides the contextPaths layers. */
export interface SourceOptions {
  readonly instructions: InstructionsConfig;
  /** The user's home directory, for `~`. */
  readonly homeDir: string;
  /** Scoped rules (docs/rules.md); absent when `rules.sources` is empty. */
  readonly rules?: RulesSource | undefined;
}

/** The rules a resolution inlines, and the rule folders that `contextPaths` entries must not inline. */
export interface RulesSource {
  /** The `rules` layer, in order. */
  readonly layer: readonly Rule[];
  /** Folders of the enabled sources (`.cursor/rules/`, …), relative, with a trailing `/`. */
  readonly folders: ReadonlySet<string>;
  /**
   * The `always` rules owned by one directory: for a chain candidate `@rules`, which places a chain
   * directory's rules inside the chain (they are then left out of `layer`).
   */
  readonly alwaysRulesOf?: ((dir: string) => readonly Rule[]) | undefined;
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
  const { instructions, homeDir, rules } = options;
  const ordered: Candidate[] = [];
  const ruleOf = new Map<Candidate, Rule>();
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
  if (rules !== undefined)
    for (const rule of rules.layer) {
      const candidate = ruleCandidate(fs, rule, diagnostics);
      if (candidate === null) continue;
      ruleOf.set(candidate, rule);
      ordered.push(candidate);
    }
  for (const layer of plan.layers) {
    const layerFiles: Candidate[] = [];
    for (const { entry, expanded } of layer.entries) {
      if (rules !== undefined && isRuleFolder(expanded, rules.folders)) {
        diagnostics.push({
          level: 'info',
          code: 'rule-folder-entry',
          message: `${entry} is a rule folder: the rules engine reads it (docs/rules.md), so it is not inlined as files`,
          layer: layer.name,
          entry,
        });
        continue;
      }
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
  let total = 0;
  const over: Candidate[] = [];
  for (const candidate of kept) {
    // Checked before reading, with the size the file had when it was found (a file over the
    // per-file cap is left to readContextFile, which reads cap + 1 bytes and reports `too-large`);
    // what a read returned is what counts afterwards.
    const expected = Math.min(candidate.info.size, MAX_INLINE_BYTES);
    if (over.length > 0 || total + expected > MAX_TOTAL_READ_BYTES) {
      over.push(candidate);
      continue;
    }
    const rule = ruleOf.get(candidate);
    const file = rule === undefined ? readContextFile(fs, candidate, diagnostics) : ruleFile(candidate, rule);
    if (file === null) continue;
    files.push(file);
    total += file.bytes;
  }
  reportReadCap(over, total, diagnostics);
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

/** One `warn` for the cap, then a `debug` per file left unread, so each file still has an outcome. */
function reportReadCap(over: readonly Candidate[], total: number, diagnostics: Diagnostic[]): void {
  const first = over[0];
  if (first === undefined) return;
  diagnostics.push({
    level: 'warn',
    code: 'read-cap',
    message: `${over.length} file${over.length === 1 ? ' is' : 's are'} not read: the files before ${first.path} already hold ${total} bytes, and one resolution reads at most ${MAX_TOTAL_READ_BYTES} bytes`,
  });
  for (const candidate of over)
    diagnostics.push({
      level: 'debug',
      code: 'read-cap-skipped',
      message: `${candidate.path} is not read: the total read cap of ${MAX_TOTAL_READ_BYTES} bytes is reached`,
      layer: candidate.layer,
      entry: candidate.entry,
      path: candidate.path,
    });
}

/** True when a contextPaths entry names a rule folder of an enabled source (`./` and a missing `/` allowed). */
function isRuleFolder(expanded: string, folders: ReadonlySet<string>): boolean {
  let entry = expanded.replace(/^(?:\.\/)+/, '');
  if (!entry.endsWith('/')) entry += '/';
  return folders.has(entry);
}

/** A rule of the `rules` layer as a candidate: its identity (device and inode) for dedupe. */
function ruleCandidate(fs: FileSystem, rule: Rule, diagnostics: Diagnostic[]): Candidate | null {
  try {
    const info = fs.stat(rule.realPath);
    return {
      path: rule.path,
      realPath: rule.realPath,
      source: 'rule',
      layer: 'rules',
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

/** A rule's file as the rules engine read it: its text without frontmatter. */
function ruleFile(candidate: Candidate, rule: Rule): ContextFile {
  return Object.freeze({
    path: candidate.path,
    realPath: candidate.realPath,
    source: candidate.source,
    layer: candidate.layer,
    entry: candidate.entry,
    depth: candidate.depth,
    mtimeMs: rule.mtimeMs,
    bytes: rule.bytes,
    sha256: rule.sha256,
    text: rule.text,
  });
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
