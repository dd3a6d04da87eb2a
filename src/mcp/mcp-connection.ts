import path from 'node:path';
import type { Resolver, ResolveResult, Session } from '../api/create-resolver.js';
import type { ToolReport } from '../api/open-session.js';
import type { ToolEvent } from '../session/triggers.js';
import type { ResolveRequest } from '../api/select-request.js';
import type { NestedFile } from '../discover/nested-index.js';
import type { Diagnostic } from '../errors.js';
import { isInside } from '../fs/contain.js';
import type { FileSystem } from '../fs/file-system.js';
import type { FormatLookup } from '../render/render-types.js';
import { explain, formatExplain } from '../prompt/explain.js';
import { loadTokenCounter } from '../render/count-tokens.js';
import { escapeFramePath } from '../render/escape.js';
import { renderSessionFrame } from '../render/render-session-frame.js';
import { baselineRecords } from '../session/change-tracking.js';
import type { DisclosureState } from '../session/disclosure-state.js';
import { createInstructionResources, shownPath, type InstructionResources } from './instruction-resources.js';
import { NO_RULES, type RuleSource } from './rule-source.js';
import { MAX_RULE_NAME_LENGTH, TOOL_ALIASES, TOOL_DEFINITIONS } from './tool-definitions.js';
import { containToolPath, type ToolPath } from './tool-path.js';
import { homeDirectory } from '../fs/home-dir.js';
import type { HostView } from '../api/host-view.js';

/** A tool's answer, in the shape of an MCP `tools/call` result. */
export interface ToolResult {
  readonly content: ReadonlyArray<{ readonly type: 'text'; readonly text: string }>;
  /** Set when the call was refused (bad arguments, a path outside the work dir, an unknown rule). */
  readonly isError?: true;
}

/** Options of {@link createMcpConnection}. */
export interface McpConnectionOptions {
  readonly resolver: Resolver;
  /** The host formats (their session frames), handed down from the host registry. */
  readonly formats: FormatLookup;
  /** The filesystem the resolver reads (resources and tool paths go through it too). */
  readonly fs: FileSystem;
  /** Where `list_rules` and `get_rule` look. Default: {@link NO_RULES}. */
  readonly rules?: RuleSource;
  /** The agent or flow step to resolve for. Default: none. */
  readonly request?: ResolveRequest;
  /** For `~` in displayed paths. Default: `os.homedir()`. */
  readonly homeDir?: string;
  /**
   * The view of the host the server runs in (`ctxfiles mcp --host`, src/api/host-view.ts): what it
   * shows by itself is never returned. Absent: everything that applies is returned once.
   */
  readonly view?: HostView;
  /**
   * The once-only state shared with the host's hook (docs/mcp.md, "With the hook"); absent: the
   * connection keeps its own.
   */
  readonly shared?: SharedDisclosure;
  /** Notes about ctxfiles itself (a tool input it could not read): never in a tool result. */
  readonly onNote?: (line: string) => void;
}

/** A once-only state kept outside the connection, as the hooks keep it (src/hooks/shared-session.ts). */
export interface SharedDisclosure {
  /** Runs `step` with the stored state (`null`: none to share) and stores the state it returns. */
  withDisclosure<T>(
    step: (disclosure: unknown | null) => Promise<{ readonly value: T; readonly disclosure: unknown }>,
  ): Promise<T>;
}

/**
 * The tools the connection reports its calls as: names no tool table uses, so a preset's table
 * (Continue's `Read` with `filepath`) cannot change how they read.
 */
const CALL_TOOLS = Object.freeze({
  'ctxfiles:mcp-read': Object.freeze({ as: 'read' as const, pathKeys: Object.freeze(['file_path']) }),
  'ctxfiles:mcp-list': Object.freeze({ as: 'list' as const, pathKeys: Object.freeze(['path']) }),
});

/** The state and handlers of one MCP connection. Independent of the MCP SDK. */
export interface McpConnection {
  /** Runs a tool. Never rejects: every fault is an error result. */
  callTool(name: string, args: unknown): Promise<ToolResult>;
  /** The instruction files as MCP resources. */
  readonly resources: InstructionResources;
}

/** What the tool handlers of one connection share. */
interface ConnectionState {
  readonly resolver: Resolver;
  readonly fs: FileSystem;
  readonly workDir: string;
  readonly rules: RuleSource;
  readonly request: ResolveRequest;
  /** A file in the format's own session frame (docs/formats.md#session-frames). */
  readonly frame: (file: { path: string; text: string }) => string;
  /** The disclosure session, opened by the first `instructions_for_path`. */
  session: Session | null;
  /** True once the resolved files went out (with the first `instructions_for_path`). */
  baselineSent: boolean;
  readonly view: HostView | undefined;
  readonly shared: SharedDisclosure | undefined;
  readonly onNote: (line: string) => void;
}

