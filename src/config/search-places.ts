/**
 * Where a config is looked for, in each directory from the work dir upward, in this order
 * (docs/config.md, "Where the config is found"). `package.json` counts only when it has a `ctxfiles` key.
 * `opencode.json` is today's OpenCode's own file (its `instructions`, `agent`, `mcp` keys mean other
 * things) and is never read as a ctxfiles config; `.opencode.json` is the Go opencode's.
 * A module of its own, with no imports, so that a hook with nothing to do can probe the same names
 * (src/hooks/hook-state.ts) without loading the config modules.
 */
export const CONFIG_SEARCH_PLACES: readonly string[] = Object.freeze([
  '.opencode.json',
  '.opencode.yaml',
  '.opencode.yml',
  'ctxfiles.config.json',
  'ctxfiles.config.yaml',
  'ctxfiles.config.yml',
  'ctxfiles.config.js',
  'ctxfiles.config.mjs',
  'ctxfiles.config.cjs',
  'ctxfiles.config.ts',
  'package.json',
]);
