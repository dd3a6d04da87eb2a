import path from 'node:path';
import type { HookGroup, HostInit, InitLaunch, InitPlaces, JsonTarget } from '../../registry/host.js';

/** Gemini CLI: hooks (timeouts in milliseconds) and `mcpServers` in one `.gemini/settings.json`. */
export const geminiCliInit: HostInit = {
  // Gemini CLI expands `$GEMINI_PROJECT_DIR` in a hook's command itself: written unquoted.
  anchor: { kind: 'project-dir', variable: 'GEMINI_PROJECT_DIR', quoted: false },
  targets: (scope, places, launch) => [
    settingsTarget('gemini-cli', path.join(settingsBase(scope, places), '.gemini'), launch, (group) => ({
      matcher: group.matcher,
      hooks: [
        {
          name: `ctxfiles-${group.event.toLowerCase()}`,
          type: 'command',
          command: launch.hookCommand(),
          timeout: 30_000,
        },
      ],
    })),
  ],
};

/**
 * A `settings.json` holding both the hook groups (each as `group` shapes it) and the MCP server
 * under `mcpServers`: Gemini CLI's, and that of its fork Qwen Code.
 */
export function settingsTarget(
  agent: string,
  dir: string,
  launch: InitLaunch,
  group: (group: HookGroup) => Record<string, unknown>,
): JsonTarget {
  return {
    kind: 'json',
    file: path.join(dir, 'settings.json'),
    agent,
    hooks: launch.hookGroups.map((entry) => ({ event: entry.event, group: group(entry) })),
    mcp: { path: ['mcpServers', 'ctxfiles'], value: { command: launch.command, args: launch.mcpArgs } },
  };
}

/** Where a scope's settings folder is: in the project, or in the home directory. */
export function settingsBase(scope: 'project' | 'user', places: InitPlaces): string {
  return scope === 'project' ? places.workDir : places.homeDir;
}
