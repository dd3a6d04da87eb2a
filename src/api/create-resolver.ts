import path from 'node:path';
import { isInside } from '../fs/contain.js';
import type { Config, Flow, Format } from '../config/types.js';
import type { NestedFile, NestedIndex } from '../discover/nested-index.js';
import { formatKeyPath, formatProblem, type Diagnostic } from '../errors.js';
import type { ContextFile } from '../resolve/read-context-file.js';
import { loadContext, normalizeOptions, type ResolverContext, type ResolverOptions } from './load-context.js';
import { createMemo } from './memo.js';
import { openSession, type Session, type SessionOptions, type SessionStart } from './open-session.js';
import { discoverRequest, type Discovered } from './discover-step.js';
import {
  collect,
  plan,
  render,
  renderDisclosure,
  type Collected,
  type Disclosed,
  type Planned,
  type Rendered,
} from './pipeline-steps.js';
import type { ResolveRequest } from './select-request.js';
import type { Rule } from '../rules/rule.js';
import type { RuleExplanation } from '../rules/explain-rules.js';
import { discoverRulesOnce, explainRequest, rulesLayer, type Rules } from './rules-step.js';
import { saveWalkCache } from './walk-cache.js';
import { collectKey, requestKey, resolutionKey } from './cache-keys.js';
import { capDiagnostics } from '../diagnostics.js';
import type { HostRegistry } from '../registry/registry.js';

export type { ResolverOptions } from './load-context.js';
export type { Session, SessionOptions } from './open-session.js';

/** One context file in a result: provenance and content. */
export type ResolvedFile = ContextFile;

/** The outcome of {@link Resolver.resolve}. Frozen; the same object is returned for the same request. */
export interface ResolveResult {
  readonly workDir: string;
  readonly agent: string | null;
  readonly flow: { readonly id: string; readonly step: string } | null;
  /** The files shown in `text`, in order (a file cut by the budget is listed with its full text). */
  readonly files: readonly ResolvedFile[];
  /** The format `text` is rendered in. */
  readonly format: Format;
  /** The rendered block. Empty when no file resolved (`magi` then says so). */
  readonly text: string;
  /** The nested-file manifest; empty when there is nothing nested or disclosure is off. */
  readonly manifest: string;
  /** The nested files the manifest lists, which sessions disclose. */
  readonly nested: readonly NestedFile[];
  /** Every diagnostic of this resolution, all levels. */
  readonly diagnostics: readonly Diagnostic[];
  /**
   * Every rule file with its source, kind, globs and why it did or did not apply to this request;
   * absent when `rules.sources` is empty (docs/rules.md).
   */
  readonly rules?: readonly RuleExplanation[];
}

/** Resolves context for agents and flow steps in one work dir, memoizing every render. */
export interface Resolver {
  /** Canonical work dir. */
  readonly workDir: string;
  readonly config: Config;
  /**
   * The flows by id (read from disk on first call when the config was loaded with `lazyFlows`).
   * @throws CtxfilesError with a `flow-*` code.
   */
  flows(): Promise<ReadonlyMap<string, Flow>>;
  /**
   * Resolves the context for a request. Byte-identical text for the life of the resolver.
   * @throws CtxfilesError `unknown-agent`, `unknown-flow`, `unknown-step` or `usage`.
   */
  resolve(request?: Readonly<ResolveRequest>): Promise<ResolveResult>;
  /**
   * Opens a disclosure session for a request.
   * @throws CtxfilesError as `resolve`, and `session-state-invalid` for a malformed `state`.
   */
  openSession(options?: Readonly<SessionOptions>): Promise<Session>;
  /**
   * The rules named `name` (their name below the vendor folder, or their path relative to the work
   * dir), whatever their kind; two rules may share a name. Each carries its file's body as read now
   * (MCP `get_rule` and sessions see edits); a file gone or no longer parsing is left out. Empty when
   * none has it or rules are off. With `request.agent`, rules scoped to other agents are left out
   * (docs/rules.md, "Agent scope").
   */
  rule(name: string, request?: Readonly<{ agent?: string | undefined }>): Promise<readonly Rule[]>;
  /** Forgets every memoized render, walk and rule so the next call re-reads the files. */
  refresh(): void;
}

/**
 * Creates a resolver for one work dir. Each request runs the pipeline
 * load (once) → plan → discover → collect → render; every step is memoized until `refresh()`.
 * ARCHITECTURE.md shows the steps and their caches.
 * @throws CtxfilesError `workdir-invalid` when the work dir does not exist or is not a directory,
 * and the config codes of `loadConfig` when the config is loaded here.
 */
