// Kilo CLI (an OpenCode fork): `kilo run` against the lab's Chat Completions server through a
// provider using @ai-sdk/openai-compatible (bundled in the binary), with the models list fetch,
// the updater, sharing and telemetry off. Pinned at 7.7.7: the newest version whose linux-x64
// binary package is published beside it. Like OpenCode it installs its plugin package into its
// config dir at start; a lock file that already lists it stops that download.
import fs from 'node:fs';
import path from 'node:path';
import opencode from './opencode.mjs';

const VERSION = '7.7.7';

export default {
  id: 'kilo',
  label: 'Kilo CLI',
  preset: 'kilo',
  packages: [`@kilocode/cli@${VERSION}`, `@kilocode/cli-linux-x64@${VERSION}`],
  version: VERSION,
  bin: 'node_modules/@kilocode/cli-linux-x64/bin/kilo',
  names: { doc: 'AGENTS.md', user: '.config/kilo/AGENTS.md' },
  prepare({ home, port, row, prompt }) {
    const dir = path.join(home, '.config/kilo');
    fs.mkdirSync(path.join(dir, 'node_modules'), { recursive: true });
    const deps = { dependencies: { '@kilocode/plugin': VERSION } };
    fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify(deps));
    fs.writeFileSync(
      path.join(dir, 'package-lock.json'),
      JSON.stringify({ lockfileVersion: 3, packages: { '': deps } }),
    );
    const config = {
      provider: {
        lab: {
          npm: '@ai-sdk/openai-compatible',
          name: 'lab',
          options: { baseURL: `http://127.0.0.1:${port}/v1`, apiKey: 'lab-key' },
          models: { 'lab-model': { name: 'lab-model' } },
        },
      },
      // Only the lab's provider: the built-in Kilo Gateway provider fetches its model list.
      enabled_providers: ['lab'],
      model: 'lab/lab-model',
      small_model: 'lab/lab-model',
      autoupdate: false,
      share: 'disabled',
      ...(row.hostConfig?.kilo?.config ?? {}),
    };
    fs.writeFileSync(path.join(dir, 'kilo.json'), JSON.stringify(config, null, 2));
    return {
      args: ['run', prompt],
      env: {
        XDG_CONFIG_HOME: path.join(home, '.config'),
        XDG_DATA_HOME: path.join(home, '.local/share'),
        XDG_CACHE_HOME: path.join(home, '.cache'),
        XDG_STATE_HOME: path.join(home, '.local/state'),
        KILO_DISABLE_MODELS_FETCH: '1',
        KILO_DISABLE_AUTOUPDATE: '1',
        KILO_DISABLE_SHARE: '1',
        KILO_DISABLE_LSP_DOWNLOAD: '1',
        KILO_TELEMETRY_LEVEL: 'off',
        KILO_DISABLE_CODEBASE_INDEXING: '1',
      },
    };
  },
  // Kilo's requests, tools and read frame are OpenCode's.
  toolCall: opencode.toolCall,
  hasToolResult: opencode.hasToolResult,
  isMain: opencode.isMain,
  extractStatic: opencode.extractStatic,
  extractLive: opencode.extractLive,
  sessionEvent: opencode.sessionEvent,
};
