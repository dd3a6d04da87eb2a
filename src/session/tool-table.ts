import type { SessionToolConfig } from '../config/types.js';

/** What a tool does, for disclosure (docs/disclosure.md#tool-names). */
export type ToolKind = SessionToolConfig['as'];

/**
 * One row of the tool table. `pathKeys` name input keys holding a path or a list of paths (the
 * first key with a usable value wins). Built-in rows may also read patch text (`patchKeys`, or the
 * whole input when it is a string) and glob patterns (`patternKeys`).
 */
export interface SessionToolSpec {
  readonly as: ToolKind;
  readonly pathKeys?: readonly string[] | undefined;
  readonly patternKeys?: readonly string[] | undefined;
  readonly patchKeys?: readonly string[] | undefined;
}

/** Tool names matched case-insensitively, keyed in lower case. */
export type ToolTable = Readonly<Record<string, SessionToolSpec>>;

const FILE_KEYS = Object.freeze([
  'file_path',
  'filePath',
  'target_file',
  'notebook_path',
  'path',
  'filename',
]);
const DIR_KEYS = Object.freeze(['path', 'dir_path', 'dirPath', 'directory']);
const PATCH_KEYS = Object.freeze(['patch_text', 'patchText', 'input', 'patch']);

const file = (as: ToolKind): SessionToolSpec => Object.freeze({ as, pathKeys: FILE_KEYS });
const list: SessionToolSpec = Object.freeze({ as: 'list', pathKeys: DIR_KEYS });
const grep: SessionToolSpec = Object.freeze({ as: 'search', pathKeys: DIR_KEYS });
const glob: SessionToolSpec = Object.freeze({ as: 'search', pathKeys: DIR_KEYS, patternKeys: ['pattern'] });
const patch: SessionToolSpec = Object.freeze({ as: 'edit', patchKeys: PATCH_KEYS });
const shell: SessionToolSpec = Object.freeze({ as: 'shell' });

/**
 * The built-in tool names of common runners (sources in docs/disclosure.md#tool-names):
 * OpenCode (`read`, `write`, `edit`, `multiedit`, `patch`, `apply_patch`, `grep`, `glob`, `list`,
 * `bash`), Claude Code (`Read`, `Write`, `Edit`, `MultiEdit`, `NotebookEdit`, `Glob`, `Grep`, `LS`,
 * `Bash`), Gemini CLI (`read_file`, `write_file`, `replace`, `list_directory`, `glob`,
 * `grep_search`, `search_file_content`, `read_many_files`, `run_shell_command`) and Codex
 * (`apply_patch`, `read_file`, `list_dir`, `grep_files`, `shell`).
 */
export const BUILT_IN_TOOLS: ToolTable = Object.freeze({
  read: file('read'),
  read_file: file('read'),
  write: file('write'),
  write_file: file('write'),
  edit: file('edit'),
  multiedit: file('edit'),
  notebookedit: file('edit'),
  replace: file('edit'),
  patch,
  apply_patch: patch,
  ls: list,
  list,
  list_directory: list,
  list_dir: list,
  grep,
  grep_search: grep,
  search_file_content: grep,
  grep_files: grep,
  glob,
  read_many_files: Object.freeze({ as: 'read', patternKeys: ['include', 'paths'] }),
  bash: shell,
  shell,
  run_shell_command: shell,
  exec_command: shell,
});

/**
 * The tool table of a session: `session.tools` from the config, then the tools given to
 * `openSession`, merged over {@link BUILT_IN_TOOLS} (a later name replaces an earlier row of the
 * same name, compared case-insensitively).
 */
export function toolTable(
  ...layers: ReadonlyArray<Readonly<Record<string, SessionToolConfig>> | undefined>
): ToolTable {
  const table: Record<string, SessionToolSpec> = { ...BUILT_IN_TOOLS };
  for (const [name, spec] of layers.flatMap((layer) => Object.entries(layer ?? {}))) {
    table[name.toLowerCase()] = Object.freeze({
      as: spec.as,
      pathKeys: Object.freeze([
        ...(spec.pathKeys ?? (spec.as === 'list' || spec.as === 'search' ? DIR_KEYS : FILE_KEYS)),
      ]),
    });
  }
  return Object.freeze(table);
}

/**
 * The row of a tool name: its lower-case form, else its snake_case form (`readFile`, `read-file`
 * and `ReadFile` find `read_file`); `undefined` when neither is in the table.
 */
export function lookupTool(tools: ToolTable, name: string): SessionToolSpec | undefined {
  const lower = name.toLowerCase();
  if (Object.hasOwn(tools, lower)) return tools[lower];
  const snake = name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/[-\s]+/g, '_')
    .toLowerCase();
  return snake !== lower && Object.hasOwn(tools, snake) ? tools[snake] : undefined;
}
