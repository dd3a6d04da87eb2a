import path from 'node:path';
import type { HostInit } from '../../registry/host.js';

/**
 * Qwen Code: hooks in Claude Code's shape (timeouts in seconds) and `mcpServers` in one
 * `.qwen/settings.json` (user scope: `~/.qwen/settings.json`).
 */
export const qwenCodeInit: HostInit = {
  anchor: { kind: 'project-dir', variable: 'QWEN_PROJECT_DIR', quoted: true },
  targets: (scope, places, launch) => [
    {
      kind: 'json',
      file: path.join(scope === 'project' ? places.workDir : places.homeDir, '.qwen', 'settings.json'),
      agent: 'qwen-code',
      hooks: launch.hookGroups.map((group) => ({
        event: group.event,
        group: {
          ...(group.matcher === undefined ? {} : { matcher: group.matcher }),
          hooks: [{ type: 'command', command: launch.hookCommand(), timeout: 30 }],
        },
      })),
      mcp: { path: ['mcpServers', 'ctxfiles'], value: { command: launch.command, args: launch.mcpArgs } },
    },
  ],
};
