import os from 'node:os';
import path from 'node:path';
import type { Resolver, ResolveResult, ResolvedFile, Session } from '../api/create-resolver.js';
import type { ResolveRequest } from '../api/select-request.js';
import type { NestedFile } from '../discover/nested-index.js';
import type { Diagnostic } from '../errors.js';
import { isInside } from '../fs/contain.js';
import type { FileSystem } from '../fs/file-system.js';
import { readInstruction } from '../fs/read-instruction.js';
import { explain, formatExplain } from '../prompt/explain.js';
import { loadTokenCounter } from '../render/count-tokens.js';
import { renderEvent } from '../render/render-events.js';
import { renderInjection } from '../render/render-injection.js';
import { MAX_INLINE_BYTES } from '../resolve/read-context-file.js';
import type { DisclosureState, TrackedRecord } from '../session/disclosure.js';
import { resourceUri } from './resource-uri.js';
import { NO_RULES, type RuleSource } from './rule-source.js';
import { MAX_RULE_NAME_LENGTH, TOOL_DEFINITIONS } from './tool-definitions.js';
import { containToolPath, type ToolPath } from './tool-path.js';

/** A tool's answer, in the shape of an MCP `tools/call` result. */
export interface ToolResult {
  readonly content: ReadonlyArray<{ readonly type: 'text'; readonly text: string }>;
  /** Set when the call was refused (bad arguments, a path outside the work dir, an unknown rule). */
  readonly isError?: true;
}

/** One instruction file in play, as `resources/list` shows it. */
export interface ResourceEntry {
  readonly uri: string;
  readonly name: string;
  readonly description: string;
  readonly mimeType: string;
  readonly size: number;
}

/** The outcome of {@link McpConnection.readResource}. */
export type ResourceRead =
  | { readonly ok: true; readonly uri: string; readonly mimeType: string; readonly text: string }
  | { readonly ok: false; readonly message: string };

/** Options of {@link createMcpConnection}. */
export interface McpConnectionOptions {
  readonly resolver: Resolver;
  /** The filesystem the resolver reads (resources and tool paths go through it too). */
  readonly fs: FileSystem;
  /** Where `list_rules` and `get_rule` look. Default: {@link NO_RULES}. */
  readonly rules?: RuleSource;
  /** The agent or flow step to resolve for. Default: none. */
  readonly request?: ResolveRequest;
  /** For `~` in displayed paths. Default: `os.homedir()`. */
  readonly homeDir?: string;
}

/** The state and handlers of one MCP connection. Independent of the MCP SDK. */
export interface McpConnection {
  /** Runs a tool. Never rejects: every fault is an error result. */
  callTool(name: string, args: unknown): Promise<ToolResult>;
  /** Every instruction file in play: the resolved files, then the nested files. */
  listResources(): Promise<readonly ResourceEntry[]>;
  /** Reads a listed resource; `null` when the URI is not in the list (nothing is read then). */
  readResource(uri: string): Promise<ResourceRead | null>;
  /**
   * With change tracking on, compares each listed file's size and mtime with the last check and,
   * when one changed, re-resolves. Returns the URIs that changed, appeared or disappeared (empty
   * on the first call, which only records, and always when tracking is off).
   */
  checkForChanges(): Promise<readonly string[]>;
  /** `instructions.trackChanges` of the config. */
  readonly trackChanges: boolean;
}

interface Listed extends ResourceEntry {
  /** The file to read. */
  readonly file: string;
  readonly maxBytes: number;
  /** Nested files must still be reached without a symlink, as the disclosure engine requires. */
  readonly nested: boolean;
}

/**
 * Creates the per-connection state of `ctxfiles mcp`: one disclosure session (opened by the first
 * `instructions_for_path`), so each file is returned at most once per connection and
 * `contextDiscovery.maxSessionBytes` bounds everything returned.
 */
