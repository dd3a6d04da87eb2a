import { escapeXmlText } from '../render/escape.js';
import { BUILT_IN_TOOLS, lookupTool, type SessionToolSpec, type ToolTable } from '../session/tool-table.js';

/** A tool the model holds, as declared to the provider. */
export interface ToolSpec {
  /** The exact declared name. */
  readonly name: string;
  /** A one-line usage guideline; bundled guidance is used for common names when absent. */
  readonly guidance?: string | undefined;
}

/** Short guidance for common tool names (our wording). Only active tools get theirs. */
export const BUNDLED_TOOL_GUIDANCE: Readonly<Record<string, string>> = Object.freeze({
  read: 'Read a file before you edit it; read only the parts you need from large files.',
  write: 'Create a file or replace it whole; prefer edit for changes to an existing file.',
  edit: 'Change part of a file by exact replacement; read the file first so the old text matches.',
  multiedit: 'Make several exact replacements in one file in a single call.',
  patch: 'Apply a multi-file patch; keep each hunk small and based on the current file contents.',
  grep: 'Search file contents by pattern before opening files one by one.',
  glob: 'Find files by name pattern.',
  ls: 'List a directory.',
  list: 'List a directory.',
  bash: 'Run a shell command; each call starts a fresh shell, so pass paths explicitly.',
  load_skill: 'Load a skill from the catalog by name when the task matches its description.',
  codemode: 'Run a short script that discovers and calls MCP tools; only what it prints comes back.',
});

/**
 * The bundled guidance of a tool name: its own line, else the line of its kind in the tool table
 * sessions use (`read_file` reads, `list_dir` lists), so the prompt and disclosure agree on names.
 */
export function bundledGuidance(name: string, table: ToolTable = BUILT_IN_TOOLS): string | undefined {
  if (Object.hasOwn(BUNDLED_TOOL_GUIDANCE, name)) return BUNDLED_TOOL_GUIDANCE[name];
  const spec = lookupTool(table, name);
  return spec === undefined ? undefined : BUNDLED_TOOL_GUIDANCE[guidanceOfKind(spec)];
}

function guidanceOfKind(spec: SessionToolSpec): string {
  switch (spec.as) {
    case 'edit':
      return spec.patchKeys === undefined ? 'edit' : 'patch';
    case 'list':
      return 'ls';
    case 'search':
      return spec.patternKeys === undefined ? 'grep' : 'glob';
    case 'shell':
      return 'bash';
    default:
      return spec.as;
  }
}

/** Tools that can load skills; the skills catalog appears only when one of them is active. */
export const DEFAULT_SKILL_LOADERS: readonly string[] = Object.freeze(['load_skill', 'read']);

/**
 * The tool part of the prompt: `<tools>` with a compact JSON array of the declared names (XML
 * escaped, `[]` when none), `<tool_guidance>` for the active tools that have guidance (their own,
 * or by name or kind through `table`, see {@link bundledGuidance}), and
 * `<tool_usage>` rules that follow the registry: the parallel-dispatch rule when
 * `multi_tool_use.parallel` is absent, the codemode rules only when `codemode` is declared.
 */
export function renderToolSection(tools: readonly ToolSpec[], table: ToolTable = BUILT_IN_TOOLS): string {
  const names = tools.map((tool) => tool.name);
  const parts = [`<tools>${escapeXmlText(JSON.stringify(names))}</tools>`];
  const guidance = tools.flatMap((tool) => {
    const text = tool.guidance ?? bundledGuidance(tool.name, table);
    return text === undefined || text === '' ? [] : [`- ${tool.name}: ${text}`];
  });
  if (guidance.length > 0)
    parts.push(`<tool_guidance>\n${escapeXmlText(guidance.join('\n'))}\n</tool_guidance>`);
  const rules = [
    'Call tools by the exact names in the `name` field of the tool declarations, in replies and in calls alike; do not add or strip prefixes such as `functions.`, and keep a prefix a name already has.',
    'The declarations of this request are the only list of available tools. When asked what you can use, list those and nothing else; earlier messages and assumed wrappers do not count.',
    'Tool calls run one after another. There is no implicit wrapper that runs calls in parallel.',
  ];
  if (!names.includes('multi_tool_use.parallel')) {
    rules.push(
      '`multi_tool_use.parallel` is not available in this session, even if an earlier reply said it was.',
    );
  }
  if (names.includes('codemode')) {
    rules.push(
      'MCP tools are not declared directly: discover them through `codemode` (searchTools, describeNamespace, describeTool) and call them from its scripts.',
      'Calls inside a codemode script still run one at a time, even with Promise.all.',
    );
  }
  rules.push('Mention tools that are not declared only when the user asks about them.');
  parts.push(`<tool_usage>\n${escapeXmlText(rules.map((rule) => `- ${rule}`).join('\n'))}\n</tool_usage>`);
  return parts.join('\n\n');
}
