import type { Format, SessionToolConfig } from '../config/types.js';
import type { NestedFile } from '../discover/nested-index.js';
import type { Diagnostic } from '../errors.js';
import type { Disclosure } from '../session/disclosure.js';
import type { DisclosureState } from '../session/disclosure-state.js';
import type { DisclosureOptions } from '../session/disclosure-types.js';
import type { InViewTest } from '../session/identity.js';
import type { ToolEvent } from '../session/triggers.js';
import type { ContextFile } from '../resolve/read-context-file.js';
import type { ResolverContext } from './load-context.js';
import type { Disclosed, Rendered } from './pipeline-steps.js';
import type { ResolveRequest } from './select-request.js';
import { createDiagnostics, MAX_DIAGNOSTICS } from '../diagnostics.js';

/** Options of {@link Resolver.openSession}. */
export interface SessionOptions extends ResolveRequest {
  /** A state saved from `session.state()`, to resume. */
  readonly state?: unknown;
  /** Called with every diagnostic the session produces. */
  readonly onDiagnostic?: (diagnostic: Diagnostic) => void;
  /**
   * Tool names this session maps, over the built-in table and `session.tools` of the config (a
   * name here wins): `{ open_file: { as: 'read', pathKeys: ['path'] } }` (docs/disclosure.md#tool-names).
   */
  readonly tools?: Readonly<Record<string, SessionToolConfig>>;
  /**
   * With `state`: the state comes from an earlier session of the same history, and this session
   * starts from a new system prompt (the next step of a flow, see `runFlow`). What was shown stays
   * shown; the files of the new prompt are tracked as they are now.
   */
  readonly newPrompt?: boolean;
  /**
   * What the host the session runs in shows by itself (DESIGN §13, "A host's own view"): a nested
   * file or rule for which it returns true is never injected (it is `skipped`). The hooks and the
   * MCP server pass their host's view (docs/hooks.md, "What the host shows itself").
   */
  readonly inView?: InViewTest;
}

/** What one tool call brought: the text to append, and the diagnostics of this call. */
export interface ToolReport {
  readonly text: string;
  readonly diagnostics: readonly Diagnostic[];
}

/**
 * How many diagnostics `session.diagnostics` keeps: the first ones, one per code, file and target
 * (src/diagnostics.ts), then a single `diagnostics-capped` note counting the rest.
 */
export const SESSION_DIAGNOSTICS_KEPT = MAX_DIAGNOSTICS;

/** What one agent run has been shown. Subagents open their own session. */
export interface Session {
  /**
   * Reports a finished tool call; resolves to the text to append to its result (empty when
   * nothing is due). Never rejects because of a context file.
   */
  afterTool(event: Readonly<ToolEvent>): Promise<string>;
  /** As `afterTool`, with the diagnostics of this call next to the text. */
  report(event: Readonly<ToolEvent>): Promise<ToolReport>;
  /** The state as plain JSON, to store and resume with `openSession({ state })`. */
  state(): DisclosureState;
  /**
   * Diagnostics produced so far by opening the session and by its tool calls, one per code, file
   * and target: the first {@link SESSION_DIAGNOSTICS_KEPT} (1,000), then one `diagnostics-capped`
   * note counting the rest. `onDiagnostic` sees each one kept; `report` returns every one of its call.
   */
  readonly diagnostics: readonly Diagnostic[];
}

/** The resolution a session starts from: what the system prompt showed. */
export interface SessionStart {
  readonly disclosed: Disclosed;
  readonly rendered: Rendered;
  readonly format: Format;
}

/**
 * Opens a disclosure session over a resolution: the nested files of its manifest, and change
 * tracking of the files it showed. A resumed state is checked before `start` resolves the request.
 * Session modules load here, on first use.
 * @throws CtxfilesError `session-state-invalid` for a malformed `state`.
 */
export async function openSession(
  context: ResolverContext,
  start: () => Promise<SessionStart>,
  options: Readonly<SessionOptions>,
): Promise<Session> {
  const resumed =
    options.state === undefined
      ? null
      : await (await import('../session/session-state.js')).parseSessionState(options.state);
  const { disclosed, rendered, format } = await start();
  const [{ createDisclosure }, { toolTable }, { baselineRecords }] = await Promise.all([
    import('../session/disclosure.js'),
    import('../session/tool-table.js'),
    import('../session/change-tracking.js'),
  ]);
  const { fs, workDir, homeDir, config } = context;
  const { contextDiscovery: discovery, instructions, wording } = config;
  const disclosure = createDisclosure(
    {
      fs,
      workDir,
      homeDir,
      index: disclosed.index,
      maxFileBytes: discovery.maxFileBytes,
      maxSessionBytes: discovery.maxSessionBytes,
      format,
      formats: context.hosts.format,
      wording,
      tracking: { enabled: instructions.trackChanges, candidates: instructions.candidates },
      baseline: baselineRecords(rendered.files),
      tools: toolTable(config.session?.tools, options.tools),
      newPrompt: options.newPrompt,
      rules: disclosed.rules,
      order: config.profile.order,
      spelledWorkDir: context.spelledWorkDir,
      expandBody: config.imports?.enabled === true ? await bodyImports(context, rendered.files) : undefined,
      inView: options.inView,
    },
    resumed,
  );
  return sessionOver(disclosure, options);
}