export function createMcpConnection(options: Readonly<McpConnectionOptions>): McpConnection {
  const { resolver, fs } = options;
  const { workDir } = resolver;
  const rules = options.rules ?? NO_RULES;
  const request = options.request ?? {};
  const homeDir = options.homeDir ?? os.homedir();
  const trackChanges = resolver.config.instructions.trackChanges;
  const context = { workDir, homeDir, wording: resolver.config.wording };
  let session: Session | null = null;
  let baselineSent = false;
  let signature: Map<string, string> | null = null;
  let queue: Promise<unknown> = Promise.resolve();

  const frame = (file: { path: string; text: string }) =>
    (request.format ?? resolver.config.format) === 'opencode'
      ? renderInjection([file])
      : renderEvent({ kind: 'new', path: file.path, dir: path.dirname(file.path), text: file.text }, context);

  /** The session's starting point: the resolved files count as shown, against the byte cap. */
  function initialState(result: ResolveResult, frames: readonly string[]): DisclosureState {
    const bytes = frames.reduce((sum, text, i) => sum + Buffer.byteLength(text, 'utf8') + (i > 0 ? 1 : 0), 0);
    const tracked = result.files.map((file): TrackedRecord => ({
      path: file.path,
      sha256: file.sha256,
      size: file.bytes,
      mtimeMs: file.mtimeMs,
      scope: file.source === 'chain' ? path.dirname(file.path) : null,
      removed: false,
    }));
    return { version: 1, injected: [], skipped: [], bytes, exhausted: false, tracked };
  }

  async function instructionsForPath(args: Record<string, unknown>): Promise<ToolResult> {
    const target = pathArgument(args, true);
    if (!target.ok) return failure(target.message);
    const result = await resolver.resolve(request);
    const frames: string[] = [];
    if (session === null) {
      frames.push(...result.files.map(frame));
      session = await resolver.openSession({ ...request, state: initialState(result, frames) });
      baselineSent = true;
    }
    const before = session.diagnostics.length;
    const injected = await session.afterTool(
      target.isDirectory
        ? { tool: 'ls', input: { path: target.path }, ok: true }
        : { tool: 'read', input: { file_path: target.path }, ok: true },
    );
    if (injected !== '') frames.push(injected);
    const notes = session.diagnostics.slice(before).filter((d) => d.level !== 'debug');
    const content = [
      { type: 'text' as const, text: frames.length > 0 ? frames.join('\n') : nothingNew(target, result) },
    ];
    if (notes.length > 0) content.push({ type: 'text', text: describeNotes(notes) });
    return { content };
  }

  function nothingNew(target: ToolPath, result: ResolveResult): string {
    const state = session?.state();
    const applying = [
      ...result.files.map((file) => file.path),
      ...governing(result.nested, target).map((file) => file.path),
    ];
    const cap = state?.exhausted
      ? ` This connection reached contextDiscovery.maxSessionBytes (${resolver.config.contextDiscovery.maxSessionBytes} bytes): nothing more is returned on it.`
      : '';
    if (applying.length === 0) return `No instruction files apply to ${target.relative}.${cap}`;
    return `Nothing new applies to ${target.relative}: the instruction files that govern it (${applying.map((file) => shown(file)).join(', ')}) were already returned on this connection or cannot be sent (the explain tool says which).${cap}`;
  }

  async function explainTool(args: Record<string, unknown>): Promise<ToolResult> {
    const target = args['path'] === undefined ? null : pathArgument(args, true);
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
    if (target !== null) {
      const state = session?.state();
      const injected = new Set(state?.injected.map((record) => record.path));
      const skipped = new Set(state?.skipped);
      lines.push('', `For ${target.relative} on this connection:`);
      const rows: Array<[string, string]> = result.files.map((file) => [
        baselineSent ? 'returned' : 'not returned yet',
        `${shown(file.path)} (${file.layer} layer: applies everywhere)`,
      ]);
      for (const file of governing(result.nested, target)) {
        const status = injected.has(file.relativePath)
          ? 'returned'
          : skipped.has(file.relativePath)
            ? 'cannot be sent'
            : 'not returned yet';
        rows.push([status, `${file.relativePath} (nested: governs ${shown(file.ownerDir)}/)`]);
      }
      if (rows.length === 0) lines.push('  (no instruction file applies)');
      for (const [status, what] of rows) lines.push(`  ${status.padEnd(17)}${what}`);
    }
    const catalog = await rules.catalog();
    lines.push(
      '',
      'Rules:',
      catalog.length === 0 ? `  ${rules.emptyNote}` : `  ${catalog.length} (see list_rules)`,
    );
    return { content: [{ type: 'text', text: `${lines.join('\n')}\n` }] };
  }

  async function listRules(): Promise<ToolResult> {
    const catalog = await rules.catalog();
    if (catalog.length === 0) return { content: [{ type: 'text', text: rules.emptyNote }] };
    const lines = catalog.map((rule) => {
      const globs = rule.globs.length === 0 ? '' : ` [globs: ${rule.globs.join(', ')}]`;
      return `- ${rule.name} (${rule.kind})${globs}${rule.description === '' ? '' : `: ${rule.description}`}`;
    });
    return { content: [{ type: 'text', text: `${catalog.length} rules:\n${lines.join('\n')}` }] };
  }

  async function getRule(args: Record<string, unknown>): Promise<ToolResult> {
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
    return { content: [{ type: 'text', text: found.map(frame).join('\n') }] };
  }

  function pathArgument(args: Record<string, unknown>, required: boolean) {
    const value = args['path'];
    if (typeof value !== 'string')
      return {
        ok: false as const,
        message: required
          ? '"path" is required: a file or directory path (a string)'
          : '"path" must be a string',
      };
    return containToolPath(fs, workDir, value);
  }

  const shown = (file: string) => (isInside(workDir, file) ? path.relative(workDir, file) || '.' : file);

  async function listed(): Promise<Listed[]> {
    const result = await resolver.resolve(request);
    const entries = new Map<string, Listed>();
    const add = (entry: Listed) => {
      if (!entries.has(entry.uri)) entries.set(entry.uri, entry);
    };
    for (const file of result.files) add(resolvedEntry(file));
    for (const file of result.nested) add(nestedEntry(file));
    return [...entries.values()];
  }

  const resolvedEntry = (file: ResolvedFile): Listed => ({
    uri: resourceUri(file.path, workDir),
    name: shown(file.path),
    description: `${file.layer} layer (entry ${JSON.stringify(file.entry)}): part of every answer's project instructions`,
    mimeType: mimeTypeOf(file.path),
    size: file.bytes,
    file: file.realPath,
    maxBytes: MAX_INLINE_BYTES,
    nested: false,
  });

  const nestedEntry = (file: NestedFile): Listed => {
    let size = 0;
    try {
      size = fs.probe(file.path)?.size ?? 0;
    } catch {
      size = 0;
    }
    return {
      uri: resourceUri(file.path, workDir),
      name: file.relativePath,
      description: `nested: governs ${shown(file.ownerDir)}/${file.label === '' ? '' : ` (${file.label})`}`,
      mimeType: mimeTypeOf(file.path),
      size,
      file: file.path,
      maxBytes: resolver.config.contextDiscovery.maxFileBytes,
      nested: true,
    };
  };

  function probeSignature(entries: readonly Listed[]): Map<string, string> {
    const signatures = new Map<string, string>();
    for (const entry of entries) {
      let info;
      try {
        info = fs.probe(entry.file);
      } catch {
        info = null;
      }
      signatures.set(entry.uri, info === null ? 'absent' : `${info.size}:${info.mtimeMs}`);
    }
    return signatures;
  }

  async function runTool(name: string, args: unknown): Promise<ToolResult> {
    try {
      if (args !== undefined && args !== null && (typeof args !== 'object' || Array.isArray(args)))
        return failure('the arguments must be a JSON object');
      const record = (args ?? {}) as Record<string, unknown>;
      const definition = TOOL_DEFINITIONS.find((tool) => tool.name === name);
      if (definition === undefined)
        return failure(
          `Unknown tool ${JSON.stringify(String(name).slice(0, 100))}. The tools are: ${TOOL_DEFINITIONS.map((tool) => tool.name).join(', ')}.`,
        );
      const unknown = Object.keys(record).filter(
        (key) => !Object.hasOwn(definition.inputSchema.properties, key),
      );
      if (unknown.length > 0)
        return failure(
          `${name} takes ${Object.keys(definition.inputSchema.properties).join(', ') || 'no arguments'}; unknown: ${unknown
            .slice(0, 5)
            .map((key) => JSON.stringify(key.slice(0, 100)))
            .join(', ')}`,
        );
      switch (definition.name) {
        case 'instructions_for_path':
          return await instructionsForPath(record);
        case 'list_rules':
          return await listRules();
        case 'get_rule':
          return await getRule(record);
        case 'explain':
          return await explainTool(record);
      }
    } catch (error) {
      // A configuration fault (a flow file, an unknown agent) is the caller's to see, not a crash.
      return failure(`ctxfiles could not answer: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  return {
    trackChanges,
    callTool(name, args) {
      // One call at a time: what a call returns depends on what the calls before it returned.
      const answer = queue.then(() => runTool(name, args));
      queue = answer.then(
        () => undefined,
        () => undefined,
      );
      return answer;
    },
    async listResources() {
      return (await listed()).map(({ uri, name, description, mimeType, size }) => ({
        uri,
        name,
        description,
        mimeType,
        size,
      }));
    },
    async readResource(uri) {
      const entry = (await listed()).find((candidate) => candidate.uri === uri);
      if (entry === undefined) return null;
      try {
        if (entry.nested && fs.realpath(entry.file) !== entry.file)
          return { ok: false, message: `${entry.name} is now reached through a symlink and is not served` };
      } catch {
        return { ok: false, message: `${entry.name} no longer exists` };
      }
      const read = readInstruction(fs, entry.file, { maxBytes: entry.maxBytes });
      if (!read.ok) return { ok: false, message: `${entry.name} cannot be served (${read.fault})` };
      return { ok: true, uri, mimeType: entry.mimeType, text: read.text };
    },
    async checkForChanges() {
      if (!trackChanges) return [];
      const before = await listed();
      const current = probeSignature(before);
      if (signature === null) {
        signature = current;
        return [];
      }
      const previous = signature;
      const same =
        current.size === previous.size && [...current].every(([uri, value]) => previous.get(uri) === value);
      if (same) return [];
      resolver.refresh();
      const next = probeSignature(await listed());
      signature = next;
      const changed = new Set<string>();
      for (const [uri, value] of next) if (previous.get(uri) !== value) changed.add(uri);
      for (const uri of previous.keys()) if (!next.has(uri)) changed.add(uri);
      return [...changed];
    },
  };
}

/** Nested files whose owner directory holds the path (outermost first), as a session would inject them. */
function governing(nested: readonly NestedFile[], target: ToolPath): NestedFile[] {
  const dir = target.isDirectory ? target.path : path.dirname(target.path);
  return nested
    .filter((file) => isInside(file.ownerDir, dir))
    .sort((a, b) => a.ownerDir.length - b.ownerDir.length);
}

function failure(message: string): ToolResult {
  return { content: [{ type: 'text', text: message }], isError: true };
}

function describeNotes(notes: readonly Diagnostic[]): string {
  return `ctxfiles notes:\n${notes.map((note) => `- ${note.message} [${note.code}]`).join('\n')}`;
}

function mimeTypeOf(file: string): string {
  return /\.(md|mdc|markdown)$/i.test(file) ? 'text/markdown' : 'text/plain';
}
