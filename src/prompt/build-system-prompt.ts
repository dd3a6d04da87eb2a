import type { SessionToolConfig } from '../config/types.js';
import type { Diagnostic } from '../errors.js';
import { toolTable } from '../session/tool-table.js';
import { escapeControl, escapeTags, escapeXmlText } from '../render/escape.js';
import { loadTokenCounter } from '../render/count-tokens.js';
import { DEFAULT_FRAGMENTS, renderFragment, type FragmentName, type FragmentVariables } from './fragments.js';
import { renderMcpSection, type McpServerInfo } from './mcp.js';
import {
  operatingSystemName,
  probeRipgrep,
  terminalEnvironment,
  type RuntimeFacts,
} from './runtime-facts.js';
import { renderSkillsSection, type Skill } from './skills.js';
import { DEFAULT_SKILL_LOADERS, renderToolSection, type ToolSpec } from './tools.js';

/** Section names, in the fixed order they appear: most stable first, environment last. */
export const SECTION_ORDER = Object.freeze([
  'identity',
  'base',
  'tools',
  'guidelines',
  'subagents',
  'skills',
  'mcp',
  'project',
  'environment',
] as const);

/** The name of a prompt section. */
export type SectionName = (typeof SECTION_ORDER)[number];

/** A subagent the model can hand work to. */
export interface SubagentInfo {
  readonly name: string;
  readonly description?: string | undefined;
}

/** Project context for the prompt: a resolver result, or just its text. */
export interface ProjectContext {
  readonly text: string;
  readonly manifest?: string | undefined;
  readonly diagnostics?: readonly Diagnostic[] | undefined;
}

/** Options of {@link buildSystemPrompt}. All optional. */
export interface BuildPromptOptions {
  /**
   * A custom base text. It replaces the bundled identity and guidelines and nothing else: tools,
   * skills, MCP servers, project context and environment stay. Kept literally; `''` stays empty.
   */
  readonly base?: string | undefined;
  /** The tools the model holds, by declared name, in declaration order. */
  readonly tools?: ReadonlyArray<string | ToolSpec> | undefined;
  /**
   * Tool names mapped to a kind, as sessions take them (`session.tools`, `openSession({ tools })`):
   * a declared tool without guidance of its own gets the bundled line of its kind.
   */
  readonly sessionTools?: Readonly<Record<string, SessionToolConfig>> | undefined;
  readonly subagents?: readonly SubagentInfo[] | undefined;
  /** The skills catalog (see `discoverSkills`). Shown only when a skill loader tool is active. */
  readonly skills?: readonly Skill[] | undefined;
  /** Tool names that can load skills. Default `load_skill` and `read`. */
  readonly skillLoaders?: readonly string[] | undefined;
  readonly mcpServers?: readonly McpServerInfo[] | undefined;
  /** The project context: `resolver.resolve()`'s result fits as it is. */
  readonly project?: ProjectContext | string | undefined;
  /** Add a short note listing conflicts ctxfiles noticed in the project files. Default true. */
  readonly conflictNotes?: boolean | undefined;
  /** Facts for the environment section. `date` defaults to today (YYYY-MM-DD), `cwd` to `''`. */
  readonly environment?:
    { readonly date?: string | undefined; readonly cwd?: string | undefined } | undefined;
  /** Runtime facts; each one not given is probed (ripgrep) or read (OS, terminal variables). */
  readonly facts?: Partial<RuntimeFacts> | undefined;
  /** Environment variables for the terminal fact. Default `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>> | undefined;
  /** Fragments to use instead of the bundled ones (see `loadFragments`). */
  readonly fragments?: Readonly<Record<FragmentName, string>> | undefined;
}

/** One section of the prompt. `text` includes the separator that follows it. */
export interface PromptSection {
  readonly name: SectionName;
  readonly text: string;
  readonly bytes: number;
  readonly tokens: number;
}

/** The assembled prompt. The sections' texts concatenate to `text` exactly. */
export interface SystemPrompt {
  readonly text: string;
  readonly sections: readonly PromptSection[];
}

/** Diagnostic codes that reveal a conflict the prompt should mention. */
export const CONFLICT_CODES: ReadonlySet<string> = new Set([
  'layer-replaced',
  'candidate-shadowed',
  'budget-dropped',
  'budget-truncated',
]);

/**
 * Assembles a system prompt in a fixed order, most stable first: identity (or a custom base),
 * tools, guidelines, subagents, skills (only with a loader tool), MCP servers, project context,
 * environment. Empty sections are left out; sections are separated by a blank line and the prompt
 * ends with a newline. Identical options give identical bytes.
 * @throws CtxfilesError `prompt-fragment-invalid` for a fragment with a bad variable.
 */
