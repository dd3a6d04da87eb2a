import { frozen, type Host } from '../host.js';
import { codexFormat } from './format.js';
import { codex } from './preset.js';

/** OpenAI Codex CLI (docs/presets.md#codex). */
export const codexHost: Host = frozen({
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
  hook: {
    events: { start: 'SessionStart', afterTool: 'PostToolUse', compact: 'PreCompact' },
    // Codex's shell tools report as `Bash` and `apply_patch` as itself, both with the command or
    // the patch text as `tool_input.command`.
    tools: {
      apply_patch: { as: 'patch', pathKeys: ['command', 'input'] },
      Bash: { as: 'shell', pathKeys: ['command'] },
    },
  },
});