/**
 * The session API over an opened disclosure: one bounded list of diagnostics for the whole session
 * (src/diagnostics.ts), each kept one passed to `onDiagnostic`, starting with the disclosure's own.
 */
function sessionOver(disclosure: Disclosure, options: Readonly<SessionOptions>): Session {
  // A call reports only what it added.
  const diagnostics: Diagnostic[] = createDiagnostics();
  const note = (diagnostic: Diagnostic) => {
    const before = diagnostics.length;
    if (diagnostics.push(diagnostic) > before) options.onDiagnostic?.(diagnostics[before] as Diagnostic);
  };
  for (const diagnostic of disclosure.opened) note(diagnostic);
  const report = (event: Readonly<ToolEvent>): ToolReport => {
    const outcome = afterToolSafely(disclosure, event);
    for (const diagnostic of outcome.diagnostics) note(diagnostic);
    return outcome;
  };
  return {
    diagnostics,
    afterTool(event) {
      const outcome = report(event);
      // Most calls show nothing: they share one settled promise.
      return outcome.text === '' ? NOTHING_NEW : Promise.resolve(outcome.text);
    },
    report: (event) => Promise.resolve(report(event)),
    state: () => disclosure.state(),
  };
}

const NOTHING_NEW: Promise<string> = Promise.resolve('');

/** `afterTool` of the disclosure, with any fault turned into an `internal` diagnostic. */
function afterToolSafely(disclosure: Disclosure, event: ToolEvent): ReturnType<Disclosure['afterTool']> {
  try {
    return disclosure.afterTool(event);
  } catch (error) {
    // A context file must never fail a tool call.
    const internal: Diagnostic = {
      level: 'warn',
      code: 'internal',
      message: `disclosure failed: ${String(error)}`,
    };
    return { text: '', diagnostics: [internal] };
  }
}

/**
 * The imports of injected nested files (docs/imports.md): contained in the work dir, each file
 * once per session (files of the system prompt count as placed).
 */
async function bodyImports(
  context: ResolverContext,
  shown: readonly Rendered['files'][number][],
): Promise<NonNullable<DisclosureOptions['expandBody']>> {
  const { expandFileImports } = await import('../resolve/expand-file-imports.js');
  const { fs, workDir, homeDir, config } = context;
  const placed = new Set<string>();
  for (const file of shown) markPlaced(fs, placed, file.realPath);
  return (nested, body, diagnostics) => {
    const [first, ...imported] = expandFileImports(
      fs,
      [nestedAsContextFile(nested, body)],
      {
        imports: config.imports ?? { enabled: false, maxDepth: 5, mode: 'entries' },
        profile: config.profile,
        importStyles: context.hosts.importStyle,
        symlinks: config.instructions.symlinks ?? 'inside',
        trustOutside: context.trusted,
        homeDir,
        rootOf: () => workDir,
        projectRootMarkers: config.instructions.projectRootMarkers,
        placed,
      },
      diagnostics,
    );
    for (const file of [first, ...imported]) {
      if (file === undefined) continue;
      markPlaced(fs, placed, file.realPath);
    }
    return { text: first?.text ?? body.text, imported };
  };
}

/**
 * Adds a file's identity (`dev:ino`) to the files placed in the session; a file gone since it was
 * read (a moment ago) has nothing to dedupe against and adds nothing.
 */
function markPlaced(fs: ResolverContext['fs'], placed: Set<string>, realPath: string): void {
  try {
    const info = fs.stat(realPath);
    placed.add(`${info.dev}:${info.ino}`);
  } catch {
    // Gone: nothing to dedupe against.
  }
}

/** An injected nested file as the imports step takes a file of the list: in the `nested` layer. */
function nestedAsContextFile(
  nested: NestedFile,
  body: { readonly text: string; readonly sha256: string },
): ContextFile {
  return {
    path: nested.path,
    realPath: nested.realPath ?? nested.path,
    source: 'nested',
    layer: 'nested',
    entry: nested.relativePath,
    depth: null,
    mtimeMs: 0,
    bytes: Buffer.byteLength(body.text, 'utf8'),
    sha256: body.sha256,
    text: body.text,
  };
}
