import { classifyByPaths, type RuleAdapter } from '../rule-adapter.js';

/**
 * Claude Code rules: `.claude/rules/**\/*.md` in the project and in the home directory. `paths` → glob; none → always (loaded like
 * CLAUDE.md). Patterns are relative to the project, so `*.md` is the root only. Sources: docs/rules.md.
 */
export const claudeAdapter: RuleAdapter = {
  source: 'claude',
  locations: [{ type: 'folder', path: '.claude/rules', extensions: ['.md'] }],
  // `~/.claude/rules/*.md` (`rules.userFolders`): loaded after ~/.claude/CLAUDE.md, as user files.
  userLocations: [{ type: 'folder', path: '.claude/rules', extensions: ['.md'] }],
  keys: ['paths', 'description'],
  globKey: 'paths',
  globs: { basename: false, anywhere: false, nocase: false, negation: false },
  classify: classifyByPaths,
};
