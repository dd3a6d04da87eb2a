import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { createResolver } from '../src/index.js';
import { loadConfig } from '../src/index.js';
import { tempTree } from './helpers/disk.js';

// The host-settings seam (src/config/host-settings.ts, Host.settings): a preset's host reads its
// own settings files, layered over the preset and under the ctxfiles configs. Codex's config.toml
// on real disk: project_doc_fallback_filenames and project_doc_max_bytes (docs/presets.md).

function codexTree(toml: string | null, repo: Record<string, string>) {
  const root = tempTree({
    ...(toml === null ? {} : { 'home/.codex/config.toml': toml }),
    ...Object.fromEntries(Object.entries(repo).map(([file, text]) => [`repo/${file}`, text])),
  });
  fs.mkdirSync(path.join(root, 'repo', '.git'), { recursive: true });
  return { home: path.join(root, 'home'), repo: path.join(root, 'repo') };
}

async function load(
  home: string,
  cwd: string,
  extra: { env?: Record<string, string>; hostSettings?: boolean } = {},
) {
  return loadConfig({
    cwd,
    homeDir: home,
    env: extra.env ?? {},
    userConfig: null,
    preset: 'codex',
    displayCwd: home,
    ...(extra.hostSettings === undefined ? {} : { hostSettings: extra.hostSettings }),
  });
}

async function resolveText(home: string, cwd: string, env: Record<string, string> = {}) {
  const loaded = await load(home, cwd, { env });
  const resolver = await createResolver({ workDir: cwd, config: loaded, homeDir: home, env });
  return (await resolver.resolve({})).text;
}

