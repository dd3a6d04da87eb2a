import { frozen, type Preset } from '../host.js';

/**
 * Claude Code. Sources (docs/presets.md#claude-code): https://code.claude.com/docs/en/memory (files,
 * walk, imports), anthropics/claude-code `CHANGELOG.md` (nested files, `.claude/rules`, symlinks),
 * the type definitions of the Claude Agent SDK (`sdk.d.ts`, `sdk-tools.d.ts`: kinds and tool inputs).
 */
export const claudeCode: Preset = frozen({
  name: 'claude-code',
  summary:
    'Claude Code: CLAUDE.md, .claude/CLAUDE.md, .claude/rules and CLAUDE.local.md from / down, @imports',
  config: {
    contextPaths: [],
    instructions: {
      // Every directory from the filesystem root down to the cwd; closer files come later.
      walk: 'root',
      // Per directory, all of them, in this order; `@rules` places `.claude/rules/*.md` without `paths:`.
      candidates: ['CLAUDE.md', '.claude/CLAUDE.md', '@rules', 'CLAUDE.local.md'],
      select: 'all',
      userFile: '~/.claude/CLAUDE.md',
      // Claude Code follows symlinked memory files and rule folders (CHANGELOG 2.1.198, 2.1.239).
      symlinks: 'follow',
    },
    rules: { sources: ['claude'] },
    // `@path` imports: each imported file is its own entry after its importer, at most 5 deep.
    imports: { enabled: true, mode: 'entries', maxDepth: 5 },
    // "CLAUDE.md files are loaded in full regardless of length".
    budget: { maxBytes: null },
    format: 'claude-code',
    session: {
      tools: {
        Read: { as: 'read', pathKeys: ['file_path'] },
        Write: { as: 'write', pathKeys: ['file_path'] },
        Edit: { as: 'edit', pathKeys: ['file_path'] },
        MultiEdit: { as: 'edit', pathKeys: ['file_path'] },
        NotebookEdit: { as: 'edit', pathKeys: ['notebook_path'] },
        LS: { as: 'list', pathKeys: ['path'] },
        Grep: { as: 'search', pathKeys: ['path'] },
      },
    },
  },
});
