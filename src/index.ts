/**
 * Public API of ctxfiles: exactly what docs/embedding.md documents (test/exports.test.ts checks
 * the list). This file only re-exports; the asynchronous functions come from ./api/lazy-api.ts, which
 * loads each implementation on first call.
 */
export {
  createResolver,
  loadConfig,
  parseConfig,
  buildSystemPrompt,
  explain,
  runFlow,
  renderFormat,
} from './api/lazy-api.js';
export type { FlowStepRun, RunFlowOptions } from './api/run-flow.js';
export type {
  Resolver,
  ResolverOptions,
  ResolveResult,
  ResolvedFile,
  Session,
  SessionOptions,
} from './api/create-resolver.js';
export type { ToolReport } from './api/open-session.js';
export type { ResolveRequest } from './api/select-request.js';
export type { ToolEvent } from './session/triggers.js';
export type { DisclosureState, InjectedRecord } from './session/disclosure-state.js';
export type { TrackedRecord } from './session/change-tracking.js';
export type { LoadConfigOptions, LoadedConfig, LazyLoadedConfig } from './config/load-config.js';
export { configJsonSchema } from './config/json-schema.js';
export type {
  Config,
  ContextLayer,
  AgentConfig,
  ContextDiscoveryConfig,
  InstructionsConfig,
  BudgetConfig,
  WordingConfig,
  SessionConfig,
  SessionToolConfig,
  RulesConfig,
  Format,
  Flow,
  FlowStep,
} from './config/types.js';
export type { NestedFile } from './discover/nested-index.js';
export type { Rule, RuleKind } from './rules/rule.js';
export type { RuleExplanation } from './rules/explain-rules.js';
export { LAYER_ORDER } from './resolve/precedence.js';
export type { LayerName } from './resolve/precedence.js';
export { CtxfilesError } from './errors.js';
export type { CtxfilesErrorCode, Diagnostic, DiagnosticLevel, Problem } from './errors.js';
export { DIAGNOSTICS } from './diagnostics.js';
export type { DiagnosticCode, DiagnosticInfo } from './diagnostics.js';
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
export { renderManifest } from './render/render-manifest.js';
export { renderInjection } from './render/render-injection.js';
export type {
  BuildPromptOptions,
  SystemPrompt,
  PromptSection,
  SectionName,
  ProjectContext,
  SubagentInfo,
} from './prompt/build-system-prompt.js';
export { contextPrompt } from './prompt/context-prompt.js';
export type { ContextPromptInput } from './prompt/context-prompt.js';
export { formatExplain } from './prompt/explain.js';
export type {
  ExplainReport,
  ExplainFile,
  ExplainSection,
  ExplainInput,
  FileOutcome,
  FormatExplainOptions,
} from './prompt/explain.js';
export { loadFragments } from './prompt/fragments.js';
export type { FragmentName, FragmentVariables } from './prompt/fragments.js';
export { discoverSkills, readSkill } from './prompt/skills.js';
export type { Skill, SkillCatalog, SkillRead } from './prompt/skills.js';
export type { McpServerInfo } from './prompt/mcp.js';
export type { ToolSpec } from './prompt/tools.js';
export type { RuntimeFacts } from './prompt/runtime-facts.js';
