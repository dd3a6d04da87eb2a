import { isQuoted, type FrontmatterKey } from '../frontmatter-lines.js';
import { classifyByPaths, keyNamed, type Misread, type RuleAdapter } from '../rule-adapter.js';

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
  misreads: claudeMisreads,
};

/**
 * What Claude Code misreads: `paths` quoted or as a list, and the scoping keys of other tools
 * (`globs`, `applyTo`, `alwaysApply`) standing where it reads only `paths`.
 */
function claudeMisreads(keys: readonly FrontmatterKey[]): Misread[] {
  const misreads: Misread[] = [];
  const paths = keyNamed(keys, 'paths');
  if (paths !== undefined && isMisreadPaths(paths))
    misreads.push({
      key: paths,
      problem:
        'Claude Code is reported to drop paths written quoted or as a list (anthropics/claude-code#17204) or to load such rules in every session (#16299)',
      fix: 'write one unquoted value, paths: src/api/**, lib/api/**, and check the rule with /memory',
    });
  const globs = keyNamed(keys, 'globs');
  if (globs !== undefined && paths === undefined)
    misreads.push({
      key: globs,
      problem: 'globs is a Cursor key; Claude Code documents paths, so this rule is read as always on',
      fix: 'rename globs to paths',
    });
  for (const name of ['applyTo', 'alwaysApply']) {
    const foreign = keyNamed(keys, name);
    if (foreign !== undefined && paths === undefined && globs === undefined)
      misreads.push({
        key: foreign,
        problem: `Claude Code ignores ${name} (a ${name === 'applyTo' ? 'Copilot' : 'Cursor'} key): this rule loads in every session`,
        fix: 'scope the rule with paths: (the key Claude Code reads), or remove the key',
      });
  }
  return misreads;
}

/** A `paths` value written quoted, as a list, or with more than one item. */
function isMisreadPaths(paths: FrontmatterKey): boolean {
  return (
    isQuoted(paths.value) ||
    paths.items.some((item) => isQuoted(item.value)) ||
    paths.items.length > 1 ||
    paths.value.startsWith('[')
  );
}
