import type { Host } from '../../registry/host.js';
import { qwenFormat } from './format.js';
import { qwenCode } from './preset.js';
import { qwenCodeInit } from './init.js';

/** Qwen Code, a Gemini CLI fork (docs/presets.md#qwen-code). */
export const qwenCodeHost: Host = {
  id: 'qwen-code',
  title: 'Qwen Code',
  verified: { version: '0.24.4', package: '@qwen-code/qwen-code' },
  sources: [
    '@qwen-code/qwen-code 0.24.4 chunks (packages/core/src/memory/memoryDiscovery.ts: files, walk, blocks)',
    '@qwen-code/qwen-code 0.24.4 chunks (packages/core/src/utils/memory-constants.ts: QWEN.md, AGENTS.md)',
    '@qwen-code/qwen-code 0.24.4 chunks (packages/core/src/core/prompts.ts: the memory after the base prompt)',
    'https://qwenlm.github.io/qwen-code-docs/en/users/configuration/settings/ (context.fileName)',
    '@qwen-code/qwen-code 0.24.4 chunks (packages/core/src/hooks/: events, input, output, matchers)',
    '@qwen-code/qwen-code 0.24.4 chunks (packages/core/src/config/rulesDiscovery.ts: .qwen/rules, paths:, the rule blocks)',
    '@qwen-code/qwen-code 0.24.4 chunks (packages/core/src/core/coreToolScheduler.ts: paths: rules after a tool call)',
  ],
  presets: [qwenCode],
  formats: [qwenFormat],
  // After a tool call Qwen Code adds the `.qwen/rules` rules with `paths:` that the call's paths
  // match, once each per session (packages/core/src/config/rulesDiscovery.ts
  // `ConditionalRulesRegistry`; the tools: packages/core/src/core/coreToolScheduler.ts
  // `FS_PATH_TOOL_NAMES`). The lab's `qwen-rule-paths-read` and `live-count-qwen-rules`.
  view: {
    rules: {
      tools: [
        'read_file',
        'edit',
        'write_file',
        'grep_search',
        'glob',
        'list_directory',
        'lsp',
        'notebook_edit',
        'zoom_image',
        'display_image',
      ],
      sources: ['qwen'],
    },
  },
  // Qwen Code loads QWEN.md only from the cwd up (the lab's `live-count-nested`): one below is
  // for the hook to disclose.
  ownNames: ['QWEN.md'],
  hook: {
    // Claude Code's shape (packages/core/src/hooks/types.ts `HookEventName`): PreCompact before a
    // compression (`manual` or `auto`), then SessionStart with source `compact`
    // (packages/core/src/core/client.ts, on `chat_compressed`).
    // SubagentStart and UserPromptSubmit: checked in the pinned version's code (docs/subagents.md).
    events: {
      start: 'SessionStart',
      afterTool: 'PostToolUse',
      compact: 'PreCompact',
      subagentStart: 'SubagentStart',
      prompt: 'UserPromptSubmit',
    },
    // With stdout empty Qwen Code reads stderr as the hook's answer (packages/core/src/hooks/
    // hookRunner.ts), so "nothing to add" is an empty JSON object.
    emptyOutput: '{}\n',
    // An automatic compression keeps the chat and its system prompt (packages/core/src/core/
    // geminiChat.ts `tryCompress`); `/compress` restores the last start's text into the new chat
    // (client.ts `tryCompressChat`). SessionStart (compact) follows without being awaited
    // (client.ts: `void this.fireSessionStartHook("compact")`), so a tool call may come first.
    startSurvivesCompaction: true,
    // packages/core/src/tools/tool-names.ts and each tool's schema.
    tools: {
      read_file: { as: 'read', pathKeys: ['file_path'] },
      write_file: { as: 'write', pathKeys: ['file_path'] },
      edit: { as: 'edit', pathKeys: ['file_path'] },
      list_directory: { as: 'ls', pathKeys: ['path'] },
      glob: { as: 'glob', pathKeys: ['path'] },
      grep_search: { as: 'grep', pathKeys: ['path'] },
      run_shell_command: { as: 'shell', pathKeys: ['command'] },
    },
    // Set (with CLAUDE_PROJECT_DIR and GEMINI_PROJECT_DIR) to the session's work dir.
    projectDirEnv: 'QWEN_PROJECT_DIR',
    init: { startMatcher: '*', toolMatcher: 'anchored' },
  },
  init: qwenCodeInit,
};
