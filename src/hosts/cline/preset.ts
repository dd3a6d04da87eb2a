import type { Preset } from '../../registry/host.js';

/**
 * Cline CLI (`cline`). Sources (docs/presets.md#cline): the JavaScript `cline` 3.0.65 ships,
 * `@cline/core` 0.0.86 `dist/index.js` (the rule loader: discovery, names, trimmed bodies, the
 * `# Rules` section sorted by name) and `@cline/shared` 0.0.86 `dist/storage/index.js` (the rule
 * locations: the work dir's `AGENTS.md`, `.clinerules` and `.cline/rules`, `~/.agents/AGENTS.md`).
 */
export const cline: Preset = {
  name: 'cline',
  summary:
    "Cline CLI: the cwd's AGENTS.md and .clinerules, ~/.agents/AGENTS.md, as one # Rules section sorted by rule name",
  config: {
    contextPaths: [],
    instructions: {
      // The work dir alone: Cline looks for AGENTS.md nowhere else in the project.
      walk: 'project',
      projectRootMarkers: [],
      candidates: ['AGENTS.md'],
      select: 'first',
      userFile: '~/.agents/AGENTS.md',
      // Read with readFile: links are followed.
      symlinks: 'follow',
    },
    // Cline's rule folder, in the work dir only.
    rules: { sources: ['cline'], nested: false },
    imports: { enabled: false },
    budget: { maxBytes: null },
    format: 'cline',
    // Cline CLI adds nothing to a tool result: nothing is disclosed during the session.
    contextDiscovery: { mode: 'off' },
    session: {
      tools: {
        read_files: { as: 'read', pathKeys: ['files'] },
        editor: { as: 'edit', pathKeys: ['path'] },
        run_commands: { as: 'shell', pathKeys: ['commands'] },
      },
    },
  },
};
