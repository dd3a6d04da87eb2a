import type { Host } from '../../registry/host.js';
import { piFormat } from './format.js';
import { pi } from './preset.js';
import { piSettings } from './settings.js';

/** pi, `@earendil-works/pi-coding-agent` (docs/presets.md#pi). */
export const piHost: Host = {
  id: 'pi',
  title: 'pi',
  verified: { version: '1.6.0', package: '@earendil-works/pi-coding-agent' },
  sources: [
    '@earendil-works/pi-coding-agent 1.6.0 dist/core/resource-loader.js (loadContextFileFromDir, loadProjectContextFiles: names, user file, walk)',
    '@earendil-works/pi-coding-agent 1.6.0 dist/core/system-prompt.js (renderProjectContext: the project_context section)',
    '@earendil-works/pi-coding-agent 1.6.0 docs/models.md and docs/environment-variables.md (models.json, PI_CODING_AGENT_DIR, PI_OFFLINE)',
    '@earendil-works/pi-coding-agent 1.6.0 dist/config.js (getAgentDir: PI_CODING_AGENT_DIR replaces ~/.pi/agent)',
  ],
  presets: [pi],
  formats: [piFormat],
  // PI_CODING_AGENT_DIR moves the user file (settings.ts).
  settings: piSettings,
};
