import type { Preset } from '../../registry/host.js';

/**
 * pi, the coding agent of `@earendil-works/pi-coding-agent`. Sources (docs/presets.md#pi): its
 * shipped code at 1.6.0, `dist/core/resource-loader.js` (`loadContextFileFromDir`,
 * `loadProjectContextFiles`: the user file in `~/.pi/agent`, then one file per directory from the
 * filesystem root down to the cwd) and `dist/core/system-prompt.js` (the `project_context` section).
 */
export const pi: Preset = {
  name: 'pi',
  summary:
    'pi: the first of AGENTS.override.md, AGENTS.md, AGENTS.MD, CLAUDE.md, CLAUDE.MD in ~/.pi/agent, then per directory from / down to the cwd',
  config: {
    // pi reads only the walk and its user file.
    contextPaths: [],
    instructions: {
      // Every directory from the filesystem root down to the cwd (no project marker stops it).
      walk: 'root',
      projectRootMarkers: [],
      // The first candidate that is a regular file wins in each directory.
      candidates: ['AGENTS.override.md', 'AGENTS.md', 'AGENTS.MD', 'CLAUDE.md', 'CLAUDE.MD'],
      select: 'first',
      // The agent dir, `~/.pi/agent`: the same names, the first that is a file wins. With
      // `PI_CODING_AGENT_DIR` set, that directory instead (the host settings, settings.ts).
      userFile: [
        '~/.pi/agent/AGENTS.override.md',
        '~/.pi/agent/AGENTS.md',
        '~/.pi/agent/AGENTS.MD',
        '~/.pi/agent/CLAUDE.md',
        '~/.pi/agent/CLAUDE.MD',
      ],
      // An empty or blank file is loaded and framed like any other.
      skipBlank: 'none',
      // Read with readFileSync after statSync: links are followed wherever they lead.
      symlinks: 'follow',
      // pi walks process.cwd(), the real path of a symlinked work dir.
      workDirPath: 'real',
      // `stripBom`: a UTF-8 byte order mark is dropped.
      keepBom: false,
    },
    // pi reads no vendor rule folders and follows no @imports; it caps nothing.
    rules: { sources: [] },
    imports: { enabled: false },
    budget: { maxBytes: null },
    format: 'pi',
    // pi adds nothing to a tool result: nothing is disclosed during the session.
    contextDiscovery: { mode: 'off' },
    session: {
      tools: {
        read: { as: 'read', pathKeys: ['path'] },
        write: { as: 'write', pathKeys: ['path'] },
        edit: { as: 'edit', pathKeys: ['path'] },
        bash: { as: 'shell', pathKeys: ['command'] },
      },
    },
  },
};
