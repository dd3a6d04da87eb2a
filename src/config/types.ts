/** Normalized config types: what the resolver consumes after validation and defaults. */

import { HOST_FORMAT_NAMES } from './host-names.generated.js';

/** A `context` layer on an agent or a flow step. It is declared when `paths` is set. */
export interface ContextLayer {
  readonly paths?: readonly string[];
  readonly mode?: string;
  readonly nested?: boolean;
}

/** One agent. Keys other than `context` pass through for the embedder. */
export interface AgentConfig {
  readonly context?: ContextLayer;
  readonly [key: string]: unknown;
}

/** Limits of progressive disclosure (docs/disclosure.md, "Caps and faults"). */
export interface ContextDiscoveryConfig {
  readonly enabled: boolean;
  readonly maxFiles: number;
  readonly maxDepth: number;
  readonly maxFileBytes: number;
  readonly maxSessionBytes: number;
  readonly maxManifestBytes: number;
  /**
   * `manifest` lists nested files and discloses them on use; `inline` renders them in the block
   * (breadth-first, capped); `off` does neither. Absent in configs built before it existed: `manifest`.
   */
  readonly mode?: 'manifest' | 'inline' | 'off' | undefined;
  /** Skip what `.gitignore` files and `.git/info/exclude` ignore. Absent: false. */
  readonly respectGitignore?: boolean | undefined;
  /**
   * Keep an index of the walk's directory listings in the user's cache dir, so the next run reuses
   * the listing of every directory that did not change (docs/disclosure.md, "The walk index").
   * Never changes what is found. Absent: false.
   */
  readonly cache?: boolean | undefined;
  /**
   * Inside a host (its hook, or `ctxfiles mcp --host`): deliver the files the host shows by itself
   * as well (docs/hooks.md, "What the host shows itself"). Absent: false.
   */
  readonly repeatHostFiles?: boolean | undefined;
}

/** Chain discovery and change tracking (docs/chains.md). */
export interface InstructionsConfig {
  readonly walk: 'off' | 'root' | 'project';
  readonly projectRootMarkers: readonly string[];
  readonly candidates: readonly string[];
  /** One file, or a list of which the first existing non-empty one wins. */
  readonly userFile: string | readonly string[] | null;
  readonly extraFiles: readonly string[];
  readonly trackChanges: boolean;
  /** `first`: one candidate per directory; `all`: every existing one. Absent: `first`. */
  readonly select?: 'first' | 'all' | undefined;
  /** Keep a UTF-8 byte order mark at the start of a file's text (Codex does). Absent: false. */
  readonly keepBom?: boolean | undefined;
  /** How symlinked instruction files are treated, on every source. Absent: `inside`. */
  readonly symlinks?: 'inside' | 'reject' | 'follow' | undefined;
  /**
   * Under a symlinked work dir, how paths below it are shown: `as-given` (the caller's spelling)
   * or `real`. Absent: `as-given`.
   */
  readonly workDirPath?: 'as-given' | 'real' | undefined;
  /** Which chain files are skipped: whitespace-only ones (`whitespace`) or only empty ones. Absent: `whitespace`. */
  readonly skipBlank?: 'whitespace' | 'empty' | 'none' | undefined;
  /**
   * Glob patterns of more instruction files, read after the `contextPaths` layers: a relative one
   * matched below the work dir and each parent up to the chain's start, closest first; an absolute
   * or `~/` one in its own directory. Absent: none.
   */
  readonly globs?: readonly string[] | undefined;
}

/**
 * Why an `@path` reference was not followed, as `imports.failed` names it: `missing` (no file at the
 * path), `unreadable` (something is there but it cannot be read: a directory, a path through a
 * file, no permission), `outside` (it leaves the containment root), `repeated` (a cycle, or a file
 * already placed).
 */
export const IMPORT_FAILURE_REASONS = Object.freeze([
  'missing',
  'unreadable',
  'outside',
  'repeated',
] as const);

/** One of {@link IMPORT_FAILURE_REASONS}. */
export type ImportFailureReason = (typeof IMPORT_FAILURE_REASONS)[number];

/** `imports.failed`: one choice for every reason, or one per reason (an absent reason: `keep`). */
export type ImportFailedSetting =
  'keep' | 'comment' | Readonly<Partial<Record<ImportFailureReason, 'keep' | 'comment'>>>;

/** `@path` imports (docs/imports.md). */
export interface ImportsConfig {
  readonly enabled: boolean;
  readonly maxDepth: number;
  readonly mode: 'entries' | 'inline';
  /**
   * `inline` mode: what a reference that is not followed becomes. `keep`: it stays as written;
   * `comment`: an HTML comment saying why; an object: that choice per reason. Absent: `keep`.
   */
  readonly failed?: ImportFailedSetting | undefined;
  /**
   * `false`: an import from a project file is followed only to a file inside the work dir (the
   * user's own files are not limited). Absent: true.
   */
  readonly external?: boolean | undefined;
  /**
   * The containment root of a project file's imports. `source`: its source's root (the chain's
   * start for a chain file, the `contextPaths` root, the work dir); `marker`: the nearest directory
   * at or above the file holding a project root marker, else the file's own directory, never above
   * the source's root. Absent: `source`.
   */
  readonly root?: 'source' | 'marker' | undefined;
}

