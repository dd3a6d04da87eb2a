import type { Host } from '../../registry/host.js';
import { cursor } from './preset.js';

/** Cursor (docs/presets.md#cursor): no lab drives it; the preset follows its docs. */
export const cursorHost: Host = {
  id: 'cursor',
  title: 'Cursor',
  verified: null,
  sources: [
    'https://www.cursor.com/docs/rules (project rules, their kinds, AGENTS.md, the legacy .cursorrules)',
  ],
  presets: [cursor],
};
