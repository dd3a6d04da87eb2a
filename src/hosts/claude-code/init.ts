import path from 'node:path';
import type { HostInit } from '../../registry/host.js';

/**
 * Claude Code: hooks in `.claude/settings.json`, the MCP server in `.mcp.json` (user scope:
 * `~/.claude/settings.json` and `~/.claude.json`, where its user MCP servers live).
 */
export const claudeCodeInit: HostInit = {
  anchor: { kind: 'project-dir', variable: 'CLAUDE_PROJECT_DIR', quoted: true },
  // Its MCP config expands `${VAR:-default}` from Claude Code's own environment, which has no
  // CLAUDE_PROJECT_DIR (the lab saw the default used): the server finds the root by git.
  mcpFromGitRoot: true,
  targets: (scope, places, launch) => {
    const base = scope === 'project' ? places.workDir : places.homeDir;
    return [
      {
        kind: 'json',
        file: path.join(base, '.claude', 'settings.json'),
        agent: 'claude-code',
        hooks: launch.hookGroups.map((group) => ({
          event: group.event,
          group: {
            ...(group.matcher === undefined ? {} : { matcher: group.matcher }),
            hooks: [{ type: 'command', command: launch.hookCommand(), timeout: 30 }],
          },
        })),
      },
      {
        kind: 'json',
        file: scope === 'project' ? path.join(base, '.mcp.json') : path.join(base, '.claude.json'),
        hooks: [],
        mcp: {
          path: ['mcpServers', 'ctxfiles'],
          value: { type: 'stdio', command: launch.command, args: launch.mcpArgs },
        },
      },
    ];
  },
};
