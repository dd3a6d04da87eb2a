import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Resolver, ResolveResult } from '../api/create-resolver.js';
import type { Diagnostic } from '../errors.js';
import { recallCompiledGlobs } from '../rules/compile-rule-globs.js';
import { formatHookOutput } from './hook-event.js';
import { unindexedFiles, type HookIndex, type HookState, type RuleScope } from './hook-state.js';
import {
  ensureStateDirectory,
  StateStoreError,
  sweepStateDirectory,
  withStateLock,
  writeSideFile,
  writeStateFile,
  readSideFile,
  type StateFile,
} from './state-store.js';
import { startBlock } from './start-block.js';
import { wantedInside } from './host-wants.js';
import { hookHostView } from './host-view.js';
import type { HostView } from '../api/host-view.js';
import {
  deliveredSteps,
  forgetSteps,
  hookRequest,
  markStep,
  rememberType,
  stepFiles,
  stepKey,
} from './host-request.js';
import type { ResolveRequest } from '../api/select-request.js';
import type { ToolEvent } from '../session/triggers.js';
import type { HookAgent } from './tool-names.js';
import type { HookProtocol } from '../registry/host.js';
import {
  checkToolCall,
  fingerprintOf,
  quietAnswer,
  readStored,
  rearmFile,
  startDue,
  startHook,
  type HookAnswer,
  type RunHookOptions,
  type Scoped,
} from './quick-hook.js';
import { sameStrings } from '../shared/same-strings.js';

export type { HookAnswer, RunHookOptions } from './quick-hook.js';

/**
 * Answers one hook event: the manifest at session start, the nested files due after a tool call,
 * nothing otherwise. Never throws for a broken event, config, state or file: those become a
 * warning and an answer that adds nothing. The pipeline:
 * `parseHookEvent → touchedDirectories → nothingDue (state file only) → createResolver →
 * openSession({ state }) → afterTool → writeStateFile`, the last three under the session's lock.
 */
export async function runHook(options: Readonly<RunHookOptions>): Promise<HookAnswer> {
  const { protocol } = options;
  const warnings: string[] = [];
  const quiet = (kind: 'session-start' | 'after-tool' = 'after-tool') =>
    quietAnswer(protocol, warnings, kind);
  const start = startHook(options, warnings);
  if (!('event' in start)) return start;
  const { event, workDir, homeDir, configFile, state, scoped } = start;

  try {
    if (event.kind === 'session-start' || event.kind === 'subagent-start' || event.kind === 'prompt') {
      const source = event.kind === 'session-start' ? event.source : 'startup';
      const text = await (event.kind === 'prompt'
        ? modeStep(state, workDir, configFile, homeDir, scoped, warnings)
        : sessionStart(state, workDir, configFile, homeDir, scoped, source, warnings));
      return { stdout: formatHookOutput(protocol, event.kind, text), warnings };
    }
    if (event.kind === 'compact' || event.kind === 'compressed') {
      // Nothing can be added now: the session starts over and the next tool call delivers again.
      const rearm = () =>
        sessionStart(state, workDir, configFile, homeDir, scoped, 'compact', warnings, true);
      await (event.kind === 'compact' ? rearm() : compressed(state, event.summary, rearm));
      return quiet();
    }
    const checked = checkToolCall({ ...start, event }, warnings);
    if ('stdout' in checked) return checked;
    const { toolEvents, dirs } = checked;
    const text = await afterTool(state, workDir, configFile, homeDir, scoped, toolEvents, dirs, warnings);
    return { stdout: formatHookOutput(protocol, 'after-tool', text), warnings };
  } catch (error) {
    warnings.push(describe(error));
    return quiet(event.kind === 'session-start' ? 'session-start' : 'after-tool');
  }
}

