// Kilo CLI (an OpenCode fork): `kilo run` against the lab's Chat Completions server through a
// provider using @ai-sdk/openai-compatible (bundled in the binary), with the models list fetch,
// the updater, sharing and telemetry off. Pinned at 7.7.7: the newest version whose linux-x64
// binary package is published beside it. Like OpenCode it installs its plugin package into its
// config dir at start; a lock file that already lists it stops that download.
import opencode, { prepareOpencodeFamily } from './opencode.mjs';

const VERSION = '7.7.7';

export default {
  id: 'kilo',
  label: 'Kilo CLI',
  preset: 'kilo',
  packages: [`@kilocode/cli@${VERSION}`, `@kilocode/cli-linux-x64@${VERSION}`],
  version: VERSION,
  bin: 'node_modules/@kilocode/cli-linux-x64/bin/kilo',
  names: { doc: 'AGENTS.md', user: '.config/kilo/AGENTS.md' },
  prepare: (context) =>
    prepareOpencodeFamily(context, {
      id: 'kilo',
      plugin: '@kilocode/plugin',
      version: VERSION,
      // Only the lab's provider: the built-in Kilo Gateway provider fetches its model list.
      config: { enabled_providers: ['lab'] },
      env: {
        KILO_DISABLE_MODELS_FETCH: '1',
        KILO_DISABLE_AUTOUPDATE: '1',
        KILO_DISABLE_SHARE: '1',
        KILO_DISABLE_LSP_DOWNLOAD: '1',
        KILO_TELEMETRY_LEVEL: 'off',
        KILO_DISABLE_CODEBASE_INDEXING: '1',
      },
    }),
  // Kilo's requests, tools, MCP tool names and read frame are OpenCode's.
  toolCall: opencode.toolCall,
  mcpCall: opencode.mcpCall,
  extractMcp: opencode.extractMcp,
  hasToolResult: opencode.hasToolResult,
  toolResultCount: opencode.toolResultCount,
  isMain: opencode.isMain,
  extractStatic: opencode.extractStatic,
  extractLive: opencode.extractLive,
  sessionEvent: opencode.sessionEvent,
};
