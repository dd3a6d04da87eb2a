import { z } from 'zod';
import { DEFAULT_CONFIG, OPENCODE_KEYS } from './defaults.js';
import { IMPORT_FAILURE_REASONS, KNOWN_RULE_SOURCES, TOOL_KINDS, type ImportFailureReason } from './types.js';

/**
 * The zod schema of a ctxfiles config. It is the single source of truth: the JSON Schema in
 * `schema/config.schema.json` is generated from it and a test fails when the two drift.
 */

/** Documents a property for editors: its description and, when it has one, its default. */
function doc<T extends z.ZodType>(schema: T, description: string, value?: unknown): T {
  return schema.meta(value === undefined ? { description } : { description, default: value });
}

const pathEntry = z.string().describe('A path relative to the work dir; a trailing "/" names a directory.');

/** A `context` layer on an agent or a flow step. */
export const contextLayerSchema = z
  .strictObject({
    paths: z
      .array(pathEntry)
      .optional()
      .describe(
        'Declares the layer: paths relative to the work dir (a trailing "/" names a directory), with ${agent}, ${flow.id}, ${flow.step} and ${env.VAR} filled in.',
      ),
    mode: doc(
      z.string().optional(),
      '"replace" discards the layers below; "append" keeps them. Other values warn and act as "append".',
      'replace',
    ),
    nested: doc(
      z.boolean().optional(),
      'false turns off the nested-file manifest and injection for this agent or step.',
      true,
    ),
  })
  .describe('Context files for this agent or flow step.');

/** One agent: its `context` layer; every other key passes through untouched. */
export const agentSchema = z
  .looseObject({ context: contextLayerSchema.optional() })
  .describe('One agent: its context layer; other keys (model, ...) pass through to the embedder.');

/** A non-empty id (a pattern, not a length: the fast validator needs no runtime helper for it). */
const id = z.string().regex(/^[\s\S]/, { message: 'must not be empty' });

/** One `modes` entry: the flow step a host mode selects (docs/subagents.md). */
export const modeStepSchema = z
  .strictObject({
    flow: id.describe('The flow id.'),
    step: id.describe('The step id in that flow.'),
  })
  .describe('The flow step a host mode selects.');

const cap = z.number().int().min(0);

/** The `contextDiscovery` object. */
export const contextDiscoverySchema = z.strictObject({
  enabled: doc(
    z.boolean().optional(),
    'Progressive disclosure of nested instruction files.',
    DEFAULT_CONFIG.contextDiscovery.enabled,
  ),
  maxFiles: doc(cap.optional(), 'Most nested files listed.', DEFAULT_CONFIG.contextDiscovery.maxFiles),
  maxDepth: doc(
    cap.optional(),
    'Deepest directory level searched for nested files.',
    DEFAULT_CONFIG.contextDiscovery.maxDepth,
  ),
  maxFileBytes: doc(
    cap.optional(),
    'Bytes read of one nested file; the rest is cut.',
    DEFAULT_CONFIG.contextDiscovery.maxFileBytes,
  ),
  maxSessionBytes: doc(
    cap.optional(),
    'Bytes a session injects in all; past it injections stop.',
    DEFAULT_CONFIG.contextDiscovery.maxSessionBytes,
  ),
  maxManifestBytes: doc(
    cap.optional(),
    'Byte budget of the nested-file manifest; past it labels are dropped, then paths.',
    DEFAULT_CONFIG.contextDiscovery.maxManifestBytes,
  ),
  mode: doc(
    z.enum(['manifest', 'inline', 'off']).optional(),
    '"manifest" lists nested files and discloses them on use; "inline" renders them in the block, breadth-first; "off" does neither.',
    DEFAULT_CONFIG.contextDiscovery.mode,
  ),
  respectGitignore: doc(
    z.boolean().optional(),
    'Skip nested files that .gitignore files or .git/info/exclude ignore.',
    DEFAULT_CONFIG.contextDiscovery.respectGitignore,
  ),
  cache: doc(
    z.boolean().optional(),
    'Keep an index of the nested walk in the user cache dir so the next run lists only changed directories; never changes what is found. CTXFILES_NO_CACHE=1 turns it off for one run (docs/disclosure.md, "The walk index").',
    DEFAULT_CONFIG.contextDiscovery.cache,
  ),
  repeatHostFiles: doc(
    z.boolean().optional(),
    'Inside a host (its hook, or `ctxfiles mcp --host`): deliver also the files the host shows by itself; by default only what it does not show (docs/hooks.md, "What the host shows itself").',
    DEFAULT_CONFIG.contextDiscovery.repeatHostFiles,
  ),
});

// Constraints are regular expressions, not refinements, so that the published JSON Schema (and the
// fast validator generated from it) says exactly what zod checks.
const candidateName = z.string().regex(/^(?!\.{1,2}$)[^/\\]+$/, {
  message: 'must be a plain file name: not empty, not "." or "..", without "/" or "\\"',
});

