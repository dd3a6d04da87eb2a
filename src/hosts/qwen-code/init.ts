import path from 'node:path';
import type { HostInit } from '../../registry/host.js';
import { settingsBase, settingsTarget } from '../gemini-cli/init.js';

/**
 * Qwen Code, a fork of Gemini CLI: hooks in Claude Code's shape (timeouts in seconds) and
 * `mcpServers` in one `.qwen/settings.json` (user scope: `~/.qwen/settings.json`).
 */
export const qwenCodeInit: HostInit = {
  anchor: { kind: 'project-dir', variable: 'QWEN_PROJECT_DIR', quoted: true },
  targets: (scope, places, launch) => [
    settingsTarget('qwen-code', path.join(settingsBase(scope, places), '.qwen'), launch, (group) => ({
      ...(group.matcher === undefined ? {} : { matcher: group.matcher }),
      hooks: [{ type: 'command', command: launch.hookCommand(), timeout: 30 }],
    })),
  ],
};
