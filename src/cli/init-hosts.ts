import path from 'node:path';
import { HOST_REGISTRY } from '../hosts/index.js';

/** The agents `ctxfiles init` configures. */
export const INIT_HOSTS = ['claude-code', 'gemini-cli', 'codex', 'opencode', 'kilo', 'qwen-code'] as const;
export type InitHost = (typeof INIT_HOSTS)[number];

/** This machine's node and ctxfiles bin, as absolute paths. */
export interface Launch {
  readonly node: string;
  readonly bin: string;
}

/**
 * How the agent starts ctxfiles. `absolute`: this machine's node and bin (nothing depends on the
 * agent's PATH, but the file holds paths of this machine). `project`: `node` and the bin installed
 * in the project, named relative to the project (`bin`, from the project directory) or to the
 * repository's root (`fromRoot`, from the folder holding `.git`; `null` outside a repository), so
 * a team can commit the file (docs/hooks.md, "Setting it up").
 */
export type LaunchForm =
  | ({ readonly kind: 'absolute' } & Launch)
  | { readonly kind: 'project'; readonly bin: string; readonly fromRoot: string | null };

/** The shell words and the argv that start ctxfiles, before its command (`hook …`, `mcp`). */
export interface Starter {
  /** For a hook: one shell command line. */
  readonly shell: string;
  /** For an MCP server: the program and its first arguments. */
  readonly command: string;
  readonly args: readonly string[];
}

/** The repository root, found by git: hooks and servers of these hosts may start in a sub-folder. */
const ROOT = '"$(git rev-parse --show-toplevel)"';

/**
 * How `host` starts ctxfiles in `form`, or `null` when that host cannot use it (a host without a
 * project variable outside a git repository). Project forms: Claude Code exports
 * `$CLAUDE_PROJECT_DIR` to hook commands; Gemini CLI replaces
 * `$GEMINI_PROJECT_DIR` in a hook command with the quoted project dir (so it is written unquoted)
 * and reads its workspace settings from the folder it runs in, where its MCP servers start too;
 * Qwen Code exports `$QWEN_PROJECT_DIR` to its hooks (bash reads it) and starts servers as Gemini
 * CLI does; Codex, OpenCode and Kilo CLI find their project config up to the repository's root
 * and run hooks and servers in the session's folder, so the bin is named from the root git gives.
 */
export function starter(host: InitHost, form: LaunchForm): Starter | null {
  if (form.kind === 'absolute') {
    const shell = `${shellWord(form.node)} ${shellWord(form.bin)}`;
    return { shell, command: form.node, args: [form.bin] };
  }
  const bin = shellWord(form.bin);
  switch (host) {
    case 'claude-code': {
      // Its MCP config expands `${VAR:-default}` from Claude Code's own environment, which has no
      // CLAUDE_PROJECT_DIR (the lab saw the default used): the server finds the root by git.
      const shell = `node "$CLAUDE_PROJECT_DIR"/${bin}`;
      if (form.fromRoot === null) return { shell, command: 'node', args: [form.bin] };
      return { shell, ...gitRootStart(form.fromRoot) };
    }
    case 'gemini-cli':
      return { shell: `node $GEMINI_PROJECT_DIR/${bin}`, command: 'node', args: [form.bin] };
    case 'qwen-code':
      return { shell: `node "$QWEN_PROJECT_DIR"/${bin}`, command: 'node', args: [form.bin] };
    case 'codex':
    case 'opencode':
    case 'kilo': {
      if (form.fromRoot === null) return null;
      return { shell: `node ${ROOT}/${shellWord(form.fromRoot)}`, ...gitRootStart(form.fromRoot) };
    }
  }
}

/** An MCP server started from the repository root git finds, whatever folder the host runs in. */
function gitRootStart(fromRoot: string): Pick<Starter, 'command' | 'args'> {
  return { command: 'sh', args: ['-c', `exec node ${ROOT}/${shellWord(fromRoot)} "$@"`, 'sh'] };
}

/** One hook group: the events it answers and what it matches. */
export interface HookGroup {
  readonly event: string;
  readonly matcher?: string;
  /** Extra arguments after `hook <agent>`. */
  readonly args?: string;
}

/** A JSON (or JSONC) settings file and what ctxfiles puts in it. */
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

/** A TOML file where ctxfiles owns one marked block. */
export interface TomlTarget {
  readonly kind: 'toml';
  readonly file: string;
  readonly block: string;
  /** Tables the block defines, which must not be defined elsewhere in the file. */
  readonly tables: readonly string[];
}

