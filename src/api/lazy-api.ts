/**
 * The asynchronous functions of the public API, each loading its implementation on first call, so
 * that `import 'ctxfiles'` reads only what the synchronous exports need (bench/import.mjs measures
 * it). Same signatures and behaviour as the modules they load.
 */
import type * as ResolverModule from './create-resolver.js';
import type * as LoadConfigModule from '../config/load-config.js';
import type * as PromptModule from '../prompt/build-system-prompt.js';
import type * as ExplainModule from '../prompt/explain.js';
import type * as RunFlowModule from './run-flow.js';

/** See `createResolver` in src/api/create-resolver.ts. */
export const createResolver: typeof ResolverModule.createResolver = async (options) =>
  (await import('./create-resolver.js')).createResolver(options);

/** See `loadConfig` in src/config/load-config.ts. */
export const loadConfig = (async (options?: LoadConfigModule.LoadConfigOptions) =>
  (await import('../config/load-config.js')).loadConfig(options)) as typeof LoadConfigModule.loadConfig;

/** See `parseConfig` in src/config/load-config.ts. */
export const parseConfig: typeof LoadConfigModule.parseConfig = async (value, file) =>
  (await import('../config/load-config.js')).parseConfig(value, file);

/** See `buildSystemPrompt` in src/prompt/build-system-prompt.ts. */
export const buildSystemPrompt: typeof PromptModule.buildSystemPrompt = async (options) =>
  (await import('../prompt/build-system-prompt.js')).buildSystemPrompt(options);

/** See `explain` in src/prompt/explain.ts. */
export const explain: typeof ExplainModule.explain = async (prompt, result) =>
  (await import('../prompt/explain.js')).explain(prompt, result);

/** See `runFlow` in src/api/run-flow.ts. */
export const runFlow: typeof RunFlowModule.runFlow = async (resolver, options) =>
  (await import('./run-flow.js')).runFlow(resolver, options);
