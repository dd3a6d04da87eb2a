import type { Preset } from '../../registry/host.js';

/**
 * Each file's text is trimmed and a blank file left out; comment blocks are removed (2.1.332: its
 * memory loader drops top-level `<!-- -->` blocks of the Markdown).
 */
const TEXT_SHAPE = { trim: true, htmlComments: 'strip' } as const;

/**
 * Claude Code. Sources (docs/presets.md#claude-code): https://code.claude.com/docs/en/memory (files,
 * walk, imports), anthropics/claude-code `CHANGELOG.md` (nested files, `.claude/rules`, symlinks),
 * the type definitions of the Claude Agent SDK (`sdk.d.ts`, `sdk-tools.d.ts`: kinds and tool inputs).
 */
export const claudeCode: Preset = {
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
      // Files below a symlinked cwd are shown under its real path.
      workDirPath: 'real',
    },
    // `~/.claude/rules/*.md` load after ~/.claude/CLAUDE.md, as user files.
    rules: { sources: ['claude'], userFolders: true },
    // `@path` imports: each imported file is its own entry after its importer, at most 5 deep. A
    // project file imports from outside the cwd only once the project is approved
    // (`hasClaudeMdExternalIncludesApproved` in ~/.claude.json: ./settings.ts).
    imports: { enabled: true, mode: 'entries', maxDepth: 5, external: false },
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
  profile: {
    // AGENTS.md and .claude/AGENTS.md, from every directory of the walk, when none of them holds
    // a CLAUDE.md, .claude/CLAUDE.md or CLAUDE.local.md (2.1.277 and later; the binary's
    // `instructionFiles` default "claude-md-or-agents-md").
    fallbackCandidates: ['AGENTS.md', '.claude/AGENTS.md'],
    ...TEXT_SHAPE,
  },
};

/**
 * Claude Code 2.1.197, the newest version npm installs on Node 20 (2.1.198 and later declare
 * Node 22): a nested file found during a session arrives in a message of its own without tags
 * (format `claude-code-2.1.197`), and no `AGENTS.md` is read (added in 2.1.277).
 */
export const claudeCode2197: Preset = {
  name: 'claude-code-2.1.197',
  summary: 'Claude Code 2.1.197 (the newest on Node 20): as claude-code, no AGENTS.md, its session frame',
  verified: { version: '2.1.197', package: '@anthropic-ai/claude-code' },
  config: { ...claudeCode.config, format: 'claude-code-2.1.197' },
  profile: TEXT_SHAPE,
};
