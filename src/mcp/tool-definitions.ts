import { MAX_TOOL_PATH_LENGTH } from './tool-path.js';

/** Longest rule name `get_rule` accepts. */
export const MAX_RULE_NAME_LENGTH = 1024;

/** A tool as `tools/list` describes it: name, description and JSON Schema of its input. */
export interface ToolDefinition {
  readonly name: ToolName;
  readonly title: string;
  readonly description: string;
  readonly inputSchema: {
    readonly type: 'object';
    readonly properties: Readonly<Record<string, unknown>>;
    readonly required?: readonly string[];
    readonly additionalProperties: false;
  };
  readonly annotations: { readonly readOnlyHint: true; readonly openWorldHint: false };
}

/** The tools of `ctxfiles mcp`. */
export type ToolName = 'instructions_for_path' | 'list_rules' | 'get_rule' | 'explain_instructions';

/** Names earlier versions listed, still answered (a client's allow-list may hold them). */
export const TOOL_ALIASES: Readonly<Record<string, ToolName>> = Object.freeze({
  explain: 'explain_instructions',
});

const pathProperty = (what: string) => ({
  type: 'string',
  minLength: 1,
  maxLength: MAX_TOOL_PATH_LENGTH,
  description: `${what} Relative to the project's working directory, or absolute inside it. The file does not need to exist yet.`,
});

const idProperty = (description: string) => ({ type: 'string', minLength: 1, maxLength: 200, description });

/**
 * The context a call is made in (docs/subagents.md): a subagent names the ctxfiles agent it is, or
 * the flow step it works in; each context has its own once-only state on the connection.
 */
const scopeProperties = {
  agent: idProperty(
    'Optional: the agent you are, when your instructions name one (a subagent: reviewer, explorer, ...). Its own instructions apply.',
  ),
  flow: idProperty('Optional, with step: the flow you work in, when your instructions name one.'),
  step: idProperty('Optional, with flow: the step of that flow you are in (plan, implement, ...).'),
};

/**
 * The tool list. A client with deferred tools (Claude Code's tool search) shows the model only the
 * names until it searches, and the search matches words of the name and the description: so each
 * name says what it returns, and each description starts with the words a model looks for
 * (project instructions, AGENTS.md, CLAUDE.md, rules, conventions), then when to call and what
 * comes back; repeated calls only return what is new.
 */
export const TOOL_DEFINITIONS: readonly ToolDefinition[] = Object.freeze([
  {
    name: 'instructions_for_path',
    title: 'Project instructions for a path',
    description:
      'Project instructions, coding conventions and rules (AGENTS.md, CLAUDE.md, GEMINI.md, .cursor/rules and similar files) that apply to a file or directory and have not been returned on this connection yet: the project-wide files on the first call, then the files of the sub-directories on the way to the path. Call it before you read, create or change files in a directory you have not worked in yet, and follow what it returns. Each file comes in its own block naming its path. When nothing new applies, the answer says so; calling again for the same place returns nothing new.',
    inputSchema: {
      type: 'object',
      properties: {
        path: pathProperty('The file or directory you are about to work on.'),
        ...scopeProperties,
      },
      required: ['path'],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  {
    name: 'list_rules',
    title: 'List project rules',
    description:
      'Project rules and guidelines from rule folders (.cursor/rules, .claude/rules, .github/instructions and similar): for each its name, kind (always, glob, requested or manual), description and globs. Rules of kind "requested" and "manual" are never sent on their own: fetch one with get_rule when its description fits your task.',
    inputSchema: { type: 'object', properties: { ...scopeProperties }, additionalProperties: false },
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  {
    name: 'get_rule',
    title: 'Get a project rule',
    description:
      'The full text of one project rule or guideline, by the name list_rules shows (or its path relative to the working directory). Use it for a requested or manual rule whose description matches what you are doing.',
    inputSchema: {
      type: 'object',
      properties: {
        name: {
          type: 'string',
          minLength: 1,
          maxLength: MAX_RULE_NAME_LENGTH,
          description: 'The rule name, exactly as list_rules prints it.',
        },
        ...scopeProperties,
      },
      required: ['name'],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  {
    name: 'explain_instructions',
    title: 'Explain project instructions',
    description:
      'Why a project instruction file (AGENTS.md, CLAUDE.md, a rule) is or is not in effect: which instruction files were found, used or skipped and why, with sizes; with a path, also which files govern that path and whether they were already returned on this connection. Use it when the user asks why an instruction is or is not followed. It changes nothing.',
    inputSchema: {
      type: 'object',
      properties: { path: pathProperty('Optional: a file or directory to explain.'), ...scopeProperties },
      additionalProperties: false,
    },
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
] satisfies ToolDefinition[]);
