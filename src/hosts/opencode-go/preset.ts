import type { Preset } from '../../registry/host.js';

/**
 * The archived Go opencode (opencode-ai/opencode) and the flows fork its context layers were
 * specified for: what ctxfiles printed with no config before rules were on by default. Global
 * `contextPaths` relative to the work dir, each file framed `# From:<path>`, rule folders inlined
 * raw as files, no rules engine. Sources (docs/presets.md#opencode-go): opencode-ai/opencode
 * `internal/config/config.go` (the `contextPaths` default) and `internal/llm/prompt/prompt.go` (the
 * frame). A test keeps these paths equal to the defaults plus `.cursor/rules/`.
 */
export const opencodeGo: Preset = {
  name: 'opencode-go',
  summary:
    "The Go opencode and spec 003's flows fork: contextPaths with rule folders inlined raw, '# From:<path>'",
  config: {
    contextPaths: [
      'AGENTS.md',
      'AGENTS.local.md',
      'CLAUDE.md',
      'CLAUDE.local.md',
      'opencode.md',
      'opencode.local.md',
      'OpenCode.md',
      'OpenCode.local.md',
      'OPENCODE.md',
      'OPENCODE.local.md',
      '.github/copilot-instructions.md',
      '.cursorrules',
      // Every file below it, frontmatter and all: the Go opencode has no rules engine.
      '.cursor/rules/',
    ],
    instructions: { walk: 'off' },
    budget: { maxBytes: null },
    format: 'opencode',
    rules: { sources: [] },
  },
};
