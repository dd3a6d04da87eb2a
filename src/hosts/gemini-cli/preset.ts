import type { Preset } from '../../registry/host.js';

/**
 * Gemini CLI. Sources (docs/presets.md#gemini-cli): google-gemini/gemini-cli
 * `packages/core/src/utils/memoryDiscovery.ts` (files, upward walk to the `.git` root),
 * `packages/core/src/utils/memoryImportProcessor.ts` (imports), `packages/core/src/tools/jit-context.ts`
 * (the session frame), `packages/core/src/tools/definitions/base-declarations.ts` (tool inputs).
 */
export const geminiCli: Preset = {
  name: 'gemini-cli',
  summary:
    'Gemini CLI: every GEMINI.md from the git root down to the cwd, inline @imports, just-in-time context',
  config: {
    contextPaths: [],
    instructions: {
      // Upward from the cwd to the first ancestor holding `.git` (else the cwd alone).
      walk: 'project',
      projectRootMarkers: ['.git'],
      // `context.fileName` (default GEMINI.md): every configured name that exists in a directory.
      candidates: ['GEMINI.md'],
      select: 'all',
      userFile: '~/.gemini/GEMINI.md',
      // Memory files are read through links (fs.stat follows them); no containment check.
      symlinks: 'follow',
      // Gemini CLI takes its cwd from process.cwd(): a symlinked cwd shows as its real path.
      workDirPath: 'real',
    },
    // `@path` is replaced in place by the imported text between comment markers, at most 5 deep;
    // a reference not followed becomes an `Import failed` or `File already processed` comment. A
    // reference runs to the next whitespace (`findImports`): `@notes.md.` names `notes.md.`.
    imports: { enabled: true, mode: 'inline', maxDepth: 5, failed: 'comment' },
    // No byte or character cap in memory discovery.
    budget: { maxBytes: null },
    format: 'gemini',
    // Gemini CLI reads no vendor rule folders.
    rules: { sources: [] },
    session: {
      tools: {
        read_file: { as: 'read', pathKeys: ['file_path'] },
        write_file: { as: 'write', pathKeys: ['file_path'] },
        replace: { as: 'edit', pathKeys: ['file_path'] },
        list_directory: { as: 'list', pathKeys: ['dir_path'] },
        grep_search: { as: 'search', pathKeys: ['dir_path'] },
        search_file_content: { as: 'search', pathKeys: ['dir_path'] },
      },
    },
  },
  profile: {
    // The paths found are sorted as plain strings (`getEnvironmentMemoryPaths`: `unique.sort()`),
    // so `Api/GEMINI.md` comes before the root's `GEMINI.md`.
    order: 'path',
    // A reference runs to the next whitespace (`findImports`): `@notes.md.` names `notes.md.`.
    importPunctuation: 'keep',
  },
};