async function sessionStart(
  state: StateFile,
  workDir: string,
  configFile: string | undefined,
  homeDir: string,
  options: Scoped,
  source: string,
  warnings: string[],
  rearm = false,
): Promise<string> {
  const opened = await openResolver(workDir, configFile, homeDir, options);
  const request = await hookRequest(opened.resolver, options.requestAgent, options.context, warnings);
  const result = await opened.resolver.resolve(request);
  warn(result.diagnostics, warnings);
  try {
    ensureStateDirectory(state.dir);
    sweepStateDirectory(state.dir, Date.now());
    await withStateLock(state, async () => {
      // After /clear or a compaction the model no longer sees what was injected: start over,
      // unless the compaction event did already (its marker is there): what came since is in view.
      const startedOver = source === 'compact' && !rearm && fs.existsSync(rearmFile(state));
      const keep = startedOver || (source !== 'clear' && source !== 'compact');
      const previous = keep ? readStored(state, workDir, options.agent, warnings) : null;
      const session = await resume(opened, previous, warnings, request);
      const scopes = await ruleScopes(opened.resolver, result);
      writeStateFile(
        state,
        snapshot(options.agent, workDir, opened, result, session.state(), previous, [], scopes),
      );
      // A compaction re-arms the start's text for the next tool call; a start delivers it itself.
      if (rearm) writeSideFile(rearmFile(state), '');
      else if (source !== 'resume') fs.rmSync(rearmFile(state), { force: true });
      // What a mode's step gave is gone with the rest; a start (or the re-armed one) gives it again.
      if (!keep) forgetSteps(state);
      const step = stepKey(request);
      if (step !== undefined && source !== 'resume') markStep(state, step);
      rememberType(state, options.context);
    });
  } catch (error) {
    // The manifest is still worth showing; injections will be skipped while the state is unusable.
    warnings.push(describe(error));
  }
  if (rearm) return '';
  // A resume keeps the transcript, and with it what the last start delivered.
  const block = source === 'resume' ? '' : await startText(opened, result, options, homeDir);
  return [block, result.manifest].filter((text) => text !== '').join('\n\n');
}

/**
 * A user prompt in a mode that selects a flow step (`modes`): the files that step's layer brings,
 * framed as at session start, the first time this context is in that step; nothing otherwise.
 * Leaving the mode selects no step, so the next calls resolve the default layers again.
 */
async function modeStep(
  state: StateFile,
  workDir: string,
  configFile: string | undefined,
  homeDir: string,
  options: Scoped,
  warnings: string[],
): Promise<string> {
  if (options.context.mode === undefined) return '';
  const opened = await openResolver(workDir, configFile, homeDir, options);
  const request = await hookRequest(opened.resolver, options.requestAgent, options.context, warnings);
  const step = stepKey(request);
  if (step === undefined || deliveredSteps(state).has(step)) return '';
  const result = stepFiles(await opened.resolver.resolve(request));
  warn(result.diagnostics, warnings);
  ensureStateDirectory(state.dir);
  return withStateLock(state, async () => {
    if (deliveredSteps(state).has(step)) return '';
    const text = await startText(opened, result, options, homeDir);
    // Recorded before it is printed: a text that is shown is always recorded.
    markStep(state, step);
    return text;
  });
}

/**
 * A model request that holds a compression's summary: when the session has delivered something
 * (its state exists) and this summary is not the one seen last, the host compressed since, so the
 * session re-arms as after a compaction. Cheap otherwise: a stat, and a read of the digest file.
 */
async function compressed(state: StateFile, summary: string, rearm: () => Promise<unknown>): Promise<void> {
  if (!fs.existsSync(state.file)) return;
  const seenFile = `${state.file}.seen`;
  const digest = createHash('sha256').update(summary).digest('hex');
  // Never seen one (absent): this is the first compression of the session.
  if (readSideFile(seenFile) === digest) return;
  await rearm();
  writeSideFile(seenFile, digest);
}

async function startText(
  { resolver, view }: Opened,
  result: ResolveResult,
  options: Readonly<RunHookOptions>,
  homeDir: string,
): Promise<string> {
  const present = (text: string) => presentFor(options.protocol, resolver, text);
  // What the host loads itself is not repeated (none of it with contextDiscovery.repeatHostFiles).
  const own = view === undefined ? new Set<string>() : await view.start();
  const { env, hosts } = options;
  const preset = hosts.host(options.agent)?.presets[0];
  return startBlock({ resolver, result, preset, hosts, env, homeDir, present, own });
}

