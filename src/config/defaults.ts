/** Default values of every config key (docs/config.md). Kept free of zod so the CLI loads it cheaply. */
import {
  KNOWN_RULE_SOURCES,
  type Format,
  type ImportFailedSetting,
  type SessionToolConfig,
} from './types.js';

/**
 * The global `contextPaths` used when a config sets none: instruction files only. Rule folders
 * (`.cursor/rules/`, …) are not listed: the rules engine reads them by kind (docs/rules.md).
 */
export const DEFAULT_CONTEXT_PATHS: readonly string[] = Object.freeze([
  'AGENTS.md',
  'AGENTS.local.md',
  'CLAUDE.md',
  'CLAUDE.local.md',
  'opencode.md',
  'opencode.local.md',
  'OpenCode.md',
  'OpenCode.local.md',
  'OPENCODE.md',
  'OPENCODE.local.md',
  '.github/copilot-instructions.md',
  '.cursorrules',
]);

/** Defaults of the whole config. */
export const DEFAULT_CONFIG = Object.freeze({
  contextPaths: DEFAULT_CONTEXT_PATHS,
  contextDiscovery: Object.freeze({
    enabled: true,
    maxFiles: 100,
    maxDepth: 8,
    maxFileBytes: 32_768,
    maxSessionBytes: 131_072,
    maxManifestBytes: 8_192,
    mode: 'manifest' as 'manifest' | 'inline' | 'off',
    respectGitignore: false,
    cache: false,
    repeatHostFiles: false,
  }),
  flows: Object.freeze(['.ctxfiles/flows/**/*.{yaml,yml}', '.opencode/flows/**/*.{yaml,yml}']),
  instructions: Object.freeze({
    walk: 'off' as 'off' | 'root' | 'project',
    projectRootMarkers: Object.freeze(['.git']) as readonly string[],
    candidates: Object.freeze(['AGENTS.override.md', 'AGENTS.md', 'CLAUDE.md']) as readonly string[],
    userFile: null as string | readonly string[] | null,
    extraFiles: Object.freeze([]) as readonly string[],
    trackChanges: false,
    select: 'first' as 'first' | 'all',
    symlinks: 'inside' as 'inside' | 'reject' | 'follow',
    keepBom: false,
    workDirPath: 'as-given' as 'as-given' | 'real',
    skipBlank: 'whitespace' as 'whitespace' | 'empty' | 'none',
    globs: Object.freeze([]) as readonly string[],
  }),
  imports: Object.freeze({
    enabled: false,
    maxDepth: 5,
    mode: 'entries' as 'entries' | 'inline',
    failed: 'keep' as ImportFailedSetting,
    external: true,
    root: 'source' as 'source' | 'marker',
  }),
  contextRoot: 'workDir' as 'workDir' | 'project',
  format: 'opencode' as Format,
  budget: Object.freeze({
    maxBytes: null as number | null,
    maxTokens: null as number | null,
    strategy: 'specific-first' as 'specific-first' | 'root-first',
    counts: 'rendered' as 'rendered' | 'content',
    scope: 'all' as 'all' | 'project',
  }),
  wording: Object.freeze({
    reminderIntro:
      'Instructions from the workspace follow. Apply each one where it fits the task at hand; when two ' +
      'disagree, the file closer to the working directory wins. None of them outranks system, developer ' +
      'or direct user instructions.',
    scopeNote:
      'These apply to work under `{dir}`. Follow them where relevant; a more specific file wins over a ' +
      'broader one, and none of them outranks system, developer or direct user instructions.',
    everywhereNote:
      'These apply everywhere in this project. Follow them where relevant; a more specific file wins over a ' +
      'broader one, and none of them outranks system, developer or direct user instructions.',
    updatedNote: 'This file changed after it was shown. Use the text below in place of the earlier version.',
    removedNote: 'This file is gone. Stop following the instructions it held.',
    magiIntro:
      'The files below are already loaded for you. Keep them in mind at every step and do not read them again.',
    magiEmpty: 'No AGENTS.md instruction files were found for this workspace.',
    budgetNotice: 'Instruction budget reached: some files are not shown in full.',
    claudeCodeIntro:
      'Instruction files from this workspace and from the user follow. Follow them; they take precedence ' +
      'over default behaviour.',
    ruleCatalogIntro:
      'These rules apply only when a task calls for them; their text is not loaded. Before work a rule ' +
      'describes, read its file (paths are relative to the working directory).',
    geminiContextIntro:
      'The instruction files below come from the user (~/.gemini/) and from this workspace. Where two ' +
      'disagree, the more specific one wins: a sub-directory over the workspace root, the workspace over ' +
      'the user. They shape how you work here but never override safety or security rules.',
  }),
  session: Object.freeze({ tools: Object.freeze({}) as Readonly<Record<string, SessionToolConfig>> }),
  // Every source the engine has an adapter for (`KNOWN_RULE_SOURCES` is kept equal to the adapter
  // table by a test, so a new adapter is on by default); `rules.sources: []` turns rules off.
  rules: Object.freeze({
    sources: KNOWN_RULE_SOURCES as readonly string[],
    nested: true,
    userFolders: false,
  }),
});

/**
 * The most each configurable cap may be set to, whoever sets it (docs/security.md, "Caps"). A
 * larger value is clamped to it with a `warn` `cap-clamped`.
 */
export const CAP_MAXIMA = Object.freeze({
  maxFiles: 10_000,
  maxFileBytes: 1_048_576,
  maxSessionBytes: 8_388_608,
  maxManifestBytes: 1_048_576,
});

/**
 * Top-level keys of OpenCode's own config (opencode-ai/opencode, internal/config/config.go, the
 * `Config` struct, plus `shell` from later versions). ctxfiles reads `.opencode.json` too, so these
 * are known and pass through without a warning; `agents` and `contextPaths` are ctxfiles keys as well.
 */
export const OPENCODE_KEYS = Object.freeze([
  'data',
  'wd',
  'mcpServers',
  'providers',
  'lsp',
  'debug',
  'debugLSP',
  'tui',
  'shell',
  'autoCompact',
] as const);

/** Top-level keys ctxfiles understands; any other key warns with a "did you mean" hint. */
export const KNOWN_TOP_LEVEL_KEYS: readonly string[] = Object.freeze([
  '$schema',
  'preset',
  'contextPaths',
  'agents',
  'contextDiscovery',
  'flows',
  'instructions',
  'format',
  'budget',
  'wording',
  'session',
  'trustedProjects',
  'rules',
  'imports',
  'contextRoot',
  'subagents',
  'modes',
  ...OPENCODE_KEYS,
]);