/** The `rules.sources` names the engine has an adapter for (a test keeps it equal to `RULE_SOURCES`). */
export const KNOWN_RULE_SOURCES = Object.freeze([
  'cursor',
  'claude',
  'copilot',
  'windsurf',
  'cline',
  'kiro',
  'continue',
  'roo',
  'kilo',
  'junie',
  'zed',
  'augment',
  'qwen',
] as const);

/** Scoped rules (docs/rules.md): which vendors' rule folders are read, and whether nested ones are. */
export interface RulesConfig {
  /** Adapter names ({@link KNOWN_RULE_SOURCES}). Empty: rules are off. */
  readonly sources: readonly string[];
  /** Also read rule folders below the work dir, found by the nested walk. */
  readonly nested: boolean;
  /**
   * Also read the user-level rule folders of the sources that have one (`~/.kiro/steering/`): a read
   * outside the project, honoured only from a trusted layer. Absent: false.
   */
  readonly userFolders?: boolean;
}

/** ctxfiles' own output formats (docs/formats.md); each host adds its own (`codex`, `claude-code`, …). */
export const ENGINE_FORMATS = Object.freeze(['opencode', 'xml', 'reminder', 'magi'] as const);

/**
 * Every output format: ctxfiles' own, then the hosts' in registry order (the names are generated
 * from the host registry into host-names.generated.ts, so that this vocabulary imports no host).
 */
export const FORMATS = Object.freeze([...ENGINE_FORMATS, ...HOST_FORMAT_NAMES] as const);

/**
 * The preset and format names a config may use: those of the host registry handed down, and
 * ctxfiles' own formats (see {@link configNames}).
 */
export interface ConfigNames {
  readonly presets: readonly string[];
  readonly formats: readonly string[];
}

/** The names of {@link ConfigNames} for a registry's presets and formats. */
export function configNames(hosts: {
  readonly presetNames: readonly string[];
  readonly formatNames: readonly string[];
}): ConfigNames {
  return { presets: hosts.presetNames, formats: [...ENGINE_FORMATS, ...hosts.formatNames] };
}

/**
 * The `preset` and `format` values of a config that name no preset or format of `names`, each with
 * the names allowed: the one check of both the fast path and zod's (which take any string there).
 */
export function unknownNames(
  data: { readonly preset?: unknown; readonly format?: unknown },
  names: ConfigNames,
): Array<[key: 'preset' | 'format', allowed: readonly string[]]> {
  const wrong: Array<[key: 'preset' | 'format', allowed: readonly string[]]> = [];
  if (data.preset !== undefined && !names.presets.includes(data.preset as string))
    wrong.push(['preset', names.presets]);
  if (data.format !== undefined && !names.formats.includes(data.format as string))
    wrong.push(['format', names.formats]);
  return wrong;
}

/** An output format. */
export type Format = (typeof FORMATS)[number];

/** Modes with a defined meaning; any other string acts as `append` and warns. */
export const KNOWN_MODES = Object.freeze(['replace', 'append'] as const);

/** Caps on the rendered block. `null` = unlimited. */
export interface BudgetConfig {
  readonly maxBytes: number | null;
  readonly maxTokens: number | null;
  /** `specific-first` drops broad files first; `root-first` keeps files in order until the cap. */
  readonly strategy?: 'specific-first' | 'root-first' | undefined;
  /** `rendered` counts the whole block; `content` counts document text only. */
  readonly counts?: 'rendered' | 'content' | undefined;
  /** `project` leaves the user file and extra files out of the count (they are always shown). */
  readonly scope?: 'all' | 'project' | undefined;
}

/** What a session tool does, as `session.tools.<name>.as` names it (docs/disclosure.md). */
export const TOOL_KINDS = Object.freeze(['read', 'write', 'edit', 'list', 'search', 'shell'] as const);

/** One entry of `session.tools`. */
export interface SessionToolConfig {
  readonly as: (typeof TOOL_KINDS)[number];
  readonly pathKeys?: readonly string[] | undefined;
}

/** Session settings: tool names a runner uses, merged over the built-in table. */
export interface SessionConfig {
  readonly tools: Readonly<Record<string, SessionToolConfig>>;
}

/** Every explanatory sentence ctxfiles writes. `{dir}` in `scopeNote` names the directory. */
export interface WordingConfig {
  readonly reminderIntro: string;
  readonly scopeNote: string;
  /** Heads a project-wide file delivered in a session frame: it applies everywhere. */
  readonly everywhereNote: string;
  readonly updatedNote: string;
  readonly removedNote: string;
  readonly magiIntro: string;
  readonly magiEmpty: string;
  readonly budgetNotice: string;
  /** The sentence before the files in the `claude-code` format. */
  readonly claudeCodeIntro: string;
  /** The sentence under `# Rules on Request`: how the model gets a rule's text. */
  readonly ruleCatalogIntro: string;
  /** The paragraph under the `gemini-full` format's `# Contextual Instructions` heading. */
  readonly geminiContextIntro: string;
}

