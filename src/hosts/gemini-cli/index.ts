import { frozen, type Host } from '../host.js';
import { geminiFormat } from './format.js';
import { geminiCli } from './preset.js';

/** Gemini CLI (docs/presets.md#gemini-cli). */
export const geminiCliHost: Host = frozen({
  id: 'gemini-cli',
  title: 'Gemini CLI',
  verified: { version: '0.61.0', package: '@google/gemini-cli' },
  sources: [
    'google-gemini/gemini-cli packages/core/src/utils/memoryDiscovery.ts (files, upward walk to the .git root)',
    'google-gemini/gemini-cli packages/core/src/utils/memoryImportProcessor.ts (imports)',
    'google-gemini/gemini-cli packages/core/src/tools/jit-context.ts (the session frame)',
    'google-gemini/gemini-cli packages/core/src/tools/*.ts (tool names and inputs)',
  ],
  presets: [geminiCli],
  formats: [geminiFormat],
  hook: {
    events: { start: 'SessionStart', afterTool: 'AfterTool', compact: 'PreCompress' },
    // Gemini CLI parses stderr when stdout is empty (packages/core/src/hooks/hookRunner.ts), so
    // "nothing to add" is an empty JSON object.
    emptyOutput: '{}\n',
    // `search_file_content` is the older name of `grep_search`; `absolute_path` and `path` older keys.
    tools: {
      read_file: { as: 'read', pathKeys: ['file_path', 'absolute_path'] },
      write_file: { as: 'write', pathKeys: ['file_path'] },
      replace: { as: 'edit', pathKeys: ['file_path'] },
      list_directory: { as: 'ls', pathKeys: ['dir_path', 'path'] },
      glob: { as: 'glob', pathKeys: ['dir_path', 'path'] },
      grep_search: { as: 'grep', pathKeys: ['dir_path', 'path'] },
      search_file_content: { as: 'grep', pathKeys: ['dir_path', 'path'] },
      read_many_files: { as: 'glob', pathKeys: ['include', 'paths'], patternList: true },
      run_shell_command: { as: 'shell', pathKeys: ['command'] },
    },
  },
});
