import type { Host } from '../../registry/host.js';
import { clineFormat } from './format.js';
import { cline } from './preset.js';

/** Cline CLI, `cline` (docs/presets.md#cline). */
export const clineHost: Host = {
  id: 'cline',
  title: 'Cline CLI',
  verified: { version: '3.0.65', package: 'cline' },
  sources: [
    'cline 3.0.65, @cline/core 0.0.86 dist/index.js (the rule loader: names, trimmed bodies, the # Rules section sorted by name)',
    'cline 3.0.65, @cline/shared 0.0.86 dist/storage/index.js (rule locations: AGENTS.md, .clinerules, .cline/rules, ~/.agents/AGENTS.md)',
  ],
  presets: [cline],
  formats: [clineFormat],
};