export type InitTarget = JsonTarget | TomlTarget;

/** Where a scope's files live. */
export interface InitPlaces {
  /** The project directory (`--project`). */
  readonly workDir: string;
  readonly homeDir: string;
  readonly env: Readonly<Record<string, string | undefined>>;
}

/** The first and last line of ctxfiles' block in a TOML file. */
export const TOML_BEGIN =
  '# >>> ctxfiles: written by `ctxfiles init codex`; `ctxfiles init codex --remove` deletes it >>>';
export const TOML_END = '# <<< ctxfiles <<<';

/** A word for a POSIX shell (hooks run their command through one), quoted only when needed. */
export function shellWord(word: string): string {
  if (/^[\w./:@%+=,-]+$/.test(word)) return word;
  return process.platform === 'win32' ? `"${word.replace(/"/g, '""')}"` : `'${word.replace(/'/g, "'\\''")}'`;
}

function hookCommand(start: Starter, agent: string, args = ''): string {
  return `${start.shell} hook ${agent}${args}`;
}

/** The server's arguments: `--host` keeps out what the host shows by itself (docs/mcp.md). */
const mcpArgs = (start: Starter, host: InitHost) => [...start.args, 'mcp', '--host', host];

/**
 * The hook groups `init` registers for a host, from its hook protocol (src/hosts/<id>/index.ts):
 * start, the tools of its table (shell tools only with `--shell-paths`), compaction, the
 * compression event and the subagent event where it has them.
 */
export function hookGroups(host: string): readonly HookGroup[] {
  const protocol = HOST_REGISTRY.hookProtocol(host);
  const init = protocol?.init;
  if (protocol === undefined || init === undefined) return [];
  const args = init.shellPaths === true ? { args: ' --shell-paths' } : {};
  const matcher = (value: string | undefined) => (value === undefined ? {} : { matcher: value });
  const tools = Object.entries(protocol.tools)
    .filter(([, tool]) => tool.as !== 'shell' || init.shellPaths === true)
    .map(([name]) => name);
  const alternatives = tools.join('|');
  const toolMatcher = init.toolMatcher === 'anchored' ? `^(${alternatives})$` : alternatives;
  const { events, compression } = protocol;
  return [
    { event: events.start, ...matcher(init.startMatcher), ...args },
    { event: events.afterTool, matcher: toolMatcher, ...args },
    { event: events.compact, ...matcher(init.compactMatcher), ...args },
    ...(compression === undefined
      ? []
      : [{ event: compression.event, ...matcher(init.compactMatcher), ...args }]),
    ...(events.subagentStart === undefined ? [] : [{ event: events.subagentStart, ...args }]),
  ];
}

/**
 * The files `ctxfiles init <host>` writes for a scope, and what goes in each. Project scope:
 * Claude Code `.claude/settings.json` (hooks) and `.mcp.json`, Gemini CLI `.gemini/settings.json`,
 * Codex `.codex/config.toml`, OpenCode `opencode.json`, Kilo CLI `kilo.json`, Qwen Code `.qwen/settings.json`; user scope: the same
 * under the home directory (Claude Code's user MCP servers live in `~/.claude.json`; Codex honours
 * `$CODEX_HOME`; OpenCode's is `~/.config/opencode/opencode.json`, Kilo's `~/.config/kilo/kilo.json`).
 * Never an instruction file.
 */
export function initTargets(
  host: InitHost,
  scope: 'project' | 'user',
  launch: Starter,
  places: InitPlaces,
): InitTarget[] {
  const base = scope === 'project' ? places.workDir : places.homeDir;
  switch (host) {
    case 'claude-code':
      return claudeCodeTargets(base, scope, launch);
    case 'gemini-cli':
      return [geminiTarget(base, launch)];
    case 'codex': {
      const home = places.env['CODEX_HOME'];
      const dir =
        scope === 'user' && home !== undefined && path.isAbsolute(home) ? home : path.join(base, '.codex');
      return [
        {
          kind: 'toml',
          file: path.join(dir, 'config.toml'),
          block: codexBlock(launch),
          tables: ['mcp_servers.ctxfiles'],
        },
      ];
    }
    case 'opencode':
    case 'kilo':
      return [opencodeTarget(host, base, scope, launch)];
    case 'qwen-code':
      return [qwenTarget(base, launch)];
  }
}

