import type { Host } from '../../registry/host.js';
import { continueFormat } from './format.js';
import { continuePreset } from './preset.js';

/** Continue CLI, `cn` (docs/presets.md#continue). */
export const continueHost: Host = {
  id: 'continue',
  title: 'Continue CLI',
  verified: { version: '1.5.47', package: '@continuedev/cli' },
  sources: [
    '@continuedev/cli 1.5.47 dist/index.js (the system message: agent file names, userRules section, rule folders)',
    'continuedev/continue extensions/cli/src/systemMessage.ts',
    'https://docs.continue.dev/cli/overview',
  ],
  presets: [continuePreset],
  formats: [continueFormat],
};