/**
 * How one host shapes what it loads, beyond anything a ctxfiles user sets (DESIGN §13, "Engine and
 * host profiles"): set by a host module on its presets, never by a config file. A config that
 * names no preset has {@link DEFAULT_PROFILE}'s values.
 */
export interface HostProfile {
  /** Names tried in each directory of the chain when no directory holds a file of `candidates`. */
  readonly fallbackCandidates: readonly string[];
  /** Trim both ends of each file's text; a file left blank is skipped. */
  readonly trim: boolean;
  /** `strip`: remove HTML comment blocks from each file's text. */
  readonly htmlComments: 'keep' | 'strip';
  /**
   * The chain's order in the block: `root-first` (ancestors first), `closest-first`, or `path` (by
   * absolute path as a plain string, Gemini CLI's order).
   */
  readonly order: 'root-first' | 'closest-first' | 'path';
  /**
   * `directory`: each directory picks its own candidate; `walk`: the first candidate found in any
   * directory of the chain is the only one the chain takes.
   */
  readonly candidateScope: 'directory' | 'walk';
  /**
   * Where a `project` walk starts when no marker is found: the work dir, `/`, or (`homeParent`) the
   * home directory's parent when that is the work dir or one of its ancestors, else `/`.
   */
  readonly projectRootFallback: 'workDir' | 'root' | 'homeParent';
  /**
   * Where a `project` walk starts when a marker is found: the directory holding it (`projectRoot`)
   * or its parent (`projectRootParent`).
   */
  readonly walkFrom: 'projectRoot' | 'projectRootParent';
  /**
   * Inline imports: how an imported file is framed. `comment` (ctxfiles' own): in place of the
   * reference, between HTML comments; any other name is a style of the preset's host
   * (`Host.importStyles`, e.g. Copilot CLI's `copilot`).
   */
  readonly importStyle: string;
  /**
   * `cut`: sentence punctuation at the end of an `@path` reference is not part of its path
   * (`@a.md.` names `a.md`); `keep`: the path runs to the next whitespace, as Gemini CLI reads it.
   */
  readonly importPunctuation: 'cut' | 'keep';
}

/** The profile of a config that names no preset: ctxfiles' own behaviour. */
export const DEFAULT_PROFILE: HostProfile = Object.freeze({
  fallbackCandidates: Object.freeze([]) as readonly string[],
  trim: false,
  htmlComments: 'keep',
  order: 'root-first',
  candidateScope: 'directory',
  projectRootFallback: 'workDir',
  walkFrom: 'projectRoot',
  importStyle: 'comment',
  importPunctuation: 'cut',
});

/** A validated config with every default applied. */
export interface Config {
  readonly contextPaths: readonly string[];
  readonly agents: Readonly<Record<string, AgentConfig>>;
  readonly contextDiscovery: ContextDiscoveryConfig;
  readonly flows: readonly string[];
  readonly instructions: InstructionsConfig;
  readonly format: Format;
  readonly budget: BudgetConfig;
  readonly wording: WordingConfig;
  /** The preset the config was merged over (docs/presets.md), when one was named. */
  readonly preset?: string | undefined;
  /** The host profile of that preset; {@link DEFAULT_PROFILE} with none. */
  readonly profile: HostProfile;
  /** Absent in configs built before `session` existed: the built-in tool table applies. */
  readonly session?: SessionConfig | undefined;
  /** Absent in configs built before `rules` existed: rules are off. */
  readonly rules?: RulesConfig | undefined;
  /** Absent in configs built before imports existed: imports are off. */
  readonly imports?: ImportsConfig | undefined;
  /** What `contextPaths` resolve against (docs/config.md). Absent: `workDir`. */
  readonly contextRoot?: 'workDir' | 'project' | undefined;
  /** A host subagent's name → the ctxfiles agent it is (docs/subagents.md). Absent: none mapped. */
  readonly subagents?: Readonly<Record<string, string>> | undefined;
  /** A host mode → the flow step it selects (docs/subagents.md). Absent: none mapped. */
  readonly modes?: Readonly<Record<string, ModeStep>> | undefined;
}

/** The flow step a host mode selects. */
export interface ModeStep {
  readonly flow: string;
  readonly step: string;
}

/** A flow step after `extends` was applied. Keys other than these pass through. */
export interface FlowStep {
  readonly id: string;
  readonly agent?: string;
  readonly context?: ContextLayer;
  readonly [key: string]: unknown;
}

/** A flow loaded from a YAML file. */
export interface Flow {
  readonly id: string;
  /** Absolute path of the flow file. */
  readonly file: string;
  readonly steps: readonly FlowStep[];
}