describe("Codex's config.toml", () => {
  test('project_doc_fallback_filenames adds names after AGENTS.override.md and AGENTS.md', async () => {
    const { home, repo } = codexTree(
      'project_doc_fallback_filenames = ["TEAM.md", "", "AGENTS.md", "TEAM.md"]\n',
      {
        'TEAM.md': 'Team rules.\n',
        'sub/AGENTS.md': 'Sub agents.\n',
        'sub/TEAM.md': 'Not read: AGENTS.md comes first.\n',
      },
    );
    const loaded = await load(home, path.join(repo, 'sub'));
    expect(loaded.config.instructions.candidates).toEqual(['AGENTS.override.md', 'AGENTS.md', 'TEAM.md']);
    expect(loaded.diagnostics).toEqual([]);
    expect(loaded.layers?.map((layer) => layer.tier)).toEqual(['preset', 'host']);
    expect(loaded.layers?.[1]).toEqual({
      tier: 'host',
      source: path.join(home, '.codex', 'config.toml'),
      keys: ['instructions'],
    });
    const text = await resolveText(home, path.join(repo, 'sub'));
    expect(text).toContain('Team rules.\n\n\nSub agents.\n');
    expect(text).not.toContain('Not read');
  });

  test('a fallback entry that is not a file name is ignored with a warning at its line', async () => {
    const { home, repo } = codexTree(
      'model = "m"\nproject_doc_fallback_filenames = ["docs/TEAM.md", "TEAM.md"]\n',
      {},
    );
    const loaded = await load(home, repo);
    expect(loaded.config.instructions.candidates).toEqual(['AGENTS.override.md', 'AGENTS.md', 'TEAM.md']);
    expect(loaded.diagnostics).toEqual([
      expect.objectContaining({
        level: 'warn',
        code: 'host-settings-invalid',
        message: expect.stringMatching(
          /^\.codex\/config\.toml:2:1: project_doc_fallback_filenames: "docs\/TEAM\.md" is ignored/,
        ),
      }),
    ]);
  });

  test('project_doc_max_bytes is the cap of the project files', async () => {
    const { home, repo } = codexTree('project_doc_max_bytes = 10\n', {
      'AGENTS.md': 'Twenty bytes of text\n',
    });
    expect((await load(home, repo)).config.budget.maxBytes).toBe(10);
    const text = await resolveText(home, repo);
    expect(text).toContain('<INSTRUCTIONS>\nTwenty byt\n</INSTRUCTIONS>');
  });

  test('$CODEX_HOME names the directory instead of ~/.codex', async () => {
    const { home, repo } = codexTree('project_doc_max_bytes = 99\n', {});
    const other = tempTree({ 'config.toml': 'project_doc_max_bytes = 7\n' });
    expect((await load(home, repo, { env: { CODEX_HOME: other } })).config.budget.maxBytes).toBe(7);
    expect((await load(home, repo, { env: { CODEX_HOME: '' } })).config.budget.maxBytes).toBe(99);
  });

  test('a malformed config.toml warns with its line and column, and the preset values apply', async () => {
    const { home, repo } = codexTree('project_doc_max_bytes = 10\nproject_doc_fallback_filenames = [\n', {
      'AGENTS.md': 'Root.\n',
    });
    const loaded = await load(home, repo);
    expect(loaded.config.budget.maxBytes).toBe(32_768);
    expect(loaded.config.instructions.candidates).toEqual(['AGENTS.override.md', 'AGENTS.md']);
    expect(loaded.diagnostics).toHaveLength(1);
    expect(loaded.diagnostics[0]).toMatchObject({ level: 'warn', code: 'host-settings-invalid' });
    expect(loaded.diagnostics[0]?.message).toMatch(
      /^\.codex\/config\.toml:3:1: not valid TOML \(.+\); the preset's values apply$/,
    );
    expect(await resolveText(home, repo)).toContain('Root.');
  });

  test('values of the wrong type warn and leave the preset values', async () => {
    const { home, repo } = codexTree(
      'project_doc_max_bytes = -1\nproject_doc_fallback_filenames = "TEAM.md"\n',
      {},
    );
    const loaded = await load(home, repo);
    expect(loaded.config.budget.maxBytes).toBe(32_768);
    expect(loaded.config.instructions.candidates).toEqual(['AGENTS.override.md', 'AGENTS.md']);
    expect(loaded.diagnostics.map((diagnostic) => diagnostic.message)).toEqual([
      expect.stringMatching(/^\.codex\/config\.toml:2:1: project_doc_fallback_filenames: must be a list/),
      expect.stringMatching(/^\.codex\/config\.toml:1:1: project_doc_max_bytes: must be a whole number/),
    ]);
  });

  test('a config.toml that is a directory warns; an absent one says nothing', async () => {
    const { home, repo } = codexTree(null, {});
    expect((await load(home, repo)).diagnostics).toEqual([]);
    fs.mkdirSync(path.join(home, '.codex', 'config.toml'), { recursive: true });
    const loaded = await load(home, repo);
    expect(loaded.diagnostics).toEqual([expect.objectContaining({ code: 'host-settings-invalid' })]);
    expect(loaded.config.budget.maxBytes).toBe(32_768);
  });

  test('the ctxfiles configs win over the host settings; hostSettings: false skips them', async () => {
    const { home, repo } = codexTree('project_doc_max_bytes = 10\n', {});
    fs.writeFileSync(path.join(repo, 'ctxfiles.config.json'), '{"budget":{"maxBytes":20}}');
    expect((await load(home, repo)).config.budget.maxBytes).toBe(20);
    fs.rmSync(path.join(repo, 'ctxfiles.config.json'));
    expect((await load(home, repo, { hostSettings: false })).config.budget.maxBytes).toBe(32_768);
  });

  test('another preset reads no config.toml', async () => {
    const { home, repo } = codexTree('project_doc_max_bytes = 10\n', {});
    const loaded = await loadConfig({
      cwd: repo,
      homeDir: home,
      env: {},
      userConfig: null,
      preset: 'claude-code',
    });
    expect(loaded.layers?.map((layer) => layer.tier)).toEqual(['preset']);
  });
});

