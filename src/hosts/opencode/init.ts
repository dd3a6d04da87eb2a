import path from 'node:path';
import type { HostInit } from '../../registry/host.js';

/**
 * OpenCode and its fork Kilo CLI: the MCP server in the `mcp` object of `<name>.json` (user scope:
 * `~/.config/<name>/<name>.json`); neither has hooks, and neither sets a project dir variable.
 */
export function opencodeInit(name: string): HostInit {
  return {
    anchor: { kind: 'git-root' },
    targets: (scope, places, launch) => [
      {
        kind: 'json',
        file:
          scope === 'project'
            ? path.join(places.workDir, `${name}.json`)
            : path.join(places.homeDir, '.config', name, `${name}.json`),
        hooks: [],
        mcp: {
          path: ['mcp', 'ctxfiles'],
          value: { type: 'local', command: [launch.command, ...launch.mcpArgs], enabled: true },
        },
      },
    ],
  };
}