/**
 * Creates the per-connection state of `ctxfiles mcp`: one disclosure session (opened by the first
 * `instructions_for_path`), so each file is returned at most once per connection and
 * `contextDiscovery.maxSessionBytes` bounds everything returned.
 */
export function createMcpConnection(options: Readonly<McpConnectionOptions>): McpConnection {
  const { resolver, fs } = options;
  const { workDir } = resolver;
  const request = options.request ?? {};
  const homeDir = options.homeDir ?? homeDirectory();
  const context = { workDir, homeDir, wording: resolver.config.wording, formats: options.formats };
  // The project-wide files of the first answer use the same frame as the nested files the session
  // adds after them: the format's own session frame (docs/formats.md#session-frames).
  const format = request.format ?? resolver.config.format;
  const state: ConnectionState = {
    resolver,
    fs,
    workDir,
    rules: options.rules ?? NO_RULES,
    request,
    // The resolved files and the rules asked for by name apply everywhere: no directory named.
    frame: (file) => renderSessionFrame(format, { path: file.path, dir: workDir, text: file.text }, context),
    session: null,
    baselineSent: false,
    view: options.view,
    shared: options.shared,
    onNote: options.onNote ?? (() => undefined),
  };
  let queue: Promise<unknown> = Promise.resolve();
  return {
    callTool(name, args) {
      // One call at a time: what a call returns depends on what the calls before it returned.
      const answer = queue.then(() => runTool(state, name, args));
      queue = answer.then(
        () => undefined,
        () => undefined,
      );
      return answer;
    },
    resources: createInstructionResources({ resolver, fs, request }),
  };
}

/** The session's starting point: the resolved files count as shown, against the byte cap. */
function initialState(result: ResolveResult, frames: readonly string[]): DisclosureState {
  const bytes = frames.reduce((sum, text, i) => sum + Buffer.byteLength(text, 'utf8') + (i > 0 ? 1 : 0), 0);
  const tracked = baselineRecords(result.files);
  return { version: 1, injected: [], skipped: [], bytes, exhausted: false, tracked };
}

async function instructionsForPath(
  state: ConnectionState,
  args: Record<string, unknown>,
): Promise<ToolResult> {
  const target = pathArgument(state, args, true);
  if (!target.ok) return failure(target.message);
  const result = await state.resolver.resolve(state.request);
  const event: ToolEvent = target.isDirectory
    ? { tool: 'ctxfiles:mcp-list', input: { path: target.path }, ok: true }
    : { tool: 'ctxfiles:mcp-read', input: { file_path: target.path }, ok: true };
  const frames =
    state.shared === undefined
      ? await answerAlone(state, result, event)
      : await state.shared.withDisclosure((stored) =>
          stored === null
            ? answerAlone(state, result, event).then((value) => ({ value, disclosure: null }))
            : answerShared(state, stored, event),
        );
  const text = frames.length > 0 ? frames.join('\n') : nothingNew(state, target, result);
  return { content: [{ type: 'text', text }] };
}

/** Reports the call to the connection's own session, opened (with the resolved files) by the first call. */
async function answerAlone(
  state: ConnectionState,
  result: ResolveResult,
  event: ToolEvent,
): Promise<string[]> {
  const frames: string[] = [];
  if (state.session === null) {
    // What the host loads itself at start is not returned (DESIGN §13).
    const own = state.view === undefined ? new Set<string>() : await state.view.start();
    const files = result.files.filter((file) => !own.has(file.path) && !own.has(file.realPath));
    frames.push(...files.map(state.frame).filter((text) => text !== ''));
    state.session = await openConnectionSession(state, initialState(result, frames));
    state.baselineSent = true;
  }
  report(state, await state.session.report(event), frames);
  return frames;
}

/**
 * Reports the call to the session the host's hook keeps: the hook delivered the start's files, and
 * what either of them delivers the other does not deliver again.
 */
async function answerShared(
  state: ConnectionState,
  stored: unknown,
  event: ToolEvent,
): Promise<{ value: string[]; disclosure: unknown }> {
  const session = await openConnectionSession(state, stored);
  state.session = session;
  state.baselineSent = true;
  const frames: string[] = [];
  report(state, await session.report(event), frames);
  return { value: frames, disclosure: session.state() };
}

function openConnectionSession(state: ConnectionState, disclosure: unknown): Promise<Session> {
  const view = state.view === undefined ? {} : { inView: state.view.test };
  return state.resolver.openSession({ ...state.request, ...view, state: disclosure, tools: CALL_TOOLS });
}