// One segment: not "." or "..", no "/", "\\", ":" or control character. The lookahead is anchored to
// one segment, so the expression stays linear.
const SEGMENT = '(?!\\.\\.?(?:/|$))[^/\\\\:\\u0000-\\u001f\\u007f]+';
const candidatePath = z.string().regex(new RegExp(`^(?:@rules|${SEGMENT}(?:/${SEGMENT})*)$`), {
  message:
    'must be a file name or a relative sub-path such as ".claude/CLAUDE.md" (or "@rules"): not empty, no "." or ".." segment, no leading, trailing or double "/", no "\\", ":" or control character',
});

const USER_PATH = '^(?:/|~$|~/|~\\\\)';
const userPath = z
  .string()
  .regex(new RegExp(USER_PATH), { message: 'must be an absolute path or start with "~/"' });

// A user file may also start with an environment variable (`${env.CODEX_HOME}/AGENTS.md`).
const userFilePath = z.string().regex(/^(?:\/|~$|~\/|~\\|\$\{env\.[A-Za-z_][A-Za-z0-9_]*\})/, {
  message: 'must be an absolute path, start with "~/" or with ${env.NAME}',
});

/** The `instructions` object: chain discovery and change tracking (docs/chains.md). */
export const instructionsSchema = z.strictObject({
  walk: z
    .enum(['off', 'root', 'project'])
    .optional()
    .describe(
      '"off": no chain; "root": from the filesystem root to the work dir; "project": from the nearest directory holding a project root marker to the work dir (docs/chains.md).',
    ),
  projectRootMarkers: z
    .array(candidateName)
    .optional()
    .describe('Names (files or directories) that mark a project root.'),
  candidates: z
    .array(candidatePath)
    .optional()
    .describe(
      'File names or relative sub-paths without ".." tried in each directory of the chain; "@rules" places that directory\'s always rules.',
    ),
  select: z
    .enum(['first', 'all'])
    .optional()
    .describe('"first": the first existing candidate per directory; "all": every one, in order.'),
  symlinks: z
    .enum(['inside', 'reject', 'follow'])
    .optional()
    .describe(
      '"inside": follow a symlinked instruction file when its target stays inside the root; "reject": never; "follow": always.',
    ),
  workDirPath: z
    .enum(['as-given', 'real'])
    .optional()
    .describe(
      'Under a symlinked work dir, the paths shown below it: "as-given" spells the work dir as the caller did; "real" uses its real path (as a tool that takes its cwd from the OS shows them), and tool paths in a session are then read as given.',
    ),
  skipBlank: z
    .enum(['whitespace', 'empty', 'none'])
    .optional()
    .describe(
      'Blank chain files left out: "whitespace" skips whitespace-only files; "empty" only empty ones (a user file list passes over empty files only); "none" keeps every one, as Copilot CLI and Continue show them.',
    ),
  globs: z
    .array(z.string())
    .optional()
    .describe(
      'Glob patterns of more instruction files. A relative one is matched below the work dir and each parent up to the chain start (closest first, by path within one directory; .git and node_modules are not entered; leading folder names without glob characters are entered directly, so ".kilo/rules/*.md" lists that folder alone); an absolute or "~/" one matches file names in its own directory. Read after the contextPaths layers, before the extra files (source "glob"). A pattern a project-tier layer set matches only at or below the directory of the file that set it; a matched link follows instructions.symlinks, and its imports are contained as for any project file.',
    ),
  userFile: z
    .union([userFilePath, z.array(userFilePath)])
    .nullable()
    .optional()
    .describe(
      'A user-wide instruction file read before the chain (an absolute path, "~/..." or "${env.NAME}/..."), or a list of them of which the first existing non-empty one wins.',
    ),
  extraFiles: z
    .array(userPath.regex(/\.[mM][dD]$/, { message: 'must name a .md file' }))
    .optional()
    .describe('Absolute or "~/" .md files appended after every other source, in order.'),
  trackChanges: z
    .boolean()
    .optional()
    .describe('Report updated, switched and removed files in tool results.'),
  keepBom: z
    .boolean()
    .optional()
    .describe(
      'Keep a UTF-8 byte order mark at the start of a chain, user or extra file as part of its text, as Codex does (the codex preset sets it); otherwise it is dropped.',
    ),
});

const limit = z.number().int().min(0).nullable();

