import type { Format, HostProfile } from '../config/types.js';
import type { Diagnostic } from '../errors.js';
import type { ImportStyle } from '../imports/import-style.js';
import type { HostFormat } from '../render/render-types.js';
import type { HostInit } from './init.js';

export type { FormatLookup, HostFormat } from '../render/render-types.js';
export type {
  HookGroup,
  HostInit,
  InitLaunch,
  InitPlaces,
  InitTarget,
  JsonTarget,
  ScriptTarget,
  TomlTarget,
} from './init.js';

/**
 * A host: an agent tool ctxfiles reproduces (DESIGN §12, ARCHITECTURE.md "Hosts"). One module per
 * host holds everything ctxfiles knows about it; the engine looks hosts up in the registry
 * (src/hosts/index.ts) and never names one. Adding a host is one module here plus its lab fixtures.
 */
export interface Host {
  /** The host's id: the name of its main preset and of its lab driver (`codex`, `claude-code`). */
  readonly id: string;
  /** The tool's name as its makers write it, for docs and `ctxfiles presets`. */
  readonly title: string;
  /**
   * The host version the conformance lab checked the presets against (docs/conformance.md), or
   * `null` when no lab can drive the host and the presets follow its docs and source.
   */
  readonly verified: { readonly version: string; readonly package: string } | null;
  /** Where the behaviour comes from: source files, docs pages, changelog entries. */
  readonly sources: readonly string[];
  /** The presets the host defines, the main one (named like the host) first. */
  readonly presets: readonly Preset[];
  /** Output formats that reproduce the host's framing. */
  readonly formats?: readonly HostFormat[];
  /**
   * How the host frames an imported file in `inline` imports, where that is not ctxfiles' own
   * (docs/imports.md, "Inline styles"): its presets name one with their profile's `importStyle`.
   */
  readonly importStyles?: readonly ImportStyle[];
  /** How `ctxfiles hook <id>` reads the host's hook events, for hosts with hooks. */
  readonly hook?: HookProtocol;
  /** How `ctxfiles init <id>` registers ctxfiles in the host's settings; absent: `init` does not know the host. */
  readonly init?: HostInit;
  /**
   * The host's own settings files that change what it loads (Codex's `config.toml`), read when
   * one of its presets is in use and layered over it (docs/presets.md, "Host settings").
   */
  readonly settings?: HostSettings;
  /**
   * What the host shows by itself after tool calls (DESIGN §13, "A host's own view"). What it
   * loads at start is always what its main preset resolves (with its settings files). Absent: the
   * host adds nothing by itself after a tool call (Codex, Continue CLI).
   */
  readonly view?: HostView;
  /**
   * Instruction file names the host's users write that ctxfiles' default `contextPaths` lack (Qwen
   * Code's `QWEN.md`). Inside the host (its hook, `mcp --host`), when no config layer sets
   * `contextPaths`, they are wanted too: a nested one is disclosed where the host never loads it.
   */
  readonly ownNames?: readonly string[];
}

/**
 * The instruction files a host adds by itself while it works: a hook or an MCP server started for
 * the host delivers only what is not in this view (docs/hooks.md, "What the host shows itself").
 * Checked in the conformance lab.
 */
export interface HostView {
  /** Nested instruction files the host adds when a tool works in their directory or below. */
  readonly nested?: {
    /** The host's tools that add them (documentation: the hook never repeats such a file). */
    readonly tools: readonly string[];
    /**
     * Their names: `candidates` for the names its main preset's `instructions.candidates` give
     * (after its settings files: Gemini CLI's `context.fileName`), or a list.
     */
    readonly names: 'candidates' | readonly string[];
    /**
     * The preset's host profile `fallbackCandidates` count too when no directory from the work dir
     * up holds one of `names` (Claude Code reads AGENTS.md in a project with no CLAUDE.md).
     */
    readonly fallback?: boolean;
  };
  /** Rules the host applies by itself after tool calls: every rule of these `rules.sources`. */
  readonly rules?: { readonly tools: readonly string[]; readonly sources: readonly string[] };
}

/**
 * A host's settings files, as config values. The host names the files and turns a file's text
 * into config keys; config loading (src/config/host-settings.ts) reads them through the
 * filesystem port, applies the trust tiers and layers the values over the preset, under the
 * user's and the project's ctxfiles configs.
 */
