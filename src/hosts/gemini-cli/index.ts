import type { Host } from '../../registry/host.js';
import { geminiFormat, geminiFullFormat } from './format.js';
import { geminiCli } from './preset.js';
import { geminiCliSettings } from './settings.js';
import { geminiCliInit } from './init.js';

/** Gemini CLI (docs/presets.md#gemini-cli). */
export const geminiCliHost: Host = {
  id: 'gemini-cli',
  title: 'Gemini CLI',
  verified: { version: '0.61.0', package: '@google/gemini-cli' },
  sources: [
    'google-gemini/gemini-cli packages/core/src/utils/memoryDiscovery.ts (files, upward walk to the .git root)',
    'google-gemini/gemini-cli packages/core/src/utils/memoryImportProcessor.ts (imports)',
    'google-gemini/gemini-cli packages/core/src/tools/jit-context.ts (the session frame)',
    'google-gemini/gemini-cli packages/core/src/tools/*.ts (tool names and inputs)',
    'google-gemini/gemini-cli packages/cli/src/config/settings.ts, packages/core/src/tools/memoryTool.ts (context.fileName)',
  ],
  settings: geminiCliSettings,
  // Just-in-time context: these tools add the `context.fileName` files of the directories they
  // touch, up to the project root (0.61 bundle: `discoverJitContext` in the LS, ReadFile,
  // ReadManyFiles, Edit and WriteFile tool invocations; packages/core/src/tools/jit-context.ts).
  view: {
    nested: {
      tools: ['read_file', 'read_many_files', 'list_directory', 'replace', 'write_file'],
      names: 'candidates',
    },
  },
  presets: [geminiCli],
  formats: [geminiFormat, geminiFullFormat],
  hook: {
    events: { start: 'SessionStart', afterTool: 'AfterTool', compact: 'PreCompress' },
    // 0.61 fires PreCompress (`auto`) before every turn, before it checks whether the history is
    // over its threshold, so only `/compress` (`manual`) certainly compresses
    // (packages/core/src/services/chatCompressionService.ts `compress`, called from
    // packages/core/src/core/client.ts `processTurn` through `tryCompressChat`).
    compactTriggers: ['manual'],
    // An automatic compression runs no hook, but BeforeModel carries the request's text: a
    // compression replaces the older history with a user message (the summary) answered by this
    // fixed model message (packages/core/src/services/chatCompressionService.ts `compress`;
    // packages/core/src/hooks/hookTranslator.ts `toHookLLMRequest`).
    compression: { event: 'BeforeModel', reply: 'Got it. Thanks for the additional context!' },
    // Every event's matcher is written out (`*`); the tool names anchored.
    init: { startMatcher: '*', compactMatcher: '*', toolMatcher: 'anchored' },
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
  init: geminiCliInit,
};
