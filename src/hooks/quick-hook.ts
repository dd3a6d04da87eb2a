import fs from 'node:fs';
import path from 'node:path';
import type { HostContext } from '../api/host-layers.js';
import { BUILT_IN_TOOLS } from '../session/tool-table.js';
import { touchedDirectories, touchedPaths, type ToolEvent } from '../session/triggers.js';
import { formatHookOutput, parseHookEvent, type HookEvent } from './hook-event.js';
import { asHookState, configFingerprint, nothingDue, type HookState } from './hook-state.js';
import { readStateFile, sessionFileName, stateDirectory, stateFile, type StateFile } from './state-store.js';
import { diskKindOf, type ShellPathsOptions } from './shell-paths.js';
import { completeContext, contextKey, contextSignature } from './host-request.js';
import { toToolEvents, type HookAgent } from './tool-names.js';
import { homeDirectory } from '../fs/home-dir.js';
import type { HookProtocol } from '../registry/host.js';
import type { HostRegistry } from '../registry/registry.js';
import { sameStrings } from '../shared/same-strings.js';

// The start of every hook event, and the quick check of a tool call with nothing due: what
// `ctxfiles hook` runs before it needs the config, a resolver or the session's lock. Its bundle
// holds only this (scripts/bundle-cli.mjs): a tool call with nothing due, the common case, loads
// nothing else; any other event goes on to `runHook` (src/hooks/run-hook.ts), which starts with
// the same steps.

/** Options of {@link runHook}. */
export interface RunHookOptions {
  /** The host whose hook this is (`ctxfiles hook <id>`). */
  readonly agent: HookAgent;
  /** Its hook protocol, from the host registry the CLI hands down. */
  readonly protocol: HookProtocol;
  /** The host registry (presets, formats and the host's own view, for the full path). */
  readonly hosts: HostRegistry;
  /** What the agent wrote to the hook's stdin. */
  readonly input: string;
  /** The work dir; default: the host's project dir variable (`CLAUDE_PROJECT_DIR`), else the event's `cwd`, else `processCwd`. */
  readonly cwd?: string | undefined;
  /** An explicit config file (relative to the work dir). */
  readonly configFile?: string | undefined;
  /** A preset the config is merged over (`--preset`, docs/presets.md). */
  readonly preset?: string | undefined;
  /**
   * The ctxfiles agent the session resolves for (`--agent`): its layer and the rules scoped to it
   * (docs/rules.md, "Agent scope"). Not the host, which is `agent`.
   */
  readonly requestAgent?: string | undefined;
  /** The trusted user config (`--user-config`), absolute; default: the usual place (docs/config.md). */
  readonly userConfig?: string | undefined;
  /** The state directory; default: {@link stateDirectory} of `env`. */
  readonly stateDir?: string | undefined;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly processCwd: string;
  /** Default: `os.homedir()`. */
  readonly homeDir?: string;
  /** Read shell commands for the paths they name (`--shell-paths`, docs/hooks.md). Default: false. */
  readonly shellPaths?: boolean | undefined;
}

/** What the hook prints: `stdout` exactly, and each of `warnings` as one stderr line. */
export interface HookAnswer {
  readonly stdout: string;
  readonly warnings: readonly string[];
}

/** The options with the event's subagent and mode (docs/subagents.md). */
export type Scoped = Readonly<RunHookOptions> & { readonly context: HostContext };

/** An event that needs the hook's work, with where it happens. */
export interface HookStart {
  readonly event: Exclude<HookEvent, { readonly kind: 'other' }>;
  readonly workDir: string;
  readonly homeDir: string;
  readonly configFile: string | undefined;
  readonly state: StateFile;
  readonly scoped: Scoped;
}

/** The answer that adds nothing, with the warnings so far. */
export function quietAnswer(
  protocol: HookProtocol,
  warnings: string[],
  kind: 'session-start' | 'after-tool' = 'after-tool',
): HookAnswer {
  return { stdout: formatHookOutput(protocol, kind, ''), warnings };
}

/**
 * The first steps of every event: the event parsed, the work dir and the session's state file.
 * Returns the answer itself when there is nothing to do (a broken or foreign event, an unusable
 * work dir), each problem pushed to `warnings`.
 */
