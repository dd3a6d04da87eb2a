import type { Host } from '../../registry/host.js';
import { codexFormat } from './format.js';
import { codex } from './preset.js';
import { codexSettings } from './settings.js';
import { codexInit } from './init.js';

/** OpenAI Codex CLI (docs/presets.md#codex). */
export const codexHost: Host = {
  id: 'codex',
  title: 'Codex CLI',
  verified: { version: '0.171.0', package: '@openai/codex' },
  sources: [
    'openai/codex codex-rs/core/src/agents_md.rs and agents_md_tests.rs (walk, candidates, byte cap)',
    'openai/codex codex-rs/core/src/context/user_instructions.rs (the frame)',
    'openai/codex codex-rs/core/src/tools/handlers/ (tool names and inputs as hooks see them)',
    'https://developers.openai.com/codex/guides/agents-md (user files, default cap)',
  ],
  presets: [codex],
  formats: [codexFormat],
  // $CODEX_HOME/config.toml: project_doc_fallback_filenames and project_doc_max_bytes.
  settings: codexSettings,
  hook: {
    // SubagentStart and UserPromptSubmit: checked in the pinned version's code (docs/subagents.md).
    events: {
      start: 'SessionStart',
      afterTool: 'PostToolUse',
      compact: 'PreCompact',
      subagentStart: 'SubagentStart',
      prompt: 'UserPromptSubmit',
    },
    // Codex's shell tools report as `Bash` and `apply_patch` as itself, both with the command or
    // the patch text as `tool_input.command`.
    tools: {
      Bash: { as: 'shell', pathKeys: ['command'] },
      apply_patch: { as: 'patch', pathKeys: ['command', 'input'] },
    },
    // Codex edits through its shell and apply_patch alone: the hook reads shell commands too.
    init: { startMatcher: 'startup|resume|clear|compact', toolMatcher: 'anchored', shellPaths: true },
  },
  init: codexInit,
};