export async function createResolver(
  options: Readonly<ResolverOptions>,
  hosts: HostRegistry,
): Promise<Resolver> {
  const context = await loadContext(normalizeOptions(options, hosts));
  const memo = createMemo();
  const caches = createCaches(memo);
  const onUnknownMode = warnOncePerMode();

  const lookup = (asked: Readonly<ResolveRequest>) => {
    const request = canonicalPaths(context, asked);
    return caches.requests(requestKey(context.config, request), () =>
      resolveRequest(context, caches, request, onUnknownMode),
    );
  };

  return Object.freeze({
    workDir: context.workDir,
    config: context.config,
    flows: context.flows,
    resolve: async (request: Readonly<ResolveRequest> = {}) => (await lookup(request)).result,
    openSession: (sessionOptions: Readonly<SessionOptions> = {}) =>
      openSession(context, () => lookup({ ...sessionOptions, manifest: true }), sessionOptions),
    rule: async (name: string, request: Readonly<{ agent?: string | undefined }> = {}) => {
      const found = await discoverRulesOnce(context, caches.rules, true);
      await saveWalkCache(context);
      if (found === null) return Object.freeze([]);
      const rules = request.agent === undefined ? found : found.forAgent(request.agent);
      return currentRules(context, rules.set.byName(name));
    },
    refresh: () => memo.clear(),
  });
}

/** The memo tables of one resolver, cleared together by `refresh()`. */
function createCaches(memo: ReturnType<typeof createMemo>) {
  return {
    requests: memo.table<Promise<Resolution>>(),
    walks: memo.table<NestedIndex>(),
    collected: memo.table<Collected>(),
    rendered: memo.table<Rendered>(),
    disclosed: memo.table<Promise<Disclosed>>(),
    rules: memo.table<Promise<Rules | null>>(),
  };
}

type Caches = ReturnType<typeof createCaches>;

/**
 * Named rules as their files read now (as a session injects them): the body of an edited file is
 * its new text; a file that vanished or no longer parses is left out.
 */
async function currentRules(context: ResolverContext, named: readonly Rule[]): Promise<readonly Rule[]> {
  const [{ readRule }, { recallCompiledGlobs }, { freezeRule }] = await Promise.all([
    import('../session/rule-injection.js'),
    import('../rules/compile-rule-globs.js'),
    import('../rules/freeze-rule.js'),
  ]);
  const scratch: Diagnostic[] = [];
  const current: Rule[] = [];
  for (const rule of named) {
    const read = readRule(context.fs, rule, context.config.contextDiscovery.maxFileBytes, scratch);
    if (read === null) continue;
    // The globs are the ones discovery compiled: the new object must not compile them again.
    current.push(freezeRule(rule, read.text, read.read, recallCompiledGlobs(rule) ?? []));
  }
  return Object.freeze(current);
}

/** One request through the pipeline: plan → discover (and rules) → collect → render. */
async function resolveRequest(
  context: ResolverContext,
  caches: Caches,
  request: Readonly<ResolveRequest>,
  onUnknownMode: ReturnType<typeof warnOncePerMode>,
): Promise<Resolution> {
  const format = request.format ?? context.config.format;
  const planned = await plan(context, request, onUnknownMode);
  const discovered = await discoverRequest(context, caches, planned, request);
  const { walker, found, rules, inline } = discovered;
  const key = resolutionKey(planned.key, request, found, planned.selection.agent);
  const layer = rules === null ? null : rulesLayer(rules, request, placedByChain(context, rules));
  const collected = collectStep(context, caches, planned, discovered, key, layer);
  // The nested walk leaves out what the block holds; inline mode walked inside collect.
  const walk = walker === null || inline ? null : walker(collected.files.map((file) => file.realPath));
  // Once per request, after both walks: the walk index is saved when they changed it.
  const cacheDiagnostics = await saveWalkCache(context);
  const rendered = render(context, key, collected, format, caches.rendered);
  const shownRules = rules !== null && discovered.wanted ? rules.set : undefined;
  const disclosed = await renderDisclosure(context, key, walk, collected, caches.disclosed, shownRules);
  const ruleLines = rules === null ? null : explainRequest(rules, request, context.workDir);
  const placed = await placeDiagnostics(context, planned.selection, [
    ...planned.plan.diagnostics,
    ...requestDiagnostics(context, request, rules !== null),
    ...(rules === null || layer === null ? [] : [...rules.diagnostics, ...unknownRules(layer.unknown)]),
    ...rendered.diagnostics,
  ]);
  return {
    result: resultOf(context, planned, rendered, disclosed, format, ruleLines, [placed, cacheDiagnostics]),
    rendered,
    disclosed,
    format,
  };
}

