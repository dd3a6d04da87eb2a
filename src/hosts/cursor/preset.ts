import type { Preset } from '../../registry/host.js';

/**
 * Cursor. Sources (docs/presets.md#cursor): https://www.cursor.com/docs/rules (project rules in
 * `.cursor/rules/*.mdc`, their kinds, AGENTS.md, the legacy `.cursorrules`). Cursor's framing,
 * order and caps are not public: the preset reproduces which files apply, in ctxfiles' `reminder` frame.
 */
export const cursor: Preset = {
  name: 'cursor',
  summary: 'Cursor: AGENTS.md from the git root down, .cursor/rules/*.mdc by kind, the legacy .cursorrules',
  config: {
    // The legacy single file at the project root.
    contextPaths: ['.cursorrules'],
    contextRoot: 'project',
    instructions: {
      // Nested AGENTS.md files combine with their parents; the more specific one comes later.
      walk: 'project',
      projectRootMarkers: ['.git'],
      candidates: ['AGENTS.md'],
    },
    // Always, Auto Attached (globs), Agent Requested (description) and Manual rules.
    rules: { sources: ['cursor'] },
    budget: { maxBytes: null },
    format: 'reminder',
  },
};
