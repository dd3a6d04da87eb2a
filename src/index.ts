/** Public API of ctxfiles. This file only re-exports (STYLE 13). */
export { createResolver } from './api/create-resolver.js';
export type {
  Resolver,
  ResolverOptions,
  ResolveResult,
  ResolvedFile,
  Session,
  SessionOptions,
} from './api/create-resolver.js';
export type { ToolEvent, TouchedPaths } from './session/triggers.js';
export { touchedDirectories, touchedPaths } from './session/triggers.js';
export { BUILT_IN_TOOLS, toolTable } from './session/tool-table.js';
export type { ToolKind, SessionToolSpec, ToolTable } from './session/tool-table.js';
export type { DisclosureState, InjectedRecord } from './session/disclosure.js';
export { renderManifest, MANIFEST_HEADING } from './render/render-manifest.js';
export { renderInjection } from './render/render-injection.js';
export { PRUNED_DIRECTORIES } from './discover/nested-walk.js';
export type { ResolveRequest } from './api/select-request.js';
export { loadConfig, parseConfig, CONFIG_SEARCH_PLACES } from './config/load-config.js';
export type { LoadConfigOptions, LoadedConfig, LazyLoadedConfig } from './config/load-config.js';
export { loadFlowFiles } from './config/load-flows.js';
export { lintConfig } from './config/lint-config.js';
export { configJsonSchema } from './config/json-schema.js';
export { DEFAULT_CONFIG, DEFAULT_CONTEXT_PATHS } from './config/defaults.js';
export type {
  Config,
  ContextLayer,
  AgentConfig,
  ContextDiscoveryConfig,
  Flow,
  FlowStep,
  SessionConfig,
  SessionToolConfig,
} from './config/types.js';
export type { NestedFile } from './discover/nested-index.js';
export type { TrackedRecord } from './session/disclosure.js';
export { CtxfilesError } from './errors.js';
export type { CtxfilesErrorCode, Diagnostic, DiagnosticLevel, Problem } from './errors.js';
export type { FileSystem, FileInfo, FileKind, DirEntry, ReadOptions, ReadResult } from './fs/file-system.js';
export { createNodeFileSystem } from './fs/node-file-system.js';
export { createMemoryFileSystem } from './fs/memory-file-system.js';
export type {
  MemoryFileSystem,
  MemoryTree,
  MemoryNodeSpec,
  MemoryFileSystemOptions,
  MemoryOperation,
  MemoryCall,
} from './fs/memory-file-system.js';
export { LAYER_ORDER } from './resolve/precedence.js';
export type { LayerName } from './resolve/precedence.js';
export { OPENCODE_HEADER, renderOpencode } from './render/render-opencode.js';
export { buildSystemPrompt, SECTION_ORDER, CONFLICT_CODES } from './prompt/build-system-prompt.js';
export type {
  BuildPromptOptions,
  SystemPrompt,
  PromptSection,
  SectionName,
  ProjectContext,
  SubagentInfo,
} from './prompt/build-system-prompt.js';
export { explain, formatExplain } from './prompt/explain.js';
export type {
  ExplainReport,
  ExplainFile,
  ExplainSection,
  ExplainInput,
  FileOutcome,
} from './prompt/explain.js';
export {
  DEFAULT_FRAGMENTS,
  FRAGMENT_VARIABLES,
  loadFragments,
  renderFragment,
  fragmentVariables,
} from './prompt/fragments.js';
export type { FragmentName, FragmentVariables } from './prompt/fragments.js';
export { discoverSkills, readSkill, parseSkillUri } from './prompt/skills.js';
export type { Skill, SkillCatalog, SkillRead } from './prompt/skills.js';
export type { McpServerInfo } from './prompt/mcp.js';
export type { ToolSpec } from './prompt/tools.js';
export { BUNDLED_TOOL_GUIDANCE, DEFAULT_SKILL_LOADERS } from './prompt/tools.js';
export { runtimeFacts, terminalEnvironment, operatingSystemName } from './prompt/runtime-facts.js';
export type { RuntimeFacts } from './prompt/runtime-facts.js';
export { renderFormat } from './render/render-formats.js';
export type { Format, InstructionsConfig, BudgetConfig, WordingConfig } from './config/types.js';
export { loadTokenCounter } from './render/count-tokens.js';
