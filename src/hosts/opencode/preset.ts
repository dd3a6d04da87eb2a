import { frozen, type Preset } from '../host.js';

/**
 * OpenCode, the Go agent (opencode-ai/opencode), whose loader ctxfiles' defaults reproduce:
 * `internal/config/config.go` (the `contextPaths` default) and `internal/llm/prompt/prompt.go`
 * (the frame). The TypeScript OpenCode (sst/opencode) loads differently; docs/presets.md#opencode
 * lists how.
 */
export const opencode: Preset = frozen({
  name: 'opencode',
  summary: "OpenCode (the Go agent): its contextPaths relative to the work dir, framed '# From:<path>'",
  config: {
    // Resolved relative to the working directory only; an entry ending in `/` inlines every file below it.
    contextPaths: [
      '.github/copilot-instructions.md',
      '.cursorrules',
      '.cursor/rules/',
      'CLAUDE.md',
      'CLAUDE.local.md',
      'opencode.md',
      'opencode.local.md',
      'OpenCode.md',
      'OpenCode.local.md',
      'OPENCODE.md',
      'OPENCODE.local.md',
    ],
    instructions: { walk: 'off' },
    budget: { maxBytes: null },
    format: 'opencode',
    // Rule folders are files like any other here: no rules engine.
    rules: { sources: [] },
    session: {
      tools: {
        view: { as: 'read', pathKeys: ['file_path'] },
        write: { as: 'write', pathKeys: ['file_path'] },
        edit: { as: 'edit', pathKeys: ['file_path'] },
        ls: { as: 'list', pathKeys: ['path'] },
        grep: { as: 'search', pathKeys: ['path'] },
      },
    },
  },
});
