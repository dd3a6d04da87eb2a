import type { HookProtocol } from '../registry/host.js';
import type { ToolEvent } from '../session/triggers.js';
import { shellPaths, type ShellPathsOptions } from './shell-paths.js';

/** The id of a host with a hook protocol (the registry's `hookHosts`): `claude-code`, `codex`, … */
export type HookAgent = string;

/**
 * The trigger events for one of an agent's tool calls, by the tool table of its host module
 * (every tool not listed there, shell commands without the opt-in, web fetches, MCP tools, touches
 * nothing): none for an unknown tool or a missing
 * path, several for a tool that names several paths (a list: each item a path, or an object whose
 * `itemKey` holds one). `ok` is whether the call succeeded. A shell
 * command touches what it names only when `shell` is given (the `--shell-paths` opt-in): each
 * existing file is a `read`, each existing directory an `ls`.
 */
export function toToolEvents(
  protocol: HookProtocol,
  toolName: string,
  input: Readonly<Record<string, unknown>>,
  ok: boolean,
  shell?: Readonly<ShellPathsOptions>,
): ToolEvent[] {
  const tools = protocol.tools;
  const tool = Object.hasOwn(tools, toolName) ? tools[toolName] : undefined;
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
  if (Array.isArray(value))
    return value.flatMap((item) =>
      toToolEvents(protocol, toolName, { [key as string]: itemPath(item, tool.itemKey) }, ok, shell),
    );
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

/** A list item's path: the item itself, or its `itemKey` field; `undefined` for anything else. */
function itemPath(item: unknown, itemKey: string | undefined): unknown {
  if (typeof item === 'string') return item;
  if (itemKey === undefined || typeof item !== 'object' || item === null || Array.isArray(item))
    return undefined;
  return (item as Record<string, unknown>)[itemKey];
}
