import type { ToolEvent } from '../session/triggers.js';
import { shellPaths, type ShellPathsOptions } from './shell-paths.js';

/** The agents `ctxfiles hook` speaks to. */
export type HookAgent = 'claude-code' | 'gemini-cli' | 'codex';

/** How one of an agent's tools maps onto a ctxfiles trigger tool (see src/session/triggers.ts). */
export interface HookTool {
  /**
   * The trigger tool it acts as; `patch`: the first path key holds patch text (its `*** … File:`
   * lines name the files); `shell`: the first path key holds a shell command, read for paths only
   * when the hook runs with `--shell-paths` ({@link shellPaths}).
   */
  readonly as: 'read' | 'write' | 'edit' | 'ls' | 'grep' | 'glob' | 'patch' | 'shell';
  /** Input keys that may hold the path, first present wins. */
  readonly pathKeys: readonly string[];
  /** For `glob`: the input key holding the pattern (default `pattern`). */
  readonly patternKey?: string;
  /** The path key holds a list of glob patterns, each its own `glob` event (Gemini's read_many_files). */
  readonly patternList?: boolean;
}

/**
 * Each agent's tool names and input keys, mapped to the trigger tools. Every tool not listed (shell
 * commands, web fetches, MCP tools) touches nothing. This table is replaced by the shared
 * `session.tools` table once that lands; nothing else here knows a vendor's tool names.
 *
 * Sources: Claude Code's tool inputs in `sdk.d.ts` of the Claude Agent SDK and the tool list of
 * https://docs.claude.com/en/docs/claude-code/hooks (`MultiEdit` and `LS` are older tools, kept);
 * Gemini CLI's in google-gemini/gemini-cli `packages/core/src/tools/*.ts` (`search_file_content` is
 * the older name of `grep_search`, `absolute_path` and `path` older keys). Codex's in openai/codex
 * `codex-rs/core/src/tools/handlers/`: its shell tools report as `Bash` and `apply_patch` as itself,
 * both with the command or the patch text as `tool_input.command`. See docs/hooks.md.
 */
export const HOOK_TOOLS: Readonly<Record<HookAgent, Readonly<Record<string, HookTool>>>> = {
  'claude-code': {
    Read: { as: 'read', pathKeys: ['file_path'] },
    Write: { as: 'write', pathKeys: ['file_path'] },
    Edit: { as: 'edit', pathKeys: ['file_path'] },
    MultiEdit: { as: 'edit', pathKeys: ['file_path'] },
    NotebookEdit: { as: 'edit', pathKeys: ['notebook_path'] },
    Glob: { as: 'glob', pathKeys: ['path'] },
    Grep: { as: 'grep', pathKeys: ['path'] },
    LS: { as: 'ls', pathKeys: ['path'] },
    Bash: { as: 'shell', pathKeys: ['command'] },
  },
  'gemini-cli': {
    read_file: { as: 'read', pathKeys: ['file_path', 'absolute_path'] },
    write_file: { as: 'write', pathKeys: ['file_path'] },
    replace: { as: 'edit', pathKeys: ['file_path'] },
    list_directory: { as: 'ls', pathKeys: ['dir_path', 'path'] },
    glob: { as: 'glob', pathKeys: ['dir_path', 'path'] },
    grep_search: { as: 'grep', pathKeys: ['dir_path', 'path'] },
    search_file_content: { as: 'grep', pathKeys: ['dir_path', 'path'] },
    read_many_files: { as: 'glob', pathKeys: ['include', 'paths'], patternList: true },
    run_shell_command: { as: 'shell', pathKeys: ['command'] },
  },
  codex: {
    apply_patch: { as: 'patch', pathKeys: ['command', 'input'] },
    Bash: { as: 'shell', pathKeys: ['command'] },
  },
};

/**
 * The trigger events for one of an agent's tool calls: none for an unknown tool or a missing
 * path, several for a tool that names several paths. `ok` is whether the call succeeded. A shell
 * command touches what it names only when `shell` is given (the `--shell-paths` opt-in): each
 * existing file is a `read`, each existing directory an `ls`.
 */
export function toToolEvents(
  agent: HookAgent,
  toolName: string,
  input: Readonly<Record<string, unknown>>,
  ok: boolean,
  shell?: Readonly<ShellPathsOptions>,
): ToolEvent[] {
  const tool = Object.hasOwn(HOOK_TOOLS[agent], toolName) ? HOOK_TOOLS[agent][toolName] : undefined;
  if (tool === undefined || !ok) return [];
  const key = tool.pathKeys.find((name) => input[name] !== undefined && input[name] !== null);
  const value = key === undefined ? undefined : input[key];
  if (tool.patternList === true) {
    const patterns = Array.isArray(value) ? value : [value];
    return patterns
      .filter((pattern): pattern is string => typeof pattern === 'string' && pattern !== '')
      .map((pattern) => ({ tool: 'glob', input: { pattern }, ok: true }));
  }
  if (tool.as === 'glob') {
    const pattern = input[tool.patternKey ?? 'pattern'];
    return [{ tool: 'glob', input: { path: value, pattern }, ok: true }];
  }
  if (typeof value !== 'string' || value === '') return [];
  if (tool.as === 'patch') return [{ tool: 'apply_patch', input: { patch: value }, ok: true }];
  if (tool.as === 'shell') {
    if (shell === undefined) return [];
    const named = shellPaths(value, shell);
    return [
      ...named.files.map((file) => ({ tool: 'read', input: { file_path: file }, ok: true })),
      ...named.directories.map((dir) => ({ tool: 'ls', input: { path: dir }, ok: true })),
    ];
  }
  const pathKey = tool.as === 'read' || tool.as === 'write' || tool.as === 'edit' ? 'file_path' : 'path';
  return [{ tool: tool.as, input: { [pathKey]: value }, ok: true }];
}
