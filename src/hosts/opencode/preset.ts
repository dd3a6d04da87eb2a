import type { Preset } from '../../registry/host.js';

/**
 * OpenCode (sst/opencode, the `opencode-ai` package), as its 1.18 binary loads instructions
 * (docs/presets.md#opencode): `Instruction.systemPaths` and `Instruction.resolve` in
 * packages/opencode/src/session/instruction.ts, `findUp` in packages/opencode/src/util/filesystem.ts,
 * the nested frame in packages/opencode/src/tool/read.ts. The archived Go opencode is `opencode-go`.
 */
export const opencode: Preset = {
  name: 'opencode',
  summary:
    "OpenCode: the user AGENTS.md, then AGENTS.md (else CLAUDE.md, CONTEXT.md) from the cwd up to the git root, 'Instructions from: <path>'",
  config: {
    // OpenCode reads no file relative to the work dir besides the walk (and its `instructions`).
    contextPaths: [],
    instructions: {
      // `findUp(name, cwd, worktree)`: the cwd and each parent up to the git worktree; outside a
      // repository the worktree is `/`, so the walk goes up to the filesystem root.
      walk: 'project',
      projectRootMarkers: ['.git'],
      candidates: ['AGENTS.md', 'CLAUDE.md', 'CONTEXT.md'],
      // The first user file that exists: OpenCode's config dir (`$XDG_CONFIG_HOME/opencode`, by
      // default `~/.config/opencode`), else Claude Code's (off with OPENCODE_DISABLE_CLAUDE_CODE).
      userFile: [
        '${env.XDG_CONFIG_HOME}/opencode/AGENTS.md',
        '~/.config/opencode/AGENTS.md',
        '~/.claude/CLAUDE.md',
      ],
      // An empty file is left out; one holding only whitespace is written as it is.
      skipBlank: 'empty',
      // OpenCode works in the real directory of a symlinked cwd (`process.cwd()`).
      workDirPath: 'real',
      // OpenCode reads through links wherever they lead.
      symlinks: 'follow',
    },
    budget: { maxBytes: null },
    format: 'opencode-cli',
    // OpenCode reads no vendor rule folders.
    rules: { sources: [] },
    session: {
      // OpenCode adds nested files to the result of its `read` tool only.
      tools: { read: { as: 'read', pathKeys: ['filePath'] } },
    },
  },
  profile: {
    // Outside a repository the worktree is `/`: the walk goes up to the filesystem root.
    projectRootFallback: 'root',
    // The first name found anywhere on the walk is the only one read, in every directory.
    candidateScope: 'walk',
    // Closest directory first.
    order: 'closest-first',
  },
};
