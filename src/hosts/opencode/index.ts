import { frozen, type Host } from '../host.js';
import { opencode } from './preset.js';

/** OpenCode, the `opencode-ai` package (docs/presets.md#opencode). */
export const opencodeHost: Host = frozen({
  id: 'opencode',
  title: 'OpenCode',
  verified: { version: '1.18.33', package: 'opencode-ai' },
  sources: ['sst/opencode packages/opencode/src/session/system.ts and instruction.ts'],
  presets: [opencode],
});
