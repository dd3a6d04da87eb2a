import type { Preset } from '../../registry/host.js';

/**
 * GitHub Copilot (the CLI and the coding agent). Sources (docs/presets.md#copilot):
 * https://docs.github.com/en/copilot/how-tos/copilot-cli/customize-copilot/add-custom-instructions
 * and https://code.visualstudio.com/docs/agents/reference/custom-instructions-reference.md.
 * Copilot's loader is native code; the framing and order are the ones the conformance lab saw
 * Copilot CLI 1.0.102 send (docs/conformance.md), in the `copilot` format.
 */
export const copilot: Preset = {
  name: 'copilot',
  summary:
    'GitHub Copilot: .github/copilot-instructions.md, .github/instructions by applyTo, AGENTS.md/CLAUDE.md/GEMINI.md from the git root down',
  config: {
    contextPaths: [],
    instructions: {
      // The repository root, the cwd and every directory between them.
      walk: 'project',
      projectRootMarkers: ['.git'],
      candidates: ['AGENTS.md', 'CLAUDE.md', 'GEMINI.md'],
      select: 'all',
      userFile: '~/.copilot/copilot-instructions.md',
      // An empty or whitespace-only file is a block of its own.
      skipBlank: 'none',
      // A linked file is read wherever it points.
      symlinks: 'follow',
    },
    // `.github/copilot-instructions.md` (always) and `.github/instructions/**/*.instructions.md` (applyTo).
    rules: { sources: ['copilot'] },
    // Files in git-ignored folders are skipped.
    contextDiscovery: { respectGitignore: true },
    budget: { maxBytes: null },
    format: 'copilot',
    // An `@path` line is followed by the file in <imported_custom_instruction> tags; a repeat is
    // marked `skipped="already-loaded"`, other failures leave the line alone.
    imports: { enabled: true, mode: 'inline', failed: 'comment' },
    // `view` of a file brings the instruction files of the folders between the work dir and it.
    session: { tools: { view: { as: 'read', pathKeys: ['path'] } } },
  },
  profile: { importStyle: 'copilot' },
};
