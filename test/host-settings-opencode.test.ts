import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { createResolver } from '../src/index.js';
import { loadConfig } from '../src/index.js';
import { tempTree } from './helpers/disk.js';

// OpenCode's opencode.json `instructions` through the host-settings seam (src/hosts/opencode/settings.ts).

async function resolveOpencode(tree: Record<string, string>, cwd = 'repo') {
  const root = tempTree(tree);
  fs.mkdirSync(path.join(root, 'repo', '.git'), { recursive: true });
  const home = path.join(root, 'home');
  fs.mkdirSync(home, { recursive: true });
  const workDir = path.join(root, cwd);
  const loaded = await loadConfig({
    cwd: workDir,
    homeDir: home,
    env: {},
    userConfig: null,
    preset: 'opencode',
  });
  const resolver = await createResolver({ workDir, config: loaded, homeDir: home, env: {} });
  const result = await resolver.resolve({});
  const diagnostics = [
    ...new Set([...loaded.diagnostics, ...result.diagnostics].map((d) => `${d.level} ${d.message}`)),
  ];
  return { text: result.text.replaceAll(root, '<root>'), diagnostics };
}

describe("OpenCode's opencode.json instructions", () => {
  test('project globs come last, in pattern order, each matched from the cwd up to the git root', async () => {
    const { text } = await resolveOpencode(
      {
        'repo/AGENTS.md': 'Root agents.\n',
        'repo/opencode.json': JSON.stringify({ instructions: ['docs/*.md', 'rules/*.md', 'AGENTS.md'] }),
        'repo/docs/b.md': 'Doc B.\n',
        'repo/docs/a.md': 'Doc A.\n',
        'repo/pkg/docs/c.md': 'Doc C.\n',
        'repo/rules/r.md': 'Rule R.\n',
      },
      'repo/pkg',
    );
    expect(text).toBe(
      [
        'Instructions from: <root>/repo/AGENTS.md\nRoot agents.\n',
        'Instructions from: <root>/repo/pkg/docs/c.md\nDoc C.\n',
        'Instructions from: <root>/repo/docs/a.md\nDoc A.\n',
        'Instructions from: <root>/repo/docs/b.md\nDoc B.\n',
        'Instructions from: <root>/repo/rules/r.md\nRule R.\n',
      ].join('\n'),
    );
  });

  test('the user list comes first and the lists are joined; JSONC comments are read', async () => {
    const { text } = await resolveOpencode({
      'home/.config/opencode/opencode.json': JSON.stringify({ instructions: ['~/notes/*.md'] }),
      'home/notes/n.md': 'Home note.\n',
      'repo/opencode.jsonc': '// team\n{ "instructions": ["team.md",], }\n',
      'repo/team.md': 'Team.\n',
    });
    expect(text).toBe(
      'Instructions from: <root>/home/notes/n.md\nHome note.\n\nInstructions from: <root>/repo/team.md\nTeam.\n',
    );
  });

  test('a project file cannot name files outside the project, and URLs are never fetched', async () => {
    const { text, diagnostics } = await resolveOpencode({
      'home/secret.md': 'Secret.\n',
      'repo/opencode.json': JSON.stringify({
        instructions: ['~/secret.md', '../home/secret.md', 'https://example.com/x.md', 'ok.md'],
      }),
      'repo/ok.md': 'Ok.\n',
    });
    expect(text).toBe('Instructions from: <root>/repo/ok.md\nOk.\n');
    expect(diagnostics.filter((d) => d.includes('outside the project'))).toHaveLength(2);
    expect(diagnostics.some((d) => d.includes('ctxfiles never fetches'))).toBe(true);
  });

  test('a malformed opencode.json is a warning naming the place; the preset still resolves', async () => {
    const { text, diagnostics } = await resolveOpencode({
      'repo/AGENTS.md': 'Root.\n',
      'repo/opencode.json': '{\n  "instructions": [\n',
    });
    expect(text).toBe('Instructions from: <root>/repo/AGENTS.md\nRoot.\n');
    expect(diagnostics.some((d) => /^warn .*opencode\.json:\d+:\d+/.test(d))).toBe(true);
  });
});
