import path from 'node:path';
import { DEFAULT_PROFILE, type HostProfile, type InstructionsConfig } from '../config/types.js';
import { isBlankText } from '../discover/chain-candidates.js';
import { walkChain } from '../discover/chain-walk.js';
import { compareCodeUnits } from '../discover/compare-code-units.js';
import type { Diagnostic } from '../errors.js';
import type { Rule } from '../rules/rule.js';
import { errorCode, isAbsent, type FileSystem } from '../fs/file-system.js';
import { expandEntry, identityOf, type Candidate } from './expand-entries.js';
import type { ResolutionPlan } from './plan-resolution.js';
import { MAX_INLINE_BYTES, readInstruction } from '../fs/read-instruction.js';
import { contextFileOf, readContextFile, type ContextFile } from './read-context-file.js';
import { globCandidates, type GlobScope } from './glob-files.js';

/**
 * Total bytes read for one resolution (docs/security.md, "caps"). Files past it are not read:
 * together with the `xml` escaping (at most 5 bytes per byte), it keeps a rendered block far below
 * the longest string a JavaScript engine can build.
 */
export const MAX_TOTAL_READ_BYTES = 8 * 1024 * 1024;

/** The sources besides the contextPaths layers. */
export interface SourceOptions {
  readonly instructions: InstructionsConfig;
  /** How the preset's host walks, picks and orders the chain (absent: ctxfiles' own way). */
  readonly profile?: HostProfile | undefined;
  /** The user's home directory, for `~`. */
  readonly homeDir: string;
  /** Scoped rules (docs/rules.md); absent when `rules.sources` is empty. */
  readonly rules?: RulesSource | undefined;
  /** Values for `${env.NAME}` in `userFile` entries. Default: none (such entries are skipped). */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /**
   * The directory `contextPaths` resolve against and are contained in: the work dir, or the
   * project root with `contextRoot: project`. Default: the work dir.
   */
  readonly layerRoot?: string;
  /** The highest directory the chain may start at (see `ChainOptions.ceiling`). */
  readonly ceiling?: string | undefined;
  /**
   * Fills an `@rules` slot of the chain with that directory's `always` rules, in order
   * (docs/chains.md, "@rules"). Absent: the slot yields nothing.
   */
  readonly rulesAt?: (dir: string, depth: number) => readonly Candidate[];
  /**
   * The `instructions.globs` patterns a project-tier layer set, each with the directory of the file
   * that set it (real path): they match only there and below (docs/security.md, "Trust tiers").
   * Absent: every pattern came from a trusted layer.
   */
  readonly projectGlobs?: Readonly<Record<string, string>> | undefined;
}

/** The rules a resolution inlines, and the rule folders that `contextPaths` entries must not inline. */
export interface RulesSource {
  /** The `rules` layer, in order. */
  readonly layer: readonly Rule[];
  /** Absolute rule folders the rules engine reads (`<owner>/.cursor/rules`, …): entries naming one are left out. */
  readonly folders: { has(folder: string): boolean };
  /**
   * The `always` rules owned by one directory: for a chain candidate `@rules`, which places a chain
   * directory's rules inside the chain (they are then left out of `layer`).
   */
  readonly alwaysRulesOf?: ((dir: string) => readonly Rule[]) | undefined;
  /**
   * Rules whose `#[[file:path]]` references are followed with imports on (Kiro), by real path: the
   * directory their paths are relative to.
   */
  readonly fileReferences?: ReadonlyMap<string, string> | undefined;
}

/** What {@link collectFiles} found besides the files: the chain's containment root. */
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
 * inode). Every fault is a diagnostic.
 */
export function collectFiles(
  fs: FileSystem,
  workDir: string,
  plan: ResolutionPlan,
  options: SourceOptions,
  diagnostics: Diagnostic[],
): ContextFile[] {
  return collectSources(fs, workDir, plan, options, diagnostics).files;
}

/** {@link collectFiles}, with the chain's start for the steps that follow (imports). */
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

/**
 * The chain's candidates, ancestors first, pushed onto `ordered`; an `@rules` slot adds that
 * directory's `always` rules through `addRule` (docs/chains.md). Returns where the chain started.
 */
