/** Default values of every config key (DESIGN §3). Kept free of zod so the CLI loads it cheaply. */

/** The global `contextPaths` used when a config sets none. */
export const DEFAULT_CONTEXT_PATHS: readonly string[] = Object.freeze([
  'AGENTS.md',
  'CLAUDE.md',
  'CLAUDE.local.md',
  'opencode.md',
  'opencode.local.md',
  'OpenCode.md',
  'OpenCode.local.md',
  'OPENCODE.md',
  'OPENCODE.local.md',
  '.github/copilot-instructions.md',
  '.cursorrules',
  '.cursor/rules/',
]);

/** Defaults of the whole config. */
export const DEFAULT_CONFIG = Object.freeze({
  contextPaths: DEFAULT_CONTEXT_PATHS,
  contextDiscovery: Object.freeze({
    enabled: true,
    maxFiles: 100,
    maxDepth: 8,
    maxFileBytes: 32_768,
    maxSessionBytes: 131_072,
    maxManifestBytes: 8_192,
  }),
  flows: Object.freeze(['flows/**/*.{yaml,yml}', '.opencode/flows/**/*.{yaml,yml}']),
});

/** Top-level keys ctxfiles understands; any other key warns with a "did you mean" hint. */
export const KNOWN_TOP_LEVEL_KEYS: readonly string[] = Object.freeze([
  '$schema',
  'contextPaths',
  'agents',
  'contextDiscovery',
  'flows',
]);