/** Session frames as the agent reads them best, as its hook protocol says (Claude Code: no tags, B1). */
function presentFor(protocol: HookProtocol, resolver: Resolver, text: string): string {
  return protocol.present?.(text, resolver.config.format) ?? text;
}

async function afterTool(
  state: StateFile,
  workDir: string,
  configFile: string | undefined,
  homeDir: string,
  options: Scoped,
  toolEvents: readonly ToolEvent[],
  dirs: readonly string[],
  warnings: string[],
): Promise<string> {
  const opened = await openResolver(workDir, configFile, homeDir, options);
  const request = await hookRequest(opened.resolver, options.requestAgent, options.context, warnings);
  const result = await opened.resolver.resolve(request);
  ensureStateDirectory(state.dir);
  return withStateLock(state, async () => {
    const previous = readStored(state, workDir, options.agent, warnings);
    const session = await resume(opened, previous, warnings, request);
    const starts: string[] = [];
    const texts: string[] = [];
    // After a compaction: the start's text again, once, before what this call touched.
    if (startDue(state, options.protocol)) {
      const start = await startText(opened, result, options, homeDir);
      starts.push(...[start, result.manifest].filter((text) => text !== ''));
      fs.rmSync(rearmFile(state), { force: true });
    }
    for (const toolEvent of toolEvents) {
      const text = await session.afterTool(toolEvent);
      if (text !== '') texts.push(text);
    }
    warn(session.diagnostics, warnings);
    // Written before anything is printed: a text that is shown is always recorded.
    const scopes = await ruleScopes(opened.resolver, result);
    writeStateFile(
      state,
      snapshot(options.agent, workDir, opened, result, session.state(), previous, dirs, scopes),
    );
    const injected = texts.length > 0 ? presentFor(options.protocol, opened.resolver, texts.join('\n')) : '';
    return [...starts, injected].filter((text) => text !== '').join('\n\n');
  });
}

interface Opened {
  readonly resolver: Resolver;
  readonly fingerprint: readonly string[];
  /** What the host shows by itself; `undefined` with `contextDiscovery.repeatHostFiles`. */
  readonly view: HostView | undefined;
}

async function openResolver(
  workDir: string,
  configFile: string | undefined,
  homeDir: string,
  options: Readonly<RunHookOptions>,
): Promise<Opened> {
  // Signed before loading: a config edited meanwhile leaves a stale signature, so the next call reloads.
  const fingerprint = fingerprintOf(workDir, configFile, homeDir, options);
  const [{ loadConfig }, { createResolver }] = await Promise.all([
    import('../config/load-config.js'),
    import('../api/create-resolver.js'),
  ]);
  const { hosts } = options;
  const host = hosts.host(options.agent);
  const loaded = await loadConfig(
    {
      cwd: workDir,
      configFile,
      preset: options.preset,
      userConfig: options.userConfig,
      displayCwd: workDir,
      lazyFlows: true,
    },
    hosts,
  );
  // Gemini CLI escapes `<` and `>` in hook context (packages/core/src/hooks/types.ts), so tag frames
  // reach its model as `&lt;system-reminder&gt;`: unless a config or preset chose a format, the
  // hook frames files as Gemini CLI's own just-in-time context (the gemini-cli preset's format).
  // Codex gets its own AGENTS.md frame the same way (the codex preset's format).
  const chosen = (loaded.layers ?? []).some((layer) => layer.keys.includes('format'));
  // Claude Code gets its own `Contents of <path>:` frame, without tags (its hook protocol's `present`).
  const format = chosen ? undefined : hosts.preset(options.agent)?.config['format'];
  const framed =
    format === undefined
      ? loaded
      : { ...loaded, config: { ...loaded.config, format: format as typeof loaded.config.format } };
  const config = wantedInside(framed, host?.ownNames);
  const resolver = await createResolver({ workDir, config, env: options.env, homeDir }, hosts);
  const view =
    host === undefined ? undefined : await hookHostView(host, hosts, resolver, options.env, homeDir);
  return { resolver, fingerprint, view };
}