export async function buildSystemPrompt(options: Readonly<BuildPromptOptions> = {}): Promise<SystemPrompt> {
  const fragments = options.fragments ?? DEFAULT_FRAGMENTS;
  const tools = (options.tools ?? []).map((tool): ToolSpec =>
    typeof tool === 'string' ? { name: tool } : tool,
  );
  const toolNames = new Set(tools.map((tool) => tool.name));
  const variables = lazyVariables(options);
  const fragment = (name: FragmentName) => renderFragment(name, fragments[name], variables());

  const parts: Array<[SectionName, string]> = [];
  if (options.base === undefined) parts.push(['identity', fragment('identity')]);
  else parts.push(['base', options.base]);
  parts.push([
    'tools',
    renderToolSection(
      tools,
      options.sessionTools === undefined ? undefined : toolTable(options.sessionTools),
    ),
  ]);
  if (options.base === undefined) parts.push(['guidelines', fragment('guidelines')]);
  const subagents = options.subagents ?? [];
  if (subagents.length > 0) {
    const lines = subagents.map((agent) =>
      agent.description ? `- ${agent.name}: ${agent.description}` : `- ${agent.name}`,
    );
    parts.push(['subagents', `<subagents>\n${escapeXmlText(lines.join('\n'))}\n</subagents>`]);
  }
  const loaders = options.skillLoaders ?? DEFAULT_SKILL_LOADERS;
  if (options.skills !== undefined && loaders.some((loader) => toolNames.has(loader))) {
    parts.push(['skills', renderSkillsSection(fragment('skills'), options.skills)]);
  }
  parts.push(['mcp', renderMcpSection(options.mcpServers ?? [])]);
  parts.push(['project', projectSection(options, fragment)]);
  parts.push(['environment', fragment('environment')]);

  const kept = parts.filter(([, text]) => text !== '');
  const countTokens = await loadTokenCounter();
  const sections = kept.map(([name, text], index): PromptSection => {
    const withSeparator = text + (index === kept.length - 1 ? '\n' : '\n\n');
    return {
      name,
      text: withSeparator,
      bytes: Buffer.byteLength(withSeparator, 'utf8'),
      tokens: countTokens(withSeparator),
    };
  });
  return { text: sections.map((section) => section.text).join(''), sections };
}

/** The frame around the project files in a prompt. */
export const PROJECT_FRAME_TAG = 'project_files';

/**
 * Tags that file text may not open or close inside the project frame: the frame itself and every
 * section of the prompt (docs/prompt.md). Names only (letters, digits, `_`).
 */
const SECTION_TAGS = [
  PROJECT_FRAME_TAG,
  'environment',
  'tools',
  'tool_guidance',
  'tool_usage',
  'subagents',
  'skills',
  'mcp_servers',
] as const;

/**
 * The project section: the hierarchy statement, then the resolved block, the manifest and the
 * conflict notes inside one `<project_files>` frame. Whatever the block's format (`opencode` and
 * `magi` keep file text raw), a section tag in it, the frame's closing tag included, is escaped
 * ({@link escapeTags}), so no file can end the frame or plant a later section such as a fake
 * `<environment>`. Conflict notes keep to one line each.
 */
function projectSection(
  options: Readonly<BuildPromptOptions>,
  fragment: (name: FragmentName) => string,
): string {
  const project: ProjectContext | undefined =
    typeof options.project === 'string' ? { text: options.project } : options.project;
  if (project === undefined) return '';
  const blocks = [project.text, project.manifest ?? ''].filter((block) => block !== '');
  const conflicts =
    options.conflictNotes === false
      ? []
      : (project.diagnostics ?? []).filter((diagnostic) => CONFLICT_CODES.has(diagnostic.code));
  if (conflicts.length > 0) {
    blocks.push(
      [
        'Notes on the project files above:',
        ...conflicts.map((diagnostic) => `- ${escapeControl(diagnostic.message)}`),
      ].join('\n'),
    );
  }
  if (blocks.length === 0) return '';
  const framed = escapeTags(blocks.join('\n\n'), SECTION_TAGS);
  return `${fragment('project')}\n\n<${PROJECT_FRAME_TAG}>\n${framed}\n</${PROJECT_FRAME_TAG}>`;
}

function lazyVariables(options: Readonly<BuildPromptOptions>): () => FragmentVariables {
  let variables: FragmentVariables | undefined;
  return () => {
    if (variables === undefined) {
      const facts = options.facts ?? {};
      const env = options.env ?? process.env;
      // Only the facts the caller did not give are probed; a fragment without variables needs none.
      const value = (name: keyof RuntimeFacts, compute: () => string) => () => facts[name] ?? compute();
      const date = options.environment?.date ?? new Date().toISOString().slice(0, 10);
      const cwd = options.environment?.cwd ?? '';
      variables = lazyRecord({
        date: () => date,
        cwd: () => cwd,
        operating_system: value('operating_system', () => operatingSystemName(process.platform)),
        terminal_environment: value('terminal_environment', () => terminalEnvironment(env)),
        has_ripgrep: value('has_ripgrep', () => probeRipgrep()),
      });
    }
    return variables;
  };
}

/** An object whose properties are computed on first read. */
function lazyRecord<K extends string>(getters: Record<K, () => string>): Record<K, string> {
  const record = {} as Record<K, string>;
  for (const key of Object.keys(getters) as K[]) {
    let cached: string | undefined;
    Object.defineProperty(record, key, { enumerable: true, get: () => (cached ??= getters[key]()) });
  }
  return record;
}