export function startHook(options: Readonly<RunHookOptions>, warnings: string[]): HookStart | HookAnswer {
  const { agent, protocol } = options;
  const event = parseHookEvent(protocol, options.input);
  if ('error' in event) {
    warnings.push(event.error);
    return quietAnswer(protocol, warnings);
  }
  if (event.kind === 'other') return quietAnswer(protocol, warnings);
  // A host that ignores the start's answer gets the start's text with the first tool call instead.
  if (event.kind === 'session-start' && protocol.startWithFirstTool === true)
    return quietAnswer(protocol, warnings, 'session-start');
  const workDir = usableWorkDir(options, event.cwd, warnings);
  if (workDir === undefined)
    return quietAnswer(protocol, warnings, event.kind === 'session-start' ? 'session-start' : 'after-tool');
  const homeDir = options.homeDir ?? homeDirectory();
  const configFile = options.configFile === undefined ? undefined : path.resolve(workDir, options.configFile);
  const dir = options.stateDir ?? stateDirectory(options.env, homeDir);
  const state = stateFile(dir, sessionFileName(agent, contextKey(event.sessionId, event.context), workDir));
  const scoped: Scoped = { ...options, context: completeContext(state, event.context) };
  return { event, workDir, homeDir, configFile, state, scoped };
}

/**
 * A tool call's quick check (docs/hooks.md): the answer that adds nothing when the call touched
 * nothing inside the work dir, or when the stored state shows that nothing is due; else the tool
 * events and the touched directories, for the full path. May throw (a state dir that cannot be
 * read): the caller answers with a warning.
 */
export function checkToolCall(
  start: HookStart & { readonly event: { readonly kind: 'after-tool' } },
  warnings: string[],
): HookAnswer | { readonly toolEvents: readonly ToolEvent[]; readonly dirs: readonly string[] } {
  const { event, workDir, homeDir, configFile, state, scoped } = start;
  const { agent, protocol } = scoped;
  const shell = scoped.shellPaths === true ? shellContext(workDir, event.cwd) : undefined;
  const toolEvents = toToolEvents(protocol, event.toolName, event.toolInput, event.ok, shell);
  const dirs = touchedInside(toolEvents, workDir);
  const rearmed = startDue(state, protocol);
  if (dirs.length === 0 && !rearmed) return quietAnswer(protocol, warnings);
  const files = touchedFiles(toolEvents, workDir);
  const stored = usableDirectory(state.dir) ? readStored(state, workDir, agent, warnings) : null;
  if (
    !rearmed &&
    stored !== null &&
    sameStrings(stored.fingerprint, fingerprintOf(workDir, configFile, homeDir, scoped)) &&
    nothingDue(stored, dirs, files)
  )
    return quietAnswer(protocol, warnings);
  return { toolEvents, dirs };
}

/**
 * The hook's answer when it needs neither the config nor a resolver: a broken or foreign event, a
 * tool call that touched nothing inside the work dir, or one with nothing due. `undefined` for
 * anything else, and for anything that went wrong here: {@link runHook} then answers, from the
 * start, exactly as it would have.
 */
export function quickHook(options: Readonly<RunHookOptions>): HookAnswer | undefined {
  const warnings: string[] = [];
  try {
    const start = startHook(options, warnings);
    if (!('event' in start)) return start;
    if (start.event.kind !== 'after-tool') return undefined;
    const checked = checkToolCall({ ...start, event: start.event }, warnings);
    return 'stdout' in checked ? checked : undefined;
  } catch {
    return undefined;
  }
}

/** The marker of a compaction not yet followed by a delivery (beside the state file). */
export function rearmFile(state: StateFile): string {
  return `${state.file}.due`;
}

/**
 * Whether the next tool call brings the start's text (again): a compaction since the last delivery,
 * on a host whose system prompt does not keep it (`startSurvivesCompaction`); or, on a host that
 * ignores its start event's answer (`startWithFirstTool`), a session with no state yet.
 */
export function startDue(state: StateFile, protocol: HookProtocol): boolean {
  if (protocol.startWithFirstTool === true && !fs.existsSync(state.file)) return true;
  return protocol.startSurvivesCompaction !== true && fs.existsSync(rearmFile(state));
}

