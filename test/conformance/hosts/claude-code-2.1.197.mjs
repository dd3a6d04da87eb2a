// Claude Code 2.1.197: the newest version npm installs for a Node 20 user (2.1.198 and later
// declare Node 22 in `engines`), driven as the pinned Claude Code is (./claude-code.mjs) and
// compared with the `claude-code-2.1.197` preset. Its hook protocol is Claude Code's.
import claudeCode from './claude-code.mjs';

const VERSION = '2.1.197';

export default {
  ...claudeCode,
  id: 'claude-code-2.1.197',
  label: 'Claude Code',
  preset: 'claude-code-2.1.197',
  packages: [`@anthropic-ai/claude-code@${VERSION}`, `@anthropic-ai/claude-code-linux-x64@${VERSION}`],
  version: VERSION,
};