/** The text of a call goes to the frames; notes about ctxfiles itself to `onNote`, never to the model. */
function report(state: ConnectionState, outcome: ToolReport, frames: string[]): void {
  if (outcome.text !== '') frames.push(outcome.text);
  const notes = outcome.diagnostics.filter((d) => d.level !== 'debug');
  if (notes.length > 0) state.onNote(describeNotes(notes));
}

function nothingNew(state: ConnectionState, target: ToolPath, result: ResolveResult): string {
  const { workDir, resolver } = state;
  const applying = [
    ...result.files.map((file) => file.path),
    ...governing(result.nested, target).map((file) => file.path),
  ];
  const cap = state.session?.state().exhausted
    ? ` This connection reached contextDiscovery.maxSessionBytes (${resolver.config.contextDiscovery.maxSessionBytes} bytes): nothing more is returned on it.`
    : '';
  const relative = oneLine(target.relative);
  if (applying.length === 0) return `No instruction files apply to ${relative}.${cap}`;
  return `Nothing new applies to ${relative}: the instruction files that govern it (${applying.map((file) => oneLine(shownPath(workDir, file))).join(', ')}) were already returned on this connection or cannot be sent (explain_instructions says which).${cap}`;
}

async function explainTool(state: ConnectionState, args: Record<string, unknown>): Promise<ToolResult> {
  const { resolver, request, rules, workDir } = state;
  const target = args['path'] === undefined ? null : pathArgument(state, args, true);
  if (target !== null && !target.ok) return failure(target.message);
  const result = await resolver.resolve(request);
  const count = await loadTokenCounter();
  const bytes = Buffer.byteLength(result.text, 'utf8');
  const prompt = {
    text: result.text,
    sections:
      result.text === ''
        ? []
        : [{ name: 'project' as const, text: result.text, bytes, tokens: count(result.text) }],
  };
  const lines = [formatExplain(await explain(prompt, result), workDir).trimEnd()];
  if (target !== null) lines.push('', ...connectionLines(state, result, target));
  const catalog = await rules.catalog();
  lines.push(
    '',
    'Rules:',
    catalog.length === 0 ? `  ${rules.emptyNote}` : `  ${catalog.length} (see list_rules)`,
  );
  // Paths and messages name repository files: each line is escaped like a frame's path, so a
  // directory named `</system-reminder>…` cannot close or open a frame (docs/security.md, #35.9).
  const escaped = lines.join('\n').split('\n').map(modelLine);
  return { content: [{ type: 'text', text: `${escaped.join('\n')}\n` }] };
}

/** `explain_instructions` for a path: what of the files that govern it this connection returned. */
function connectionLines(state: ConnectionState, result: ResolveResult, target: ToolPath): string[] {
  const { workDir } = state;
  const disclosed = state.session?.state();
  const injected = new Set(disclosed?.injected.map((record) => record.path));
  const skipped = new Set(disclosed?.skipped);
  const lines = [`For ${target.relative} on this connection:`];
  const rows: Array<[string, string]> = result.files.map((file) => [
    state.baselineSent ? 'returned' : 'not returned yet',
    `${shownPath(workDir, file.path)} (${file.layer} layer: applies everywhere)`,
  ]);
  for (const file of governing(result.nested, target)) {
    const status = injected.has(file.relativePath)
      ? 'returned'
      : skipped.has(file.relativePath)
        ? 'cannot be sent'
        : 'not returned yet';
    rows.push([status, `${file.relativePath} (nested: governs ${shownPath(workDir, file.ownerDir)}/)`]);
  }
  if (rows.length === 0) lines.push('  (no instruction file applies)');
  for (const [status, what] of rows) lines.push(`  ${status.padEnd(17)}${what}`);
  return lines;
}

async function listRules(rules: RuleSource): Promise<ToolResult> {
  const catalog = await rules.catalog();
  if (catalog.length === 0) return { content: [{ type: 'text', text: rules.emptyNote }] };
  // Names, globs and descriptions come from rule files: each stays on its line, and no frame tag,
  // control or direction-changing character reaches the client raw (docs/security.md, #26.7).
  const lines = catalog.map((rule) => {
    const globs = rule.globs.length === 0 ? '' : ` [globs: ${rule.globs.map(oneLine).join(', ')}]`;
    const description = rule.description === '' ? '' : `: ${oneLine(rule.description)}`;
    return `- ${oneLine(rule.name)} (${rule.kind})${globs}${description}`;
  });
  return { content: [{ type: 'text', text: `${catalog.length} rules:\n${lines.join('\n')}` }] };
}

