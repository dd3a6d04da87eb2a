/**
 * The public API's composition root: the functions that need the hosts get the registry of the
 * host modules here (src/hosts/index.ts), which no engine module imports. The asynchronous ones
 * load their implementation on first call, so that `import 'ctxfiles'` reads only what the
 * synchronous exports need (bench/import.mjs measures it).
 */
import { HOST_REGISTRY } from '../hosts/index.js';
import type { Format } from '../config/types.js';
import type * as LoadConfigModule from '../config/load-config.js';
import type { ResolverOptions, Resolver } from './create-resolver.js';
import { renderFormat as renderWith } from '../render/render-formats.js';
import type { RenderContext, RenderFile } from '../render/render-types.js';
import type * as PromptModule from '../prompt/build-system-prompt.js';
import type * as ExplainModule from '../prompt/explain.js';
import type * as RunFlowModule from './run-flow.js';

/** See `createResolver` in src/api/create-resolver.ts. */
export const createResolver = async (options: Readonly<ResolverOptions> = {}): Promise<Resolver> =>
  (await import('./create-resolver.js')).createResolver(options, HOST_REGISTRY);

/** See `loadConfig` in src/config/load-config.ts. */
export const loadConfig = (async (options: LoadConfigModule.LoadConfigOptions = {}) =>
  (await import('../config/load-config.js')).loadConfig(options, HOST_REGISTRY)) as {
  (
    options: Readonly<LoadConfigModule.LoadConfigOptions> & { readonly lazyFlows: true },
  ): Promise<LoadConfigModule.LazyLoadedConfig>;
  (options?: Readonly<LoadConfigModule.LoadConfigOptions>): Promise<LoadConfigModule.LoadedConfig>;
};

/** See `parseConfig` in src/config/load-config.ts. */
export const parseConfig = async (
  value: unknown,
  file?: string,
): ReturnType<typeof LoadConfigModule.parseConfig> =>
  (await import('../config/load-config.js')).parseConfig(value, HOST_REGISTRY, file);

/**
 * Renders files in a format (docs/formats.md); see `renderFormat` in src/render/render-formats.ts.
 * A host's format is rendered by its host module.
 */
export function renderFormat(
  format: Format,
  files: readonly RenderFile[],
  context: Omit<RenderContext, 'formats'>,
  notice?: string,
): string {
  return renderWith(format, files, { ...context, formats: HOST_REGISTRY.format }, notice);
}

/** See `buildSystemPrompt` in src/prompt/build-system-prompt.ts. */
export const buildSystemPrompt: typeof PromptModule.buildSystemPrompt = async (options) =>
  (await import('../prompt/build-system-prompt.js')).buildSystemPrompt(options);

/** See `explain` in src/prompt/explain.ts. */
export const explain: typeof ExplainModule.explain = async (prompt, result) =>
  (await import('../prompt/explain.js')).explain(prompt, result);

/** See `runFlow` in src/api/run-flow.ts. */
export const runFlow: typeof RunFlowModule.runFlow = async (resolver, options) =>
  (await import('./run-flow.js')).runFlow(resolver, options);