/** The stored state of this session, or `null` (absent, or corrupt with a warning). */
export function readStored(
  state: StateFile,
  workDir: string,
  agent: string,
  warnings: string[],
): HookState | null {
  const read = readStateFile(state);
  if (read.kind === 'absent') return null;
  const value = read.kind === 'ok' ? asHookState(read.value) : null;
  if (value === null || value.workDir !== workDir || value.agent !== agent) {
    const reason = read.kind === 'corrupt' ? read.reason : 'it does not have the expected shape';
    warnings.push(`the session state ${state.file} is ignored: ${reason}; a fresh session starts`);
    return null;
  }
  return value;
}

/** The work dir's real path, or `undefined` with a warning when it cannot be used. */
function usableWorkDir(
  options: Readonly<RunHookOptions>,
  eventCwd: string | undefined,
  warnings: string[],
): string | undefined {
  try {
    return fs.realpathSync(path.resolve(options.processCwd, chooseWorkDir(options, eventCwd)));
  } catch (error) {
    warnings.push(`the work dir cannot be used (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
    return undefined;
  }
}

/**
 * `--cwd`, else the host's project dir variable (Claude Code's `CLAUDE_PROJECT_DIR`), else the event's `cwd`. Claude Code reports the
 * shell's current directory as `cwd`, which moves with `cd`; the project dir keeps one session
 * state and one manifest per project.
 */
function chooseWorkDir(options: Readonly<RunHookOptions>, eventCwd: string | undefined): string {
  if (options.cwd !== undefined) return options.cwd;
  const variable = options.protocol.projectDirEnv;
  const projectDir = variable === undefined ? undefined : options.env[variable];
  if (projectDir !== undefined && path.isAbsolute(projectDir)) return projectDir;
  return eventCwd ?? '.';
}

/** False when the state dir is absent (nothing stored yet) or not a real directory (refused later). */
function usableDirectory(dir: string): boolean {
  try {
    return fs.lstatSync(dir, { throwIfNoEntry: false })?.isDirectory() === true;
  } catch {
    return false;
  }
}

/** The config files' signatures, and the preset named on the command line. */
export function fingerprintOf(
  workDir: string,
  configFile: string | undefined,
  homeDir: string,
  {
    preset,
    requestAgent,
    userConfig,
    context,
  }: Pick<RunHookOptions, 'preset' | 'requestAgent' | 'userConfig'> & { readonly context?: HostContext },
): string[] {
  const signatures = configFingerprint(workDir, configFile, homeDir);
  if (userConfig !== undefined) signatures.push(`user-config ${userConfig}`);
  if (preset !== undefined) signatures.push(`preset ${preset}`);
  // Another agent resolves other rules: its session state does not carry over.
  if (requestAgent !== undefined) signatures.push(`agent ${requestAgent}`);
  // Another subagent or mode may resolve other layers: the full path decides once.
  if (context !== undefined) signatures.push(...contextSignature(context));
  return signatures;
}

/** The files the tool calls touched (absolute). */
function touchedFiles(events: readonly ToolEvent[], workDir: string): string[] {
  const files = new Set<string>();
  for (const event of events)
    for (const file of touchedPaths(event, workDir, BUILT_IN_TOOLS).files) files.add(file);
  return [...files];
}

/**
 * Where a shell command's words are looked up: the event's directory (the shell's, for Claude
 * Code), and the disk, where only a path with no symlink on the way that is a file or a directory
 * counts.
 */
function shellContext(workDir: string, eventCwd: string | undefined): ShellPathsOptions {
  let cwd = workDir;
  try {
    if (eventCwd !== undefined) cwd = fs.realpathSync.native(path.resolve(workDir, eventCwd));
  } catch {
    // A directory gone since: words resolve against the work dir.
  }
  return { cwd, root: workDir, kindOf: diskKindOf };
}

/** The touched directories strictly inside the work dir (the work dir itself never activates). */
function touchedInside(events: readonly ToolEvent[], workDir: string): string[] {
  const dirs = new Set<string>();
  for (const event of events)
    for (const dir of touchedDirectories(event, workDir))
      if (dir.startsWith(`${workDir}${path.sep}`) && !dir.split(path.sep).includes('..')) dirs.add(dir);
  return [...dirs];
}
