import type { Preset } from '../../registry/host.js';

/**
 * Continue CLI (`cn`). Sources (docs/presets.md#continue): the shipped bundle of `@continuedev/cli`
 * 1.5.47 (`dist/index.js`: the system message builder reads the first of AGENTS.md, AGENT.md,
 * CLAUDE.md and CODEX.md in the cwd, then the always-on rules of `.continue/rules` and
 * `~/.continue/rules`), and continuedev/continue `extensions/cli/src/systemMessage.ts`.
 */
export const continuePreset: Preset = {
  name: 'continue',
  summary:
    'Continue CLI: the first of AGENTS.md, AGENT.md, CLAUDE.md, CODEX.md in the cwd, then always-on .continue/rules and ~/.continue/rules',
  config: {
    contextPaths: [],
    instructions: {
      // No root marker: the chain is the cwd alone (Continue looks nowhere else).
      walk: 'project',
      projectRootMarkers: [],
      candidates: ['AGENTS.md', 'AGENT.md', 'CLAUDE.md', 'CODEX.md'],
      select: 'first',
      userFile: null,
      // A whitespace-only file is shown (only an empty one counts as none: the format drops it).
      skipBlank: 'none',
      // Read with fs.readFileSync, through links; a UTF-8 byte order mark stays in the text.
      symlinks: 'follow',
      keepBom: true,
    },
    // Continue's own rule folders, the user's included; rules with globs or regex apply by path.
    rules: { sources: ['continue'], nested: false, userFolders: true },
    imports: { enabled: false },
    budget: { maxBytes: null },
    format: 'continue',
    // Continue CLI adds nothing to a tool result: nothing is disclosed during the session.
    contextDiscovery: { mode: 'off' },
    session: {
      tools: {
        Read: { as: 'read', pathKeys: ['filepath'] },
        Write: { as: 'write', pathKeys: ['filepath'] },
        Edit: { as: 'edit', pathKeys: ['file_path'] },
        List: { as: 'list', pathKeys: ['dirpath'] },
        Bash: { as: 'shell', pathKeys: ['command'] },
      },
    },
  },
};