/**
 * OpenCode and its fork Kilo CLI: the MCP server in the `mcp` object of `<host>.json` (user:
 * `~/.config/<host>/<host>.json`); neither has hooks.
 */
function opencodeTarget(
  host: 'opencode' | 'kilo',
  base: string,
  scope: 'project' | 'user',
  launch: Starter,
): InitTarget {
  return {
    kind: 'json',
    file:
      scope === 'project'
        ? path.join(base, `${host}.json`)
        : path.join(base, '.config', host, `${host}.json`),
    hooks: [],
    mcp: {
      path: ['mcp', 'ctxfiles'],
      value: { type: 'local', command: [launch.command, ...mcpArgs(launch, host)], enabled: true },
    },
  };
}

/** Claude Code: hooks in `settings.json`; the MCP server in `.mcp.json` (user: `~/.claude.json`). */
function claudeCodeTargets(base: string, scope: 'project' | 'user', launch: Starter): InitTarget[] {
  return [
    {
      kind: 'json',
      file: path.join(base, '.claude', 'settings.json'),
      agent: 'claude-code',
      hooks: hookGroups('claude-code').map((group) => ({
        event: group.event,
        group: {
          ...(group.matcher === undefined ? {} : { matcher: group.matcher }),
          hooks: [{ type: 'command', command: hookCommand(launch, 'claude-code'), timeout: 30 }],
        },
      })),
    },
    {
      kind: 'json',
      file: scope === 'project' ? path.join(base, '.mcp.json') : path.join(base, '.claude.json'),
      hooks: [],
      mcp: {
        path: ['mcpServers', 'ctxfiles'],
        value: { type: 'stdio', command: launch.command, args: mcpArgs(launch, 'claude-code') },
      },
    },
  ];
}

/** Gemini CLI: hooks (timeouts in milliseconds) and `mcpServers` in one `settings.json`. */
function geminiTarget(base: string, launch: Starter): InitTarget {
  return {
    kind: 'json',
    file: path.join(base, '.gemini', 'settings.json'),
    agent: 'gemini-cli',
    hooks: hookGroups('gemini-cli').map((group) => ({
      event: group.event,
      group: {
        matcher: group.matcher,
        hooks: [
          {
            name: `ctxfiles-${group.event.toLowerCase()}`,
            type: 'command',
            command: hookCommand(launch, 'gemini-cli'),
            timeout: 30_000,
          },
        ],
      },
    })),
    mcp: {
      path: ['mcpServers', 'ctxfiles'],
      value: { command: launch.command, args: mcpArgs(launch, 'gemini-cli') },
    },
  };
}

/**
 * Qwen Code: hooks in Claude Code's shape (timeouts in seconds) and `mcpServers` in one
 * `.qwen/settings.json` (user: `~/.qwen/settings.json`).
 */
function qwenTarget(base: string, launch: Starter): InitTarget {
  return {
    kind: 'json',
    file: path.join(base, '.qwen', 'settings.json'),
    agent: 'qwen-code',
    hooks: hookGroups('qwen-code').map((group) => ({
      event: group.event,
      group: {
        ...(group.matcher === undefined ? {} : { matcher: group.matcher }),
        hooks: [{ type: 'command', command: hookCommand(launch, 'qwen-code'), timeout: 30 }],
      },
    })),
    mcp: {
      path: ['mcpServers', 'ctxfiles'],
      value: { command: launch.command, args: mcpArgs(launch, 'qwen-code') },
    },
  };
}

/** A TOML basic string: JSON's escapes are TOML's. */
const tomlString = (value: string) => JSON.stringify(value);

/** ctxfiles' block of a Codex `config.toml`: the MCP server and the hooks, between the markers. */
function codexBlock(launch: Starter): string {
  const lines = [
    TOML_BEGIN,
    '[mcp_servers.ctxfiles]',
    `command = ${tomlString(launch.command)}`,
    `args = [${mcpArgs(launch, 'codex').map(tomlString).join(', ')}]`,
  ];
  for (const group of hookGroups('codex')) {
    lines.push('', `[[hooks.${group.event}]]`);
    if (group.matcher !== undefined) lines.push(`matcher = ${tomlString(group.matcher)}`);
    lines.push(
      '',
      `[[hooks.${group.event}.hooks]]`,
      'type = "command"',
      `command = ${tomlString(hookCommand(launch, 'codex', group.args))}`,
      'timeout = 30',
    );
  }
  lines.push(TOML_END);
  return `${lines.join('\n')}\n`;
}