describe("Gemini CLI's settings.json", () => {
  function geminiTree(user: string | null, project: string | null, files: Record<string, string>) {
    const root = tempTree({
      ...(user === null ? {} : { 'home/.gemini/settings.json': user }),
      ...(project === null ? {} : { 'repo/sub/.gemini/settings.json': project }),
      ...files,
    });
    fs.mkdirSync(path.join(root, 'repo', '.git'), { recursive: true });
    return { home: path.join(root, 'home'), repo: path.join(root, 'repo'), root };
  }

  async function gemini(home: string, cwd: string) {
    const loaded = await loadConfig({ cwd, homeDir: home, env: {}, userConfig: null, preset: 'gemini-cli' });
    const resolver = await createResolver({ workDir: cwd, config: loaded, homeDir: home, env: {} });
    return { loaded, text: (await resolver.resolve({})).text };
  }

  const block = (file: string, text: string) =>
    `--- Context from: ${file} ---\n${text}\n--- End of Context from: ${file} ---`;

  // The lab's gemini-file-names case: the user file ~/.gemini/AGENTS.md, then the walk's files in
  // plain string order (packages/core/src/utils/memoryDiscovery.ts sorts the paths).
  test('context.fileName as a list, with a comment: every name in each directory and in ~/.gemini', async () => {
    const { home, repo } = geminiTree(
      '{\n  // names\n  "context": { "fileName": ["AGENTS.md", "GEMINI.md"] }\n}\n',
      null,
      {
        'home/.gemini/AGENTS.md': 'User agents.\n',
        'repo/AGENTS.md': 'Root agents.\n',
        'repo/GEMINI.md': 'Root gemini.\n',
        'repo/sub/AGENTS.md': 'Sub agents.\n',
      },
    );
    const { loaded, text } = await gemini(home, path.join(repo, 'sub'));
    expect(loaded.config.instructions.candidates).toEqual(['AGENTS.md', 'GEMINI.md']);
    expect(loaded.config.instructions.userFile).toEqual(['~/.gemini/AGENTS.md', '~/.gemini/GEMINI.md']);
    expect(text).toBe(
      [
        block(path.join(home, '.gemini/AGENTS.md'), 'User agents.'),
        block(path.join(repo, 'AGENTS.md'), 'Root agents.'),
        block(path.join(repo, 'GEMINI.md'), 'Root gemini.'),
        block(path.join(repo, 'sub/AGENTS.md'), 'Sub agents.'),
      ].join('\n\n'),
    );
  });

  // setGeminiMdFilename: the names given first, GEMINI.md kept after them; the project's value
  // replaces the user's, and from the project tier the user files are dropped (untrusted).
  test('a single name keeps GEMINI.md; the project file wins over the user file', async () => {
    const { home, repo } = geminiTree(
      '{ "context": { "fileName": "CONTEXT.md" } }',
      '{ "context": { "fileName": "TEAM.md" } }',
      {},
    );
    const user = await gemini(home, repo);
    expect(user.loaded.config.instructions.candidates).toEqual(['CONTEXT.md', 'GEMINI.md']);
    const project = await gemini(home, path.join(repo, 'sub'));
    expect(project.loaded.config.instructions.candidates).toEqual(['GEMINI.md', 'TEAM.md']);
    expect(project.loaded.config.instructions.userFile).toEqual([
      '~/.gemini/CONTEXT.md',
      '~/.gemini/GEMINI.md',
    ]);
    expect(project.loaded.diagnostics.map((d) => d.code)).toContain('untrusted-key');
  });

  test('a malformed file or value is a warning naming file, line and column; the preset stands', async () => {
    const { home, repo } = geminiTree('{ "context": { "fileName": 3 } }', '{ "context": ', {});
    const { loaded } = await gemini(home, path.join(repo, 'sub'));
    expect(loaded.config.instructions.candidates).toEqual(['GEMINI.md']);
    const messages = loaded.diagnostics
      .filter((d) => d.code === 'host-settings-invalid')
      .map((d) => d.message);
    expect(messages).toEqual([
      expect.stringMatching(/settings\.json:1:28: context\.fileName: must be a file name or a list/),
      expect.stringMatching(/sub\/\.gemini\/settings\.json:1:\d+: not valid JSON/),
    ]);
  });
});
