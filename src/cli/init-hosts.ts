import { HOST_REGISTRY } from '../hosts/index.js';
import type { Host, HookGroup, HostInit, InitLaunch, InitPlaces, InitTarget } from '../registry/host.js';

export type {
  HookGroup,
  InitPlaces,
  InitTarget,
  JsonTarget,
  ScriptTarget,
  TomlTarget,
} from '../registry/host.js';

/** The hosts `ctxfiles init` configures: those whose module says how (`Host.init`), in registry order. */
export const INIT_HOSTS: readonly string[] = HOST_REGISTRY.initHosts;

/** A host `init` configures, with how. */
export type InitHost = Host & { readonly init: HostInit };

/** The host of that id when `init` configures it, else `undefined`. */
export function initHost(id: string): InitHost | undefined {
  const host = HOST_REGISTRY.host(id);
  return host?.init === undefined ? undefined : (host as InitHost);
}

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
 * project variable outside a git repository), by its module's `init.anchor`. A host with a project
 * dir variable (Claude Code and Qwen Code export it to their hooks, so it is quoted for the shell;
 * Gemini CLI replaces it in the command with the quoted project dir, so it is written unquoted)
 * names the bin from the project, and its MCP server, started in the project's folder, the same way
 * (Claude Code's from the git root: `mcpFromGitRoot`). A host without one (Codex, OpenCode, Kilo CLI find their project config up to
 * the repository's root and run hooks and servers in the session's folder) names the bin from the
 * root git gives.
 */
export function starter(host: InitHost, form: LaunchForm): Starter | null {
  if (form.kind === 'absolute') {
    const shell = `${shellWord(form.node)} ${shellWord(form.bin)}`;
    return { shell, command: form.node, args: [form.bin] };
  }
  const { anchor } = host.init;
  if (anchor.kind === 'git-root') {
    if (form.fromRoot === null) return null;
    return { shell: `node ${ROOT}/${shellWord(form.fromRoot)}`, ...gitRootStart(form.fromRoot) };
  }
  const variable = anchor.quoted ? `"$${anchor.variable}"` : `$${anchor.variable}`;
  const shell = `node ${variable}/${shellWord(form.bin)}`;
  if (host.init.mcpFromGitRoot === true && form.fromRoot !== null)
    return { shell, ...gitRootStart(form.fromRoot) };
  return { shell, command: 'node', args: [form.bin] };
}

/**
 * What a project form's note names as the place the command starts from: the host's project dir
 * variable (`$CLAUDE_PROJECT_DIR`), or the repository root.
 */
export function projectAnchor(host: InitHost): string {
  const { anchor } = host.init;
  return anchor.kind === 'git-root' ? '$(git rev-parse --show-toplevel)' : `$${anchor.variable}`;
}

/** An MCP server started by `sh` from the repository root, the server's own arguments after it. */
function gitRootStart(fromRoot: string): Pick<Starter, 'command' | 'args'> {
  return { command: 'sh', args: ['-c', `exec node ${ROOT}/${shellWord(fromRoot)} "$@"`, 'sh'] };
}

/** A word for a POSIX shell (hooks run their command through one), quoted only when needed. */
export function shellWord(word: string): string {
  if (/^[\w./:@%+=,-]+$/.test(word)) return word;
  return process.platform === 'win32' ? `"${word.replace(/"/g, '""')}"` : `'${word.replace(/'/g, "'\\''")}'`;
}

/**
 * The files `ctxfiles init <host>` writes for a scope, and what goes in each, as the host's module
 * states them (`init.targets`): its settings files, never an instruction file.
 */
export function initTargets(
  host: InitHost,
  scope: 'project' | 'user',
  start: Starter,
  places: InitPlaces,
): readonly InitTarget[] {
  const launch: InitLaunch = {
    command: start.command,
    // `--host` keeps out what the host shows by itself (docs/mcp.md).
    mcpArgs: [...start.args, 'mcp', '--host', host.id],
    hookCommand: (args = '') => `${start.shell} hook ${host.id}${args}`,
    hookGroups: hookGroups(host),
  };
  return host.init.targets(scope, places, launch);
}

/**
 * The hook groups `init` registers for a host, from its hook protocol (src/hosts/<id>/index.ts):
 * start (unless the host ignores its answer: `startWithFirstTool`), the tools of its table (shell
 * tools only with `--shell-paths`), compaction, the compression event and the subagent event where
 * it has them.
 */
export function hookGroups(host: Host): readonly HookGroup[] {
  const protocol = host.hook;
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
    // A host that ignores the start's answer gets the start's text with the first tool call.
    ...(protocol.startWithFirstTool === true
      ? []
      : [{ event: events.start, ...matcher(init.startMatcher), ...args }]),
    { event: events.afterTool, matcher: toolMatcher, ...args },
    ...(events.compact === undefined
      ? []
      : [{ event: events.compact, ...matcher(init.compactMatcher), ...args }]),
    ...(compression === undefined
      ? []
      : [{ event: compression.event, ...matcher(init.compactMatcher), ...args }]),
    ...(events.subagentStart === undefined ? [] : [{ event: events.subagentStart, ...args }]),
  ];
}
