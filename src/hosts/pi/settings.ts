import type { HostSettings } from '../../registry/host.js';

/** The names pi tries in its agent dir, as in each directory of the walk. */
const NAMES = ['AGENTS.override.md', 'AGENTS.md', 'AGENTS.MD', 'CLAUDE.md', 'CLAUDE.MD'];

/**
 * pi's settings that change what it loads. With `PI_CODING_AGENT_DIR` set, pi reads its user file
 * there only, never in `~/.pi/agent` (`getAgentDir` in `@earendil-works/pi-coding-agent` 1.6.0
 * `dist/config.js`). pi has no settings file that changes the instruction files.
 */
export const piSettings: HostSettings = {
  environment({ env }) {
    const dir = env['PI_CODING_AGENT_DIR'];
    if (dir === undefined || dir === '') return null;
    const userFile = NAMES.map((name) => `\${env.PI_CODING_AGENT_DIR}/${name}`);
    return { name: 'the environment (PI_CODING_AGENT_DIR)', config: { instructions: { userFile } } };
  },
  files: () => [],
  read: async () => ({ config: {}, diagnostics: [] }),
};
