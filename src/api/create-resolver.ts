import type { Config, Flow, Format } from '../config/types.js';
import type { NestedFile, NestedIndex } from '../discover/nested-index.js';
import type { Diagnostic } from '../errors.js';
import type { ContextFile } from '../resolve/read-context-file.js';
import { loadContext, normalizeOptions, type ResolverContext, type ResolverOptions } from './load-context.js';
import { createMemo } from './memo.js';
import { openSession, type Session, type SessionOptions, type SessionStart } from './open-session.js';
import {
  collect,
  discover,
  plan,
  render,
  renderDisclosure,
  type Collected,
  type Disclosed,
  type Planned,
  type Rendered,
} from './pipeline-steps.js';
import type { ResolveRequest } from './select-request.js';

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
  /** Forgets every memoized render and walk so the next call re-reads the files. */
  refresh(): void;
}

/**
 * Creates a resolver for one work dir. Each request runs the pipeline
 * load (once) → plan → discover → collect → render; every step is memoized until `refresh()`.
 * ARCHITECTURE.md shows the steps and their caches.
 * @throws CtxfilesError `workdir-invalid` when the work dir does not exist or is not a directory,
 * and the config codes of `loadConfig` when the config is loaded here.
 */
export async function createResolver(options: Readonly<ResolverOptions> = {}): Promise<Resolver> {
  const context = await loadContext(normalizeOptions(options));
  const memo = createMemo();
  const caches = {
    requests: memo.table<Promise<Resolution>>(),
    walks: memo.table<NestedIndex>(),
    collected: memo.table<Collected>(),
    rendered: memo.table<Rendered>(),
    disclosed: memo.table<Promise<Disclosed>>(),
  };
  const onUnknownMode = warnOncePerMode();

  const lookup = (request: Readonly<ResolveRequest>) =>
    caches.requests(requestKey(context.config, request), async () => {
      const format = request.format ?? context.config.format;
      const planned = await plan(context, request, onUnknownMode);
      const inline = context.config.contextDiscovery.mode === 'inline';
      const walk = await discover(context, planned, inline || request.manifest !== false, caches.walks);
      const collected = collect(context, planned.plan, caches.collected, inline ? walk : null);
      const rendered = render(context, planned.plan.key, collected, format, caches.rendered);
      const disclosed = await renderDisclosure(context, planned.plan.key, walk, collected, caches.disclosed);
      return { result: resultOf(context, planned, rendered, disclosed, format), rendered, disclosed, format };
    });

  return Object.freeze({
    workDir: context.workDir,
    config: context.config,
    flows: context.flows,
    resolve: async (request: Readonly<ResolveRequest> = {}) => (await lookup(request)).result,
    openSession: (sessionOptions: Readonly<SessionOptions> = {}) =>
      openSession(context, () => lookup({ ...sessionOptions, manifest: true }), sessionOptions),
    refresh: () => memo.clear(),
  });
}

/** A memoized resolution: the frozen result and what a session starts from. */
interface Resolution extends SessionStart {
  readonly result: ResolveResult;
}

function requestKey(config: Config, request: Readonly<ResolveRequest>): string {
  const format = request.format ?? config.format;
  const manifest = request.manifest === false ? 0 : 1;
  return `${request.agent ?? ''}\0${request.flow ?? ''}\0${request.step ?? ''}\0${format}\0${manifest}`;
}

/** The frozen result of one request; diagnostics in pipeline order. */
function resultOf(
  context: ResolverContext,
  { selection, plan: resolution }: Planned,
  rendered: Rendered,
  disclosed: Disclosed,
  format: Format,
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
    diagnostics: Object.freeze([
      ...context.configDiagnostics,
      ...resolution.diagnostics,
      ...rendered.diagnostics,
      ...disclosed.diagnostics,
    ]),
  });
}

/** An unknown layer mode warns once per resolver, then acts as `append`. */
function warnOncePerMode(): (mode: string, layer: string) => Diagnostic | undefined {
  const warned = new Set<string>();
  return (mode, layer) => {
    if (warned.has(mode)) return undefined;
    warned.add(mode);
    const message = `unknown mode ${JSON.stringify(mode)} on the ${layer} layer acts as "append"`;
    return {
      level: 'warn',
      code: 'unknown-mode',
      message: `${message} (known modes: replace, append)`,
      layer,
    };
  };
}