/** The `budget` object. */
export const budgetSchema = z.strictObject({
  maxBytes: limit.optional().describe('Cap on the rendered block in bytes; null = unlimited.'),
  maxTokens: limit.optional().describe('Cap on the rendered block in tokens (o200k_base); null = unlimited.'),
  strategy: z
    .enum(['specific-first', 'root-first'])
    .optional()
    .describe(
      '"specific-first" drops the broadest files first; "root-first" keeps files in order and cuts the one that crosses the cap.',
    ),
  counts: z
    .enum(['rendered', 'content'])
    .optional()
    .describe('"rendered" counts the whole block; "content" counts document text only.'),
  scope: z
    .enum(['all', 'project'])
    .optional()
    .describe('"all" counts every file; "project" leaves the user file and extra files uncounted.'),
});

/** One entry of `session.tools`: what a runner's tool does and where its input names paths. */
export const sessionToolSchema = z.strictObject({
  as: z
    .enum(TOOL_KINDS)
    .describe(
      'What the tool does: read, write, edit, list, search or shell. A name listed is merged over the built-in table (docs/disclosure.md, "Tool names").',
    ),
  pathKeys: z
    .array(z.string())
    .optional()
    .describe('Input keys holding a path (or a list of paths), tried in order.'),
});

/** The `session` object. */
export const sessionSchema = z.strictObject({
  tools: z
    .record(z.string(), sessionToolSchema)
    .optional()
    .describe('Tool names merged over the built-in table (docs/disclosure.md).'),
});

/** The `rules` object: scoped rule folders of the vendors (docs/rules.md). */
export const rulesSchema = z.strictObject({
  sources: z
    .array(z.string())
    .optional()
    .describe(
      `Rule folders to read: any of ${KNOWN_RULE_SOURCES.map((source) => JSON.stringify(source)).join(', ')} (docs/rules.md); [] turns rules off.`,
    ),
  nested: z
    .boolean()
    .optional()
    .describe('Also read rule folders in subdirectories found by the nested walk.'),
  userFolders: z
    .boolean()
    .optional()
    .describe(
      'Also read the user-level rule folders of the sources that have one (~/.kiro/steering/, ~/.continue/rules/, ~/.roo/rules/ and ~/.roo/rules-<mode>/).',
    ),
});

/** What each `wording` sentence is for (docs/config.md lists the defaults). */
const WORDING_DESCRIPTIONS: Readonly<Record<keyof typeof DEFAULT_CONFIG.wording, string>> = {
  reminderIntro: 'Opens the "reminder" format: how to weigh the files that follow.',
  scopeNote: 'Heads a nested file injected during a session; "{dir}" is its directory.',
  everywhereNote:
    'Heads a project-wide file delivered during a session (a hook at session start, the MCP server).',
  updatedNote: 'Precedes the new text of a file that changed after it was shown.',
  removedNote: 'Tells the model that a file it was shown is gone.',
  magiIntro: 'Opens the "magi" format.',
  magiEmpty: 'The "magi" block when no file was found.',
  budgetNotice: 'Ends a block the budget cut.',
  claudeCodeIntro: 'Opens the "claude-code" format.',
  ruleCatalogIntro: 'Heads the catalog of rules fetched on request: how the model reads one.',
  geminiContextIntro: 'Follows the "# Contextual Instructions" heading of the "gemini-full" format.',
};

/** The `wording` object: every explanatory sentence ctxfiles writes, overridable. */
export const wordingSchema = z
  .strictObject(
    Object.fromEntries(
      Object.entries(WORDING_DESCRIPTIONS).map(([key, description]) => [
        key,
        z.string().optional().describe(description),
      ]),
    ) as Record<keyof typeof DEFAULT_CONFIG.wording, z.ZodOptional<z.ZodString>>,
  )
  .describe('Every explanatory sentence ctxfiles writes, each overridable (docs/formats.md, "Wording").');

/**
 * Keys OpenCode itself defines in `.opencode.json` (opencode-ai/opencode, internal/config/config.go,
 * the `Config` struct; `shell` in later versions): known and passed through silently, since their
 * shape is OpenCode's business.
 */
const openCodeKeys = Object.fromEntries(
  OPENCODE_KEYS.map((key) => [
    key,
    z.unknown().optional().describe(`OpenCode's own "${key}" setting; ctxfiles ignores it.`),
  ]),
) as Record<(typeof OPENCODE_KEYS)[number], z.ZodOptional<z.ZodUnknown>>;

const failedChoice = z.enum(['keep', 'comment']);

/** What each key of an `imports.failed` object stands for. */
const FAILURE_REASON_TEXT: Readonly<Record<ImportFailureReason, string>> = Object.freeze({
  missing: 'No file at the path (ENOENT).',
  unreadable:
    'Something is at the path but cannot be read: a directory, a path through a file, no permission.',
  outside: 'The target leaves the containment root, or a symlink leads out of it.',
  repeated: 'A cycle, or a file already placed.',
});

