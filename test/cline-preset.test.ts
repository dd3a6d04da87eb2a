// The cline preset and format (src/hosts/cline/): the bytes Cline CLI 3.0.65 put in front of the
// model in the conformance lab, and what the preset reads on an in-memory tree. The lab
// (test/conformance/hosts/cline.mjs) checks the same against the binary.
import { describe, expect, test } from 'vitest';
import { DEFAULT_CONFIG } from '../src/config/defaults.js';
import { renderCline } from '../src/hosts/cline/format.js';
import { memoryResolver } from './helpers/memory.js';
import { HOST_REGISTRY } from '../src/hosts/index.js';

const context = {
  workDir: '/r/sub',
  homeDir: '/h',
  wording: DEFAULT_CONFIG.wording,
  formats: HOST_REGISTRY.format,
};

describe('cline format', () => {
  test('one # Rules section: each rule under its name, text trimmed, sorted by name, blank ones left out', () => {
    const files = [
      { path: '/h/.agents/AGENTS.md', text: '\nUser rules.\n\n', layer: 'user' },
      { path: '/r/sub/AGENTS.md', text: 'Workspace rules.\n', layer: 'chain' },
      { path: '/r/sub/.clinerules/style.md', text: 'Style.\n', layer: 'rules' },
      { path: '/r/sub/.clinerules/blank.md', text: ' \n', layer: 'rules' },
    ];
    expect(renderCline(files, context)).toBe(
      '# Rules\n## Global AGENTS.md\nUser rules.\n\n## style\nStyle.\n\n## Workspace AGENTS.md\nWorkspace rules.',
    );
    expect(renderCline(files.slice(3), context)).toBe('');
  });
});

describe('cline preset', () => {
  test("the cwd's AGENTS.md only (no walk up), the user file in ~/.agents, and the cwd's .clinerules", async () => {
    const { resolver } = await memoryResolver(
      {
        '/r/.git': { dir: true },
        '/r/AGENTS.md': 'Not read: above the cwd.',
        '/r/.clinerules/root.md': 'Not read: above the cwd.',
        '/r/sub/AGENTS.md': 'Workspace.',
        '/r/sub/CLAUDE.md': 'Not read: not a Cline name.',
        '/r/sub/.clinerules/style.md': 'Style.',
        '/home/u/.agents/AGENTS.md': 'User.',
      },
      { preset: 'cline' },
      { workDir: '/r/sub' },
    );
    const result = await resolver.resolve();
    expect(result.text).toBe(
      '# Rules\n## Global AGENTS.md\nUser.\n\n## style\nStyle.\n\n## Workspace AGENTS.md\nWorkspace.',
    );
  });
});
