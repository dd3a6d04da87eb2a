import type { Host } from '../../registry/host.js';
import { opencodeCliFormat } from './format.js';
import { opencode } from './preset.js';
import { opencodeSettings } from './settings.js';
import { opencodeInit } from './init.js';

/** OpenCode, the `opencode-ai` package (docs/presets.md#opencode). */
export const opencodeHost: Host = {
  id: 'opencode',
  title: 'OpenCode',
  verified: { version: '1.18.33', package: 'opencode-ai' },
  sources: [
    'sst/opencode packages/opencode/src/session/instruction.ts (user file, walk, instructions globs, nested files)',
    'sst/opencode packages/opencode/src/util/filesystem.ts (findUp, globUp)',
    'sst/opencode packages/opencode/src/config/config.ts (opencode.json files, instructions joined)',
    'sst/opencode packages/opencode/src/tool/read.ts (the nested frame)',
    'sst/opencode packages/opencode/src/flag/flag.ts (OPENCODE_DISABLE_CLAUDE_CODE, OPENCODE_DISABLE_PROJECT_CONFIG)',
  ],
  presets: [opencode],
  formats: [opencodeCliFormat],
  settings: opencodeSettings,
  // Its `read` tool adds the nested instruction files from the read file's directory up to the cwd
  // (packages/opencode/src/session/instruction.ts `resolve`, packages/opencode/src/tool/read.ts).
  view: { nested: { tools: ['read'], names: 'candidates' } },
  init: opencodeInit('opencode'),
};