/** collect: the files of the plan and of the request's rules layer (and, inline, the nested files). */
function collectStep(
  context: ResolverContext,
  caches: Caches,
  planned: Planned,
  { walker, rules, nestedRules, inline }: Discovered,
  key: string,
  layer: ReturnType<typeof rulesLayer> | null,
): Collected {
  return collect(
    context,
    planned.plan,
    caches.collected,
    collectKey(key, !nestedRules && rules !== null, inline && walker !== null),
    rules === null || layer === null ? undefined : collectedRules(rules, layer),
    inline ? walker : null,
  );
}

/** What the collect step takes from the request's rules and their layer. */
function collectedRules(
  rules: NonNullable<Awaited<ReturnType<typeof discoverRulesOnce>>>,
  layer: NonNullable<ReturnType<typeof rulesLayer>>,
) {
  const { folders, alwaysRulesOf, fileReferences } = rules;
  return { layer: layer.rules, folders, alwaysRulesOf, fileReferences };
}

/**
 * Under a symlinked cwd, `request.paths` spelled under it name the same files under the canonical
 * work dir, where rules are owned and matched (as tool paths in a session, src/session/disclosure.ts).
 */
function canonicalPaths(
  context: ResolverContext,
  request: Readonly<ResolveRequest>,
): Readonly<ResolveRequest> {
  const { spelledWorkDir: spelled, workDir } = context;
  if (spelled === workDir || request.paths === undefined) return request;
  const paths = request.paths.map((file) =>
    path.isAbsolute(file) && (file === spelled || isInside(spelled, file))
      ? path.join(workDir, path.relative(spelled, file))
      : file,
  );
  return { ...request, paths };
}

/**
 * The owner dirs whose `always` rules the chain places itself: every chain directory when the chain
 * candidates hold `@rules` (docs/rules.md, "The rules layer"); none otherwise.
 */
function placedByChain(context: ResolverContext, rules: Rules): ReadonlySet<string> {
  const { instructions } = context.config;
  if (instructions.walk === 'off' || !instructions.candidates.includes('@rules')) return new Set();
  return new Set(
    rules.set
      .always()
      .map((rule) => rule.ownerDir)
      .filter((dir) => rules.alwaysRulesOf(dir).length > 0),
  );
}

/**
 * What a request asks that changes nothing, said rather than ignored: paths outside the work dir
 * (`--paths ../../etc/passwd`), and paths or rule names while rules are off.
 */
function requestDiagnostics(
  context: ResolverContext,
  request: Readonly<ResolveRequest>,
  rulesOn: boolean,
): Diagnostic[] {
  const paths = request.paths ?? [];
  const names = request.rules ?? [];
  const found: Diagnostic[] = [];
  if (!rulesOn && paths.length + names.length > 0)
    found.push({
      level: 'warn',
      code: 'rules-off',
      message: `${paths.length > 0 ? 'paths' : 'rule names'} given (${[...paths, ...names].slice(0, 3).join(', ')}) change nothing: rules.sources is [] in the config, so no rule is read`,
    });
  for (const file of paths) {
    const full = path.resolve(context.workDir, file);
    if (full !== context.workDir && !isInside(context.workDir, full))
      found.push({
        level: 'warn',
        code: 'outside-workdir',
        message: `paths: ${file} is outside the work dir ${context.workDir}; no rule can match it`,
        path: full,
      });
  }
  return found;
}

/** A `warn` per name in `--rule` / `request.rules` that selects no rule. */
function unknownRules(names: readonly string[]): Diagnostic[] {
  return names.map((name) => ({
    level: 'warn' as const,
    code: 'unknown-rule' as const,
    message: `no rule is named ${JSON.stringify(name)}; see \`ctxfiles explain\` for the rules found`,
  }));
}

/** The codes of entry faults whose message gains the entry's file and key path. */
const PLACED_CODES = new Set(['outside-workdir', 'invalid-entry']);

/** Where a diagnostic's key is written: the config or flow file (`null`: a config object) and key path. */
interface KeySource {
  readonly file: string | null;
  readonly keyPath: readonly PropertyKey[];
}

