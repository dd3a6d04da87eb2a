import path from 'node:path';
import type { HostInit } from '../../registry/host.js';

/** Gemini CLI: hooks (timeouts in milliseconds) and `mcpServers` in one `.gemini/settings.json`. */
export const geminiCliInit: HostInit = {
  // Gemini CLI expands `$GEMINI_PROJECT_DIR` in a hook's command itself: written unquoted.
  anchor: { kind: 'project-dir', variable: 'GEMINI_PROJECT_DIR', quoted: false },
  targets: (scope, places, launch) => [
    {
      kind: 'json',
      file: path.join(scope === 'project' ? places.workDir : places.homeDir, '.gemini', 'settings.json'),
      agent: 'gemini-cli',
      hooks: launch.hookGroups.map((group) => ({
        event: group.event,
        group: {
          matcher: group.matcher,
          hooks: [
            {
              name: `ctxfiles-${group.event.toLowerCase()}`,
              type: 'command',
              command: launch.hookCommand(),
              timeout: 30_000,
            },
          ],
        },
      })),
      mcp: { path: ['mcpServers', 'ctxfiles'], value: { command: launch.command, args: launch.mcpArgs } },
    },
  ],
};