export interface HostSettings {
  /**
   * Config values the host's environment alone stands for, layered under its files (Codex reads
   * no `~/.codex` once `CODEX_HOME` is set). Absent or `null`: none.
   */
  environment?(
    place: HostSettingsPlace,
  ): { readonly name: string; readonly config: Record<string, unknown> } | null;
  /** The files to read, lowest precedence first; absent ones are passed over quietly. */
  files(place: HostSettingsPlace): readonly HostSettingsFile[];
  /**
   * The config values one file's text stands for, layered over `preset` (the preset's config, so
   * a setting that extends a preset list can write the whole list). Never throws: a malformed
   * file or value is a `warn` diagnostic (code `host-settings-invalid`, naming file, line and
   * column) and the values it could not read are left out, so the preset's stand.
   */
  read(
    text: string,
    file: HostSettingsFile & { readonly shown: string },
    preset: Readonly<Record<string, unknown>>,
  ): Promise<HostSettingsRead>;
  /**
   * How the host's own settings make it read instruction files of these other `names`, as a clause
   * for the line `resolve` prints when it has nothing to print (docs/cli.md, "When nothing is
   * printed"): said instead of suggesting another tool's preset, which would not change what this
   * host loads.
   */
  readsNamesWhen?(names: readonly string[]): string;
}

/** Where a host's settings are looked for. */
export interface HostSettingsPlace {
  /** The preset in use (one of the host's). */
  readonly preset: string;
  /** The work dir (absolute). */
  readonly cwd: string;
  readonly homeDir: string;
  readonly env: Readonly<Record<string, string | undefined>>;
}

/** One settings file of a host. */
export interface HostSettingsFile {
  /** Absolute path. */
  readonly path: string;
  /**
   * `user`: a file in the user's home, trusted like the user config; `project`: a file in the
   * project, whose keys that widen reads are dropped unless the project is trusted (DESIGN §12).
   */
  readonly tier: 'user' | 'project';
  /**
   * The work dir, for a file that keeps entries per project directory (Claude Code's
   * `~/.claude.json` `projects`). Absent: the file applies as a whole.
   */
  readonly project?: string;
}

/** What one settings file said, in config keys. */
export interface HostSettingsRead {
  readonly config: Record<string, unknown>;
  readonly diagnostics: readonly Diagnostic[];
}

/**
 * A preset: a named config object that reproduces what one coding tool loads and how it frames it
 * (docs/presets.md). The user's config is merged over it.
 */
export interface Preset {
  /** The name `preset` and `--preset` take. */
  readonly name: string;
  /** One line for `ctxfiles presets`. */
  readonly summary: string;
  /** The config values, written with the config keys of docs/config.md. Deeply frozen once the registry hands it out. */
  readonly config: Readonly<Record<string, unknown>>;
  /**
   * How the host shapes what it loads where no config key does (DESIGN §13): the values that
   * differ from ctxfiles' own (`DEFAULT_PROFILE`). A config can not change them.
   */
  readonly profile?: Readonly<Partial<HostProfile>>;
  /**
   * The host version the lab checked this preset against, when it is not the host's
   * (`verified` of {@link Host}): a preset for an older version of the host.
   */
  readonly verified?: { readonly version: string; readonly package: string };
}