/**
 * Entry faults and unknown modes with their place, `<file>:<line>:<col>: <key.path>: <problem>`
 * (`.opencode.json:3:20: contextPaths[1]: …`, `agents.coder.context.mode`, or the flow file and
 * `steps[2].context.paths[0]`), so a warning says where to fix it. Line and column come from the file
 * read again (src/config/source-text.ts); a config object given in code has the key path alone.
 */
async function placeDiagnostics(
  context: ResolverContext,
  selection: Planned['selection'],
  diagnostics: readonly Diagnostic[],
): Promise<Diagnostic[]> {
  const sources = diagnostics.map((diagnostic) => keySourceOf(context, selection, diagnostic));
  if (sources.every((source) => source === undefined)) return [...diagnostics];
  // The YAML parser loads only for a file to point into; a config object has the key path alone.
  const locate = sources.some((source) => source?.file != null)
    ? (await import('../config/source-text.js')).createKeyLocator(context.fs)
    : undefined;
  return diagnostics.map((diagnostic, index) => {
    const source = sources[index];
    if (source === undefined) return diagnostic;
    const place =
      source.file === null || locate === undefined
        ? { keyPath: formatKeyPath(source.keyPath) }
        : { file: source.file, ...locate(source.file, source.keyPath) };
    return { ...diagnostic, message: formatProblem(place, diagnostic.message).message };
  });
}

/** Where the key of an entry fault or an unknown mode is written; `undefined` for other diagnostics. */
function keySourceOf(
  context: ResolverContext,
  { agent, flow, step }: Planned['selection'],
  { code, layer, entry }: Diagnostic,
): KeySource | undefined {
  const mode = code === 'unknown-mode';
  if ((!mode && (!PLACED_CODES.has(code) || entry === undefined)) || layer === undefined) return undefined;
  const list =
    layer === 'global'
      ? { file: context.configFile, keyPath: ['contextPaths'], entries: context.config.contextPaths }
      : layer === 'agent' && agent !== undefined
        ? {
            file: context.configFile,
            keyPath: ['agents', agent, 'context'],
            entries: context.config.agents[agent]?.context?.paths ?? [],
          }
        : layer === 'step' && flow !== undefined && step !== undefined
          ? {
              file: flow.file,
              keyPath: ['steps', flow.steps.indexOf(step), 'context'],
              entries: step.context?.paths ?? [],
            }
          : undefined;
  if (list === undefined) return undefined;
  if (mode) return { file: list.file, keyPath: [...list.keyPath, 'mode'] };
  const index = list.entries.indexOf(entry as string);
  if (index < 0) return undefined;
  const keyPath = layer === 'global' ? [...list.keyPath, index] : [...list.keyPath, 'paths', index];
  return { file: list.file, keyPath };
}

/** A memoized resolution: the frozen result and what a session starts from. */
interface Resolution extends SessionStart {
  readonly result: ResolveResult;
}

/** The frozen result of one request; diagnostics in pipeline order. */
function resultOf(
  context: ResolverContext,
  { selection }: Planned,
  rendered: Rendered,
  disclosed: Disclosed,
  format: Format,
  rules: readonly RuleExplanation[] | null,
  [placed, cacheDiagnostics]: readonly [readonly Diagnostic[], readonly Diagnostic[]],
): ResolveResult {
  const { flow, step } = selection;
  return Object.freeze({
    workDir: context.workDir,
    agent: selection.agent ?? null,
    flow: flow && step ? Object.freeze({ id: flow.id, step: step.id }) : null,
    files: rendered.files,
    format,
    text: rendered.text,
    manifest: disclosed.manifest,
    nested: disclosed.index?.files ?? [],
    // At most 1,000, one per (code, file, target), the rest counted (docs/security.md, "Bounds").
    diagnostics: Object.freeze(
      capDiagnostics(context.configDiagnostics, placed, disclosed.diagnostics, cacheDiagnostics),
    ),
    ...(rules === null ? {} : { rules }),
  });
}

/** An unknown layer mode warns once per resolver, then acts as `append` (placed by {@link placeDiagnostics}). */
function warnOncePerMode(): (mode: string, layer: string) => Diagnostic | undefined {
  const warned = new Set<string>();
  return (mode, layer) => {
    if (warned.has(mode)) return undefined;
    warned.add(mode);
    return {
      level: 'warn',
      code: 'unknown-mode',
      message: `unknown mode ${JSON.stringify(mode)} on the ${layer} layer acts as "append" (known modes: replace, append)`,
      layer,
    };
  };
}