/** The `imports` object (docs/imports.md). */
export const importsSchema = z.strictObject({
  enabled: z.boolean().optional().describe('Follow @path references in instruction files (docs/imports.md).'),
  maxDepth: z.number().int().min(0).max(32).optional().describe('Deepest import followed.'),
  mode: z
    .enum(['entries', 'inline'])
    .optional()
    .describe(
      '"entries": each imported file is its own entry after its importer; "inline": the reference is replaced by the file between comment markers.',
    ),
  failed: z
    .union([
      failedChoice,
      z
        .strictObject(
          Object.fromEntries(
            IMPORT_FAILURE_REASONS.map((reason) => [
              reason,
              failedChoice.optional().describe(FAILURE_REASON_TEXT[reason]),
            ]),
          ) as Record<ImportFailureReason, z.ZodOptional<typeof failedChoice>>,
        )
        .describe('One choice per reason a reference is not followed; a reason left out: "keep".'),
    ])
    .optional()
    .describe(
      'In inline mode, what a reference that is not followed becomes: "keep" leaves it as written, "comment" makes it a comment saying why; an object chooses per reason (docs/imports.md, "When a reference is not followed").',
    ),
  external: z
    .boolean()
    .optional()
    .describe(
      'false: an import from a project file is followed only to a file inside the work dir ("@../", "@~/" and absolute paths outside it are not followed, a warn import-outside); the user file, its rules and the extra files import from anywhere.',
    ),
  root: z
    .enum(['source', 'marker'])
    .optional()
    .describe(
      'Where a project file\'s imports must stay: "source", the root of the source that found it (the chain start, the contextPaths root, the work dir); "marker", the nearest directory at or above the importing file that holds a projectRootMarkers entry (the file\'s own directory when none does), never above the source\'s root (docs/imports.md, "Where a reference leads"). It only narrows, so a project config may set it.',
    ),
});

/**
 * The whole config file. Unknown top-level keys pass through (they warn with a "did you mean" hint,
 * see `validateConfig`); the published JSON Schema closes the object so that editors flag them.
 */
export const configSchema = z
  .looseObject({
    $schema: z.string().optional().describe('The JSON Schema an editor checks this file against; ignored.'),
    preset: z
      .string()
      .optional()
      .describe('A preset this config is merged over: the view of one coding tool (docs/presets.md).'),
    contextPaths: z
      .array(pathEntry)
      .optional()
      .describe(
        'The global layer: paths relative to the work dir (or the project root, see contextRoot), a trailing "/" naming a directory. Rule folders such as .cursor/rules/ are read by the rules engine, not listed here; the opencode-go preset inlines them raw.',
      ),
    agents: z
      .record(z.string(), agentSchema)
      .optional()
      .describe("Agents by id; an agent's context layer sits above the global one."),
    subagents: z
      .record(z.string(), id)
      .optional()
      .describe(
        "A host's subagents as ctxfiles agents: subagent name (Claude Code's agent_type, Codex's role, Qwen Code's subagent) to agent id. A subagent not listed is the agent of its own name (docs/subagents.md).",
      ),
    modes: z
      .record(z.string(), modeStepSchema)
      .optional()
      .describe(
        "A host's modes as flow steps: mode (the hook's permission_mode, e.g. plan) to { flow, step }. A mode not listed selects no step (docs/subagents.md).",
      ),
    contextDiscovery: contextDiscoverySchema
      .optional()
      .describe('Progressive disclosure of nested instruction files and its caps.'),
    flows: z.array(z.string()).optional().describe('Globs of flow files, relative to the config file.'),
    instructions: instructionsSchema
      .optional()
      .describe('Chain discovery from the project root, user and extra files, change tracking.'),
    format: z
      .string()
      .optional()
      .describe(
        'Output format of the rendered block (docs/formats.md), checked against the host registry the loader is handed.',
      ),
    budget: budgetSchema.optional().describe('Caps on the size of the rendered block.'),
    wording: wordingSchema.optional(),
    session: sessionSchema.optional().describe('How sessions read the tool calls of a runner.'),
    trustedProjects: doc(
      z.array(userPath).optional(),
      'User config only: absolute or "~/" directories whose project configs are trusted.',
      [],
    ),
    rules: rulesSchema.optional().describe('Scoped rule folders of coding tools (docs/rules.md).'),
    imports: importsSchema.optional().describe('@path imports in instruction files (docs/imports.md).'),
    contextRoot: doc(
      z.enum(['workDir', 'project']).optional(),
      '"workDir": contextPaths resolve against the work dir; "project": against the project root found with instructions.projectRootMarkers.',
      DEFAULT_CONFIG.contextRoot,
    ),
    ...openCodeKeys,
  })
  .describe('ctxfiles configuration');

/** A config as written by the user, after validation. */
export type ConfigInput = z.infer<typeof configSchema>;
/** A context layer as written. */
export type ContextLayerInput = z.infer<typeof contextLayerSchema>;