/** A host's hook protocol: its event names and how its tools map onto trigger tools. */
export interface HookProtocol {
  readonly events: {
    readonly start: string;
    readonly afterTool: string;
    /** The event before a compaction; absent: the pinned version's hooks have none (Cline CLI 3.0.65). */
    readonly compact?: string;
    /**
     * The event the host fires when it starts a subagent, before the subagent's first request,
     * whose `hookSpecificOutput.additionalContext` the subagent reads (docs/subagents.md). Absent:
     * the pinned version has none.
     */
    readonly subagentStart?: string;
    /**
     * The event the host fires for each user prompt, carrying the mode (`permission_mode`), whose
     * `additionalContext` the model reads with the prompt: where a mode's flow step is delivered.
     */
    readonly prompt?: string;
  };
  /**
   * The values of the compaction event's `trigger` that mean the host really compacts; another
   * value makes the event a no-op. Absent: every compaction event does (Gemini CLI 0.61 fires
   * `PreCompress` with `auto` before each turn, before deciding whether to compress).
   */
  readonly compactTriggers?: readonly string[];
  /**
   * The host keeps the start's answer in its system prompt through a compaction, and replaces it
   * with what a `SessionStart` of source `compact` answers, fired without waiting for it (Qwen
   * Code 0.24.4): the compaction event starts the session over but the next tool call does not
   * bring the start's text again; that `SessionStart` brings it, and keeps what was delivered
   * since. Absent: the next tool call brings it unless that `SessionStart` came first.
   */
  readonly startSurvivesCompaction?: boolean;
  /**
   * An event the host fires before each model call with the request it is about to send
   * (`llm_request.messages`, the text of each message), and the fixed reply that follows the summary
   * a compression puts in the history: a summary the hook has not seen means the host compressed
   * since, and what the hook disclosed before is gone. Absent: no such event.
   */
  readonly compression?: { readonly event: string; readonly reply: string };
  /**
   * How `ctxfiles init` registers the hook in the host's settings (docs/hooks.md): the matcher of
   * the start event (absent: none) and of the compaction and compression events (absent: none),
   * how the tool matcher is written (`alternation`: `A|B`, `anchored`: `^(A|B)$`), and
   * `shellPaths`: the commands get `--shell-paths` and the shell tools join the matcher. The tool
   * names are those of `tools`, in their order; the subagent event is registered when there is one.
   * Absent: `init` does not register this host's hook.
   */
  readonly init?: {
    readonly startMatcher?: string;
    readonly compactMatcher?: string;
    readonly toolMatcher: 'alternation' | 'anchored';
    readonly shellPaths?: boolean;
  };
  /** What the hook prints when it has nothing to add; absent: nothing at all. */
  readonly emptyOutput?: string;
  /**
   * Recasts the JSON object a host writes to its hook into the fields `ctxfiles hook` reads (Claude
   * Code's: `hook_event_name`, `session_id`, `cwd`, `tool_name`, `tool_input`, `tool_response`,
   * `agent_id`, `agent_type`, `permission_mode`, `source`, `trigger`), for a host whose events have
   * other names and shapes (Cline CLI). Never throws: an event it cannot read is returned as it
   * is, which then fails with the usual one-line reason. Absent: the object as it is.
   */
  input?(record: Readonly<Record<string, unknown>>): Record<string, unknown>;
  /**
   * The hook's answer that adds `text` (never empty), for a host that reads another shape than
   * `hookSpecificOutput.additionalContext` (Cline CLI: `contextModification`). Absent: that shape.
   */
  output?(text: string, eventName: string): string;
  /**
   * The host does not read what its start event answers (Cline CLI 3.0.65 runs `TaskStart` hooks
   * detached, their output ignored): the start's text comes with the answer to the first tool call
   * of a session (one with no state yet), before what that call touched, and `init` registers no
   * start event. Absent: the start event answers it.
   */
  readonly startWithFirstTool?: boolean;
  /** Tool name → how it touches paths. Every tool not listed touches nothing. */
  readonly tools: Readonly<Record<string, HookTool>>;
  /**
   * An environment variable the host sets to the project directory for its hooks: the work dir
   * when `--cwd` is not given (the event's `cwd` may follow the shell's `cd`). Absent: the event's.
   */
  readonly projectDirEnv?: string;
  /**
   * Recasts the session frames a hook answer holds (format `format`) into what reads well where the
   * host delivers a hook's context (a host that escapes tags gets a frame without them). Absent:
   * the frames as they are.
   */
  present?(text: string, format: Format): string;
}

/** How one of a host's tools maps onto a ctxfiles trigger tool (see src/session/triggers.ts). */
export interface HookTool {
  /**
   * The trigger tool it acts as; `patch`: the first path key holds patch text (its `*** … File:`
   * lines name the files); `shell`: the first path key holds a shell command, read for paths only
   * when the hook runs with `--shell-paths`.
   */
  readonly as: 'read' | 'write' | 'edit' | 'ls' | 'grep' | 'glob' | 'patch' | 'shell';
  /** Input keys that may hold the path, first present wins. */
  readonly pathKeys: readonly string[];
  /** For `glob`: the input key holding the pattern (default `pattern`). */
  readonly patternKey?: string;
  /** The path key holds a list of glob patterns, each its own `glob` event (Gemini's read_many_files). */
  readonly patternList?: boolean;
  /**
   * The path key may hold a list, each item a path or an object whose `itemKey` holds one, each its
   * own event (Cline CLI's `read_files`: `files: [{ path }]`). Absent: a list holds paths only.
   */
  readonly itemKey?: string;
}
