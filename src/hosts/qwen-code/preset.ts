import { frozen, type Preset } from '../host.js';

/**
 * Qwen Code. Sources (docs/presets.md#qwen-code): the shipped bundle of `@qwen-code/qwen-code`
 * 0.24.4 (its core package's `memory/memoryDiscovery.ts`, `utils/memory-constants.ts`,
 * `utils/projectRoot.ts`, `core/prompts.ts`) and QwenLM/qwen-code `docs/users/configuration`.
 */
export const qwenCode: Preset = frozen({
  name: 'qwen-code',
  summary:
    'Qwen Code: QWEN.md and AGENTS.md from the git root down to the cwd, ~/.qwen/QWEN.md, inline @imports',
  config: {
    contextPaths: [],
    instructions: {
      // Upward from the cwd to the `.git` root (Qwen Code goes one directory further: a difference).
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
    // Gemini CLI's); a reference not followed becomes a comment saying why, as in Gemini CLI.
    imports: { enabled: true, mode: 'inline', maxDepth: 5, failed: 'comment' },
    budget: { maxBytes: null },
    format: 'qwen',
    // Qwen Code's `.qwen/rules` are its own; no vendor rule folder is read.
    rules: { sources: [] },
    // Nothing is disclosed during the session: a read adds only matching `.qwen/rules` rules.
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
});
