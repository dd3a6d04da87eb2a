import type { Host } from '../../registry/host.js';
import { kilo } from './preset.js';
import { kiloSettings } from './settings.js';
import { opencodeInit } from '../opencode/init.js';

/** Kilo CLI, an OpenCode fork (docs/presets.md#kilo). */
export const kiloHost: Host = {
  id: 'kilo',
  title: 'Kilo CLI',
  verified: { version: '7.7.7', package: '@kilocode/cli' },
  sources: [
    '@kilocode/cli-linux-x64 7.7.7, the JS bundled in bin/kilo: Instruction.systemSources, Instruction.system, Instruction.resolve (user file, walk, instructions, nested files)',
    '@kilocode/cli-linux-x64 7.7.7, the JS bundled in bin/kilo: ConfigVariable.substitute and the project file reader (project files read inside the project only; {env:…} and {file:…})',
    '@kilocode/cli-linux-x64 7.7.7, the JS bundled in bin/kilo: Config.loadInstanceState, ConfigPaths.files, loadLegacyConfigs (kilo.json files; .kilocode/rules as instructions)',
    '@kilocode/cli-linux-x64 7.7.7, the JS bundled in bin/kilo: Flag (KILO_CONFIG_DIR, KILO_DISABLE_CLAUDE_CODE, KILO_DISABLE_PROJECT_CONFIG)',
    'https://kilo.ai/docs/customize/custom-rules',
  ],
  presets: [kilo],
  settings: kiloSettings,
  // Its `read` tool adds the nested instruction files from the read file's directory up to the cwd
  // (packages/opencode/src/session/instruction.ts `resolve`, packages/opencode/src/tool/read.ts).
  view: { nested: { tools: ['read'], names: 'candidates' } },
  init: opencodeInit('kilo'),
};