function chainCandidates(
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

/**
 * One contextPaths layer's files, by absolute path in code-unit order; an entry naming an enabled
 * rule source's folder is left to the rules engine (an `info`).
 */
function layerCandidates(
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
 * Reads the kept candidates in order within the total read cap (files past it are reported, not
 * read); a rule's text is the engine's (no frontmatter); a blank chain file is skipped: a
 * whitespace-only one, or with `skipBlank: empty` only an empty one; `skipBlank: none` keeps them
 * (Copilot CLI and Continue show a blank file).
 */
function readWithinCap(
  fs: FileSystem,
  kept: readonly Candidate[],
  ruleOf: ReadonlyMap<Candidate, Rule>,
  skipBlank: 'whitespace' | 'empty' | 'none',
  diagnostics: Diagnostic[],
): ContextFile[] {
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
    const read =
      rule === undefined ? readContextFile(fs, candidate, diagnostics) : contextFileOf(candidate, rule);
    if (read === null) continue;
    const file = read;
    total += file.bytes;
    // A blank chain file is skipped, not replaced by the next candidate (Codex does the same:
    // `read_project_docs` in openai/codex, codex-rs/core/src/project_doc.rs).
    if (
      file.source === 'chain' &&
      skipBlank !== 'none' &&
      (skipBlank === 'empty' ? file.text === '' : isBlankText(file.text))
    ) {
      diagnostics.push({
        level: 'info',
        code: 'blank-file',
        message: `${file.path} ${skipBlank === 'empty' ? 'is empty' : 'holds only whitespace'} and is skipped`,
        layer: file.layer,
        entry: file.entry,
        path: file.path,
      });
      continue;
    }
    files.push(file);
  }
  reportReadCap(over, total, diagnostics);
  return files;
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

/** `${env.NAME}` in a user file entry. */
const ENV_TOKEN = /\$\{env\.([A-Za-z_][A-Za-z0-9_]*)\}/g;

/**
 * Whether a user file of a list is passed over for the next one: a blank one, or with
 * `skipBlank` other than `whitespace` only an empty one.
 */
function skipsUserFile(fs: FileSystem, first: Candidate, options: SourceOptions): boolean {
  return (options.instructions.skipBlank ?? 'whitespace') === 'whitespace'
    ? isBlankUserFile(fs, first)
    : first.info.size === 0;
}

/**
 * The user file: one path, or a list of which the first existing non-empty file wins (non-blank,
 * or with `skipBlank: empty` not empty). An entry
 * whose `${env.NAME}` is unset or empty is skipped with a `debug` (Codex reads `$CODEX_HOME`, else
 * `~/.codex`: `["${env.CODEX_HOME}/AGENTS.md", "~/.codex/AGENTS.md"]`). Diagnostics show entries
 * as written, never an environment value.
 */
function userFileCandidates(
  fs: FileSystem,
  userFile: string | readonly string[],
  options: SourceOptions,
  diagnostics: Diagnostic[],
): Candidate[] {
  const list = typeof userFile === 'string' ? [userFile] : userFile;
  for (const entry of list) {
    let unset = false;
    const expanded = entry.replace(ENV_TOKEN, (_, name: string) => {
      const value = options.env?.[name];
      if (value === undefined || value === '') unset = true;
      return value ?? '';
    });
    if (unset) {
      diagnostics.push({
        level: 'debug',
        code: 'empty-token',
        message: `${JSON.stringify(entry)} is skipped: an environment variable it names is unset or empty`,
        layer: 'user',
        entry,
      });
      continue;
    }
    // As for contextPaths entries (expand-entries.ts), a diagnostic about an entry expanded from
    // the environment shows the entry as written, never the expanded path.
    const fromEnv = expanded !== entry;
    const scratch: Diagnostic[] = [];
    const found = userCandidate(fs, expandHome(expanded, options.homeDir), entry, 'user', scratch);
    const [first] = found;
    const blank = list.length > 1 && first !== undefined && skipsUserFile(fs, first, options);
    if (blank)
      scratch.push({
        level: 'debug',
        code: 'blank-file',
        message: `${first.path} is empty or only whitespace; the next user file is tried`,
        layer: 'user',
        entry,
        path: first.path,
      });
    for (const diagnostic of scratch)
      diagnostics.push(
        fromEnv
          ? {
              level: diagnostic.level,
              code: diagnostic.code,
              message: `${JSON.stringify(entry)} (expanded from the environment): ${diagnostic.code}`,
              layer: 'user',
              entry,
            }
          : diagnostic,
      );
    if (first === undefined || blank) continue;
    return found;
  }
  return [];
}

/**
 * True when a user file holds nothing but whitespace: Codex passes over such a file and tries the
 * next one (a whitespace-only text counts as empty: `LoadedAgentsMd::new_user` in openai/codex
 * codex-rs/core/src/agents_md.rs). A file that cannot be read here is not blank: its own read
 * reports why.
 */
function isBlankUserFile(fs: FileSystem, candidate: Candidate): boolean {
  if (candidate.info.size === 0) return true;
  if (candidate.info.size > MAX_INLINE_BYTES) return false;
  const read = readInstruction(fs, candidate.realPath, {
    maxBytes: MAX_INLINE_BYTES,
    expect: { dev: candidate.info.dev, ino: candidate.info.ino },
  });
  return read.ok && isBlankText(read.text);
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
