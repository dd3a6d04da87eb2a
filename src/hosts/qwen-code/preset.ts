import type { Preset } from '../../registry/host.js';

/**
 * Qwen Code. Sources (docs/presets.md#qwen-code): the shipped bundle of `@qwen-code/qwen-code`
 * 0.24.4 (its core package's `memory/memoryDiscovery.ts`, `utils/memory-constants.ts`,
 * `utils/projectRoot.ts`, `core/prompts.ts`) and QwenLM/qwen-code `docs/users/configuration`.
 */
export const qwenCode: Preset = {
  name: 'qwen-code',
  summary:
    'Qwen Code: QWEN.md and AGENTS.md from above the git root down to the cwd, ~/.qwen/QWEN.md, inline @imports, .qwen/rules',
  config: {
    contextPaths: [],
    instructions: {
      // Upward from the cwd to the parent of the `.git` root; with no `.git` above the cwd, up to
      // the home directory's parent (or `/`). Qwen Code's stop is `dirname(projectRoot ??
      // homedir())` (memory/memoryDiscovery.ts), Gemini CLI's before it moved to the root itself.
      walk: 'project',
      projectRootMarkers: ['.git'],
      // `context.fileName`, default [QWEN.md, AGENTS.md]: every name that exists.
      candidates: ['QWEN.md', 'AGENTS.md'],
      select: 'all',
      userFile: '~/.qwen/QWEN.md',
      // Read with fs.readFile, through links; paths deduplicated by their real path.
      symlinks: 'follow',
    },
    // `@path` replaced in place between comment markers, at most 5 deep (its memoryImportProcessor,
    // Gemini CLI's). A reference to a missing file (ENOENT) stays as written; any other reference
    // not followed becomes a comment saying why, as in Gemini CLI. Each file's imports stay inside
    // the nearest `.git` root above it (its own directory when none): processImports is called
    // without a root and looks one up from the file's directory.
    imports: {
      enabled: true,
      mode: 'inline',
      maxDepth: 5,
      failed: { missing: 'keep', unreadable: 'comment', outside: 'comment', repeated: 'comment' },
      root: 'marker',
    },
    budget: { maxBytes: null },
    format: 'qwen',
    // `~/.qwen/rules` and the project's `.qwen/rules` (config/rulesDiscovery.ts `loadRules`): rules
    // without `paths:` after the context files, the others once each when a tool names a match.
    rules: { sources: ['qwen'], nested: false, userFolders: true },
    // No instruction file is disclosed during the session: a tool adds only matching rules.
    contextDiscovery: { mode: 'off' },
    session: {
      tools: {
        read_file: { as: 'read', pathKeys: ['file_path'] },
        write_file: { as: 'write', pathKeys: ['file_path'] },
        edit: { as: 'edit', pathKeys: ['file_path'] },
        glob: { as: 'search', pathKeys: ['path'] },
        grep_search: { as: 'search', pathKeys: ['path'] },
        run_shell_command: { as: 'shell', pathKeys: ['command'] },
      },
    },
  },
  profile: {
    // The walk's start (see `walk` above): the `.git` root's parent, else the home's parent.
    walkFrom: 'projectRootParent',
    projectRootFallback: 'homeParent',
    // Its `findImports` is Gemini CLI's: a reference runs to the next whitespace.
    importPunctuation: 'keep',
  },
};