async function resume(
  { resolver, view }: Opened,
  previous: HookState | null,
  warnings: string[],
  request: ResolveRequest,
) {
  // What the host shows by itself is never injected (DESIGN §13, "A host's own view").
  const own = view === undefined ? request : { ...request, inView: view.test };
  if (previous !== null) {
    try {
      return await resolver.openSession({ ...own, state: previous.disclosure });
    } catch (error) {
      warnings.push(`the session state is not usable (${describe(error)}); a fresh session starts`);
    }
  }
  return resolver.openSession(own);
}

function snapshot(
  agent: HookAgent,
  workDir: string,
  opened: Opened,
  result: ResolveResult,
  disclosure: unknown,
  previous: HookState | null,
  dirs: readonly string[],
  scopes: readonly RuleScope[] = [],
): HookState {
  const { config } = opened.resolver;
  const files = result.nested.map((file) => file.relativePath);
  const basenames = new Set<string>(files.map((file) => file.slice(file.lastIndexOf('/') + 1)));
  if (config.contextDiscovery.enabled) {
    if (config.instructions.walk !== 'off')
      for (const name of config.instructions.candidates) basenames.add(name);
    for (const entry of config.contextPaths)
      if (!entry.endsWith('/')) basenames.add(entry.slice(entry.lastIndexOf('/') + 1));
  }
  const watched = [...basenames].sort();
  const known = new Set(files);
  const sameIndex =
    previous !== null &&
    sameStrings(previous.fingerprint, opened.fingerprint) &&
    sameStrings(previous.index.files, files);
  const ignored = new Set(sameIndex ? previous.index.ignored.filter((file) => !known.has(file)) : []);
  for (const file of unindexedFiles(workDir, dirs, watched, known)) ignored.add(file);
  const pending = (result.rules ?? [])
    .filter((rule) => !rule.applied && (rule.kind === 'glob' || rule.reason.startsWith('nested')))
    .map((rule) => rule.relativePath);
  const index: HookIndex = {
    basenames: watched,
    files,
    ignored: [...ignored].sort(),
    candidates: [...config.instructions.candidates],
    ...(pending.length === 0 ? {} : { rules: pending, ruleScopes: scopes }),
  };
  return {
    version: 1,
    agent,
    workDir,
    updated: new Date().toISOString(),
    fingerprint: opened.fingerprint,
    index,
    disclosure,
  };
}

/** The touched directories strictly inside the work dir (the work dir itself never activates). */
/**
 * The pending rules (glob rules and nested owners' always rules not applied by the resolution) as
 * the quick check tests them: owner directory and the globs' patterns (docs/hooks.md).
 */
async function ruleScopes(resolver: Resolver, result: ResolveResult): Promise<RuleScope[]> {
  const scopes: RuleScope[] = [];
  for (const line of result.rules ?? []) {
    if (line.applied || (line.kind !== 'glob' && !line.reason.startsWith('nested'))) continue;
    for (const rule of await resolver.rule(line.relativePath)) {
      if (rule.path !== line.path) continue;
      const owner = path.relative(resolver.workDir, rule.ownerDir).split(path.sep).join('/');
      const globs = rule.kind === 'glob' ? (recallCompiledGlobs(rule) ?? null) : [];
      if (globs === null) return [];
      scopes.push({ path: rule.relativePath, owner, globs: globs.map((glob) => glob.spec()) });
    }
  }
  return scopes;
}

function warn(diagnostics: readonly Diagnostic[], warnings: string[]): void {
  for (const diagnostic of diagnostics)
    if (diagnostic.level === 'warn') warnings.push(`${diagnostic.message} [${diagnostic.code}]`);
}

function describe(error: unknown): string {
  if (error instanceof StateStoreError) return error.message;
  if (typeof error === 'object' && error !== null && (error as { name?: string }).name === 'CtxfilesError')
    return (error as Error).message.split('\n').join(' ');
  return error instanceof Error ? error.message : String(error);
}
