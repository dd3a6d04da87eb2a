import path from 'node:path';
import type { HostInit, InitLaunch } from '../../registry/host.js';

const BEGIN =
  '# >>> ctxfiles: written by `ctxfiles init codex`; `ctxfiles init codex --remove` deletes it >>>';
const END = '# <<< ctxfiles <<<';

/**
 * Codex: one block of `.codex/config.toml` (user scope: `$CODEX_HOME/config.toml`, else
 * `~/.codex/config.toml`) with the MCP server and the hooks; no project dir variable.
 */
export const codexInit: HostInit = {
  anchor: { kind: 'git-root' },
  note: 'Codex runs a new or changed hook only once you trust it: start codex and accept the ctxfiles hooks when it asks (an untrusted hook is skipped without a word).',
  targets: (scope, places, launch) => {
    const home = places.env['CODEX_HOME'];
    const base = scope === 'project' ? places.workDir : places.homeDir;
    const dir =
      scope === 'user' && home !== undefined && path.isAbsolute(home) ? home : path.join(base, '.codex');
    return [
      {
        kind: 'toml',
        file: path.join(dir, 'config.toml'),
        block: codexBlock(launch),
        begin: BEGIN,
        end: END,
        tables: ['mcp_servers.ctxfiles'],
      },
    ];
  },
};

/** A TOML basic string: JSON's escapes are TOML's. */
const tomlString = (value: string) => JSON.stringify(value);

/** ctxfiles' block of a Codex `config.toml`: the MCP server and the hooks, between the markers. */
function codexBlock(launch: InitLaunch): string {
  const lines = [
    BEGIN,
    '[mcp_servers.ctxfiles]',
    `command = ${tomlString(launch.command)}`,
    `args = [${launch.mcpArgs.map(tomlString).join(', ')}]`,
  ];
  for (const group of launch.hookGroups) {
    lines.push('', `[[hooks.${group.event}]]`);
    if (group.matcher !== undefined) lines.push(`matcher = ${tomlString(group.matcher)}`);
    lines.push(
      '',
      `[[hooks.${group.event}.hooks]]`,
      'type = "command"',
      `command = ${tomlString(launch.hookCommand(group.args))}`,
      'timeout = 30',
    );
  }
  lines.push(END);
  return `${lines.join('\n')}\n`;
}