async function getRule(state: ConnectionState, args: Record<string, unknown>): Promise<ToolResult> {
  const { rules } = state;
  const name = args['name'];
  if (typeof name !== 'string' || name.trim() === '')
    return failure('"name" is required: a rule name as list_rules prints it');
  if (name.length > MAX_RULE_NAME_LENGTH)
    return failure(`"name" is longer than ${MAX_RULE_NAME_LENGTH} characters`);
  const found = await rules.byName(name);
  if (found.length === 0) {
    const catalog = await rules.catalog();
    return failure(
      `No rule named ${JSON.stringify(name)}. ${catalog.length === 0 ? rules.emptyNote : 'list_rules shows the names.'}`,
    );
  }
  return { content: [{ type: 'text', text: found.map(state.frame).join('\n') }] };
}

function pathArgument(state: ConnectionState, args: Record<string, unknown>, required: boolean) {
  const value = args['path'];
  if (typeof value !== 'string')
    return {
      ok: false as const,
      message: required
        ? '"path" is required: a file or directory path (a string)'
        : '"path" must be a string',
    };
  return containToolPath(state.fs, state.workDir, value);
}

/** Runs one tool call: its name and arguments checked, then its handler. Never rejects. */
async function runTool(state: ConnectionState, name: string, args: unknown): Promise<ToolResult> {
  try {
    if (args !== undefined && args !== null && (typeof args !== 'object' || Array.isArray(args)))
      return failure('the arguments must be a JSON object');
    const record = (args ?? {}) as Record<string, unknown>;
    const definition = toolDefinition(name, record);
    if (typeof definition === 'string') return failure(definition);
    switch (definition.name) {
      case 'instructions_for_path':
        return await instructionsForPath(state, record);
      case 'list_rules':
        return await listRules(state.rules);
      case 'get_rule':
        return await getRule(state, record);
      case 'explain_instructions':
        return await explainTool(state, record);
    }
  } catch (error) {
    // A configuration fault (a flow file, an unknown agent) is the caller's to see, not a crash.
    return failure(`ctxfiles could not answer: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** The definition of the tool `name` (or an alias) taking the keys of `args`; else why not. */
function toolDefinition(
  name: string,
  args: Record<string, unknown>,
): (typeof TOOL_DEFINITIONS)[number] | string {
  const listed = Object.hasOwn(TOOL_ALIASES, name) ? TOOL_ALIASES[name] : name;
  const definition = TOOL_DEFINITIONS.find((tool) => tool.name === listed);
  if (definition === undefined)
    return `Unknown tool ${JSON.stringify(String(name).slice(0, 100))}. The tools are: ${TOOL_DEFINITIONS.map((tool) => tool.name).join(', ')}.`;
  const unknown = Object.keys(args).filter((key) => !Object.hasOwn(definition.inputSchema.properties, key));
  if (unknown.length > 0)
    return `${name} takes ${Object.keys(definition.inputSchema.properties).join(', ') || 'no arguments'}; unknown: ${unknown
      .slice(0, 5)
      .map((key) => JSON.stringify(key.slice(0, 100)))
      .join(', ')}`;
  return definition;
}

/** Nested files whose owner directory holds the path (outermost first), as a session would inject them. */
function governing(nested: readonly NestedFile[], target: ToolPath): NestedFile[] {
  const dir = target.isDirectory ? target.path : path.dirname(target.path);
  return nested
    .filter((file) => isInside(file.ownerDir, dir))
    .sort((a, b) => a.ownerDir.length - b.ownerDir.length);
}

function failure(message: string): ToolResult {
  // A refusal can name a link's target or a path as given: escaped like any other answer line.
  return { content: [{ type: 'text', text: message.split('\n').map(modelLine).join('\n') }], isError: true };
}

function describeNotes(notes: readonly Diagnostic[]): string {
  return `ctxfiles notes:\n${notes.map((note) => `- ${oneLine(note.message)} [${note.code}]`).join('\n')}`;
}

/**
 * One line of an answer built by ctxfiles (explain) whose fields come from repository files: as
 * {@link oneLine}, without joining lines (the line was split at LF already).
 */
function modelLine(line: string): string {
  return escapeFramePath(line).replace(INVISIBLE, hexEscape);
}

/** Invisible, direction-changing and line-separating characters a model or a reader might act on. */
const INVISIBLE = /[\u200b-\u200f\u202a-\u202e\u2028\u2029\u2060-\u2069\ufeff]/g;
const hexEscape = (char: string) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;

/**
 * Text from a repository file on one line of a tool answer: line breaks become a space, control
 * characters and the `<` of a `system-reminder` tag are escaped as in a session frame, and
 * invisible or direction-changing characters (U+200B-U+200F, U+202A-U+202E, U+2060-U+2069, U+FEFF)
 * are written as `\uXXXX`.
 */
function oneLine(text: string): string {
  return modelLine(text.replace(/\s*[\r\n\u0085\u2028\u2029]+\s*/g, ' ').trim());
}
