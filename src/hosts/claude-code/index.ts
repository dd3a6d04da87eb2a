import type { Host } from '../../registry/host.js';
import { claudeCode2197Format, claudeCodeFormat } from './format.js';
import { claudeHookText } from './hook-frame.js';
import { claudeCode, claudeCode2197 } from './preset.js';
import { claudeCodeSettings } from './settings.js';
import { claudeCodeInit } from './init.js';

/** Claude Code (docs/presets.md#claude-code). */
export const claudeCodeHost: Host = {
  id: 'claude-code',
  title: 'Claude Code',
  verified: { version: '2.1.332', package: '@anthropic-ai/claude-code' },
  sources: [
    'https://code.claude.com/docs/en/memory (files, walk, imports)',
    'anthropics/claude-code CHANGELOG.md (nested files, .claude/rules, symlinks)',
    'the Claude Agent SDK type definitions sdk.d.ts and sdk-tools.d.ts (kinds and tool inputs)',
    'https://docs.claude.com/en/docs/claude-code/hooks (hook events and tool names)',
  ],
  presets: [claudeCode, claudeCode2197],
  formats: [claudeCodeFormat, claudeCode2197Format],
  settings: claudeCodeSettings,
  // A Read below a directory brings its CLAUDE.md files (or, in a project with no CLAUDE.md from the
  // cwd up, its AGENTS.md) and the `.claude/rules` whose `paths:` match, as attachments (2.1.332, lab
  // cases `live-nested-read`, `live-hook-once-view`).
  view: {
    nested: { tools: ['Read'], names: 'candidates', fallback: true },
    rules: { tools: ['Read'], sources: ['claude'] },
  },
  hook: {
    // SubagentStart and UserPromptSubmit: checked in the pinned version's code (docs/subagents.md).
    events: {
      start: 'SessionStart',
      afterTool: 'PostToolUse',
      compact: 'PreCompact',
      subagentStart: 'SubagentStart',
      prompt: 'UserPromptSubmit',
    },
    // `MultiEdit` and `LS` are older tools, kept for older versions.
    tools: {
      Read: { as: 'read', pathKeys: ['file_path'] },
      Write: { as: 'write', pathKeys: ['file_path'] },
      Edit: { as: 'edit', pathKeys: ['file_path'] },
      MultiEdit: { as: 'edit', pathKeys: ['file_path'] },
      NotebookEdit: { as: 'edit', pathKeys: ['notebook_path'] },
      Glob: { as: 'glob', pathKeys: ['path'] },
      Grep: { as: 'grep', pathKeys: ['path'] },
      LS: { as: 'ls', pathKeys: ['path'] },
      Bash: { as: 'shell', pathKeys: ['command'] },
    },
    projectDirEnv: 'CLAUDE_PROJECT_DIR',
    // Matchers are regular expressions; SessionStart's matches its `source`.
    init: { startMatcher: 'startup|resume|clear|compact', toolMatcher: 'alternation' },
    // 2.1.332 escapes the `<` of system-reminder tags in a hook's additional context: the
    // `claude-code` frames lose their tags.
    present: (text, format) => (format === 'claude-code' ? claudeHookText(text) : text),
  },
  init: claudeCodeInit,
};
