/**
 * What `ctxfiles init <host>` writes into a host's settings (docs/hooks.md, docs/mcp.md): a host
 * module states its files and their shape ({@link HostInit}); the CLI chooses how ctxfiles is
 * started, edits the files and never writes an instruction file.
 */

/** How `ctxfiles init <id>` registers ctxfiles with a host. */
export interface HostInit {
  /**
   * How a command the host runs finds the project's installed ctxfiles: `project-dir`, through the
   * variable the host gives its hook commands, written quoted or not as the host expands it;
   * `git-root`, from the repository root, for a host without one.
   */
  readonly anchor:
    | { readonly kind: 'project-dir'; readonly variable: string; readonly quoted: boolean }
    | { readonly kind: 'git-root' };
  /**
   * The MCP server starts from the repository root even though the hooks use the project dir
   * variable (Claude Code expands variables in its MCP config from its own environment, which has
   * none). Absent: as the hooks, relative to the directory the host starts the server in.
   */
  readonly mcpFromGitRoot?: boolean;
  /** The files written for a scope and what goes in each: the host's settings, never an instruction file. */
  targets(scope: 'project' | 'user', places: InitPlaces, launch: InitLaunch): readonly InitTarget[];
  /** A line `init` prints after writing (Codex: a new hook runs only once it is trusted). */
  readonly note?: string;
}

/** How ctxfiles is started from the settings of one host, as `init` chose it. */
export interface InitLaunch {
  /** The program of the MCP server and its arguments (`mcp --host <id>` included). */
  readonly command: string;
  readonly mcpArgs: readonly string[];
  /** The hook's command line for a group (`args`: what follows `hook <id>`, such as ` --shell-paths`). */
  hookCommand(args?: string): string;
  /** The hook groups to register, from the host's hook protocol (empty: no hooks). */
  readonly hookGroups: readonly HookGroup[];
}

/** One hook registration: an event, its matcher, extra arguments of the command. */
export interface HookGroup {
  readonly event: string;
  readonly matcher?: string;
  /** Extra arguments after `hook <agent>`. */
  readonly args?: string;
}

/** A JSON (or JSONC) settings file: hook groups and an MCP server entry merged into what is there. */
export interface JsonTarget {
  readonly kind: 'json';
  readonly file: string;
  /** Hook groups under `hooks.<event>`, in the agent's shape. */
  readonly hooks: readonly { readonly event: string; readonly group: Record<string, unknown> }[];
  /** The key path of the MCP server entry and its value. */
  readonly mcp?: { readonly path: readonly string[]; readonly value: Record<string, unknown> };
  /** The hook agent name in the commands (to recognize ctxfiles' own groups). */
  readonly agent?: string;
}

/** A TOML settings file: one block of ctxfiles' own between two marker lines. */
export interface TomlTarget {
  readonly kind: 'toml';
  readonly file: string;
  readonly block: string;
  /** The block's first and last lines, which find it again (`--remove`, a second `init`). */
  readonly begin: string;
  readonly end: string;
  /** Tables the block defines, which must not be defined elsewhere in the file. */
  readonly tables: readonly string[];
}

/**
 * A whole file of ctxfiles' own that the host runs (Cline CLI's hook scripts, one per event in a
 * hooks folder): written executable where none is, or where `init` wrote it before (it holds
 * `marker`); a file of the user's at that path is never replaced, and `--remove` deletes only
 * ctxfiles' own.
 */
export interface ScriptTarget {
  readonly kind: 'script';
  readonly file: string;
  readonly text: string;
  /** A line of `text` that marks the file as ctxfiles' own. */
  readonly marker: string;
}

export type InitTarget = JsonTarget | TomlTarget | ScriptTarget;

/** Where `init` writes. */
export interface InitPlaces {
  /** The project directory (`--project`). */
  readonly workDir: string;
  readonly homeDir: string;
  readonly env: Readonly<Record<string, string | undefined>>;
}
