import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { createResolver } from '../src/index.js';
import { loadConfig } from '../src/index.js';
import { HOST_REGISTRY } from '../src/hosts/index.js';
import { stripHtmlCommentBlocks } from '../src/resolve/shape-text.js';
import { tempTree } from './helpers/disk.js';

// The claude-code preset as the conformance lab measured Claude Code 2.1.332 (docs/presets.md
// #claude-code): trimmed texts, comment blocks gone, blank files out, ~/.claude/rules with the user
// label, AGENTS.md where no CLAUDE.md is found, the real path of a symlinked cwd, and imports out
// of the cwd only once ~/.claude.json approves them. Real disk: symlinks and the walk matter.

const INTRO = 'Intro.';

function tree(files: Record<string, string | { symlink: string }>) {
  const root = tempTree(files);
  fs.mkdirSync(path.join(root, 'repo', '.git'), { recursive: true });
  fs.mkdirSync(path.join(root, 'home'), { recursive: true });
  return { root, home: path.join(root, 'home'), repo: path.join(root, 'repo') };
}

async function resolveText(home: string, cwd: string, profile: Record<string, unknown> = {}) {
  const loaded = await loadConfig({
    cwd,
    homeDir: home,
    env: {},
    userConfig: null,
    preset: 'claude-code',
    displayCwd: cwd,
  });
  const config = {
    ...loaded,
    config: {
      ...loaded.config,
      profile: { ...loaded.config.profile, ...profile },
      wording: { ...loaded.config.wording, claudeCodeIntro: INTRO },
    },
  };
  const resolver = await createResolver({ workDir: cwd, config, homeDir: home, env: {} });
  return (await resolver.resolve({})).text;
}

const project = (file: string, text: string) =>
  `Contents of ${file} (project instructions, checked into the codebase):\n\n${text}`;
const user = (file: string, text: string) =>
  `Contents of ${file} (user's private global instructions for all projects):\n\n${text}`;

describe('claude-code preset on disk', () => {
  test('each text is trimmed, files one blank line apart, a blank user file left out', async () => {
    const { home, repo } = tree({
      'home/.claude/CLAUDE.md': '  \n\n',
      'repo/CLAUDE.md': '\n\nRoot.\n\n\n',
      'repo/sub/CLAUDE.md': 'Sub.\n',
    });
    const text = await resolveText(home, path.join(repo, 'sub'));
    expect(text).toBe(
      [
        INTRO,
        project(path.join(repo, 'CLAUDE.md'), 'Root.'),
        project(path.join(repo, 'sub/CLAUDE.md'), 'Sub.'),
      ].join('\n\n'),
    );
  });

  test('HTML comment blocks go, a comment inside a line stays', async () => {
    const { home, repo } = tree({
      'repo/CLAUDE.md': 'Before.\n<!-- a note for humans -->\nAfter <!-- kept --> here.\n',
    });
    expect(await resolveText(home, repo)).toBe(
      `${INTRO}\n\n${project(path.join(repo, 'CLAUDE.md'), 'Before.\nAfter <!-- kept --> here.')}`,
    );
  });

  test('~/.claude/rules load after ~/.claude/CLAUDE.md, with the user label', async () => {
    const { home, repo } = tree({
      'home/.claude/CLAUDE.md': 'User.\n',
      'home/.claude/rules/user-rule.md': 'User rule.\n',
      'repo/CLAUDE.md': 'Main.\n',
    });
    expect(await resolveText(home, repo)).toBe(
      [
        INTRO,
        user(path.join(home, '.claude/CLAUDE.md'), 'User.'),
        user(path.join(home, '.claude/rules/user-rule.md'), 'User rule.'),
        project(path.join(repo, 'CLAUDE.md'), 'Main.'),
      ].join('\n\n'),
    );
  });

  test('AGENTS.md is read from every directory when none holds a CLAUDE.md, and not otherwise', async () => {
    const only = tree({ 'repo/AGENTS.md': 'Root agents.\n', 'repo/sub/AGENTS.md': 'Sub agents.\n' });
    expect(await resolveText(only.home, path.join(only.repo, 'sub'))).toBe(
      [
        INTRO,
        project(path.join(only.repo, 'AGENTS.md'), 'Root agents.'),
        project(path.join(only.repo, 'sub/AGENTS.md'), 'Sub agents.'),
      ].join('\n\n'),
    );
    const mixed = tree({ 'repo/CLAUDE.md': 'Root claude.\n', 'repo/sub/AGENTS.md': 'Sub agents.\n' });
    expect(await resolveText(mixed.home, path.join(mixed.repo, 'sub'))).toBe(
      `${INTRO}\n\n${project(path.join(mixed.repo, 'CLAUDE.md'), 'Root claude.')}`,
    );
    // For 2.1.197 to 2.1.276 (docs/presets.md): no AGENTS.md.
    expect(await resolveText(only.home, path.join(only.repo, 'sub'), { fallbackCandidates: [] })).toBe('');
  });

  test('a symlinked cwd is shown under its real path', async () => {
    const { home, repo } = tree({ 'repo/real/CLAUDE.md': 'Real.\n', 'repo/alias': { symlink: 'real' } });
    expect(await resolveText(home, path.join(repo, 'alias'))).toBe(
      `${INTRO}\n\n${project(path.join(repo, 'real/CLAUDE.md'), 'Real.')}`,
    );
  });

  test('an import out of the cwd is followed only once ~/.claude.json approves the project', async () => {
    const { root, home, repo } = tree({
      'outside/up.md': 'From above.\n',
      'home/notes.md': 'Home notes.\n',
      'repo/CLAUDE.md': 'Main.\n@../outside/up.md\n@~/notes.md\n@docs/in.md\n',
      'repo/docs/in.md': 'Inside.\n',
    });
    const main = project(path.join(repo, 'CLAUDE.md'), 'Main.\n@../outside/up.md\n@~/notes.md\n@docs/in.md');
    const inside = project(path.join(repo, 'docs/in.md'), 'Inside.');
    expect(await resolveText(home, repo)).toBe([INTRO, main, inside].join('\n\n'));
    const approve = (key: string, value: boolean) =>
      fs.writeFileSync(
        path.join(home, '.claude.json'),
        JSON.stringify({ projects: { [key]: { hasClaudeMdExternalIncludesApproved: value } } }),
      );
    approve(repo, false);
    expect(await resolveText(home, repo)).toBe([INTRO, main, inside].join('\n\n'));
    approve(repo, true);
    expect(await resolveText(home, repo)).toBe(
      [
        INTRO,
        main,
        project(path.join(root, 'outside/up.md'), 'From above.'),
        project(path.join(home, 'notes.md'), 'Home notes.'),
        inside,
      ].join('\n\n'),
    );
  });

  test('a malformed ~/.claude.json is a warning and leaves the preset as it is', async () => {
    const { home, repo } = tree({ 'home/.claude.json': '{ "projects": ', 'repo/CLAUDE.md': 'Main.\n' });
    const loaded = await loadConfig({
      cwd: repo,
      homeDir: home,
      env: {},
      userConfig: null,
      preset: 'claude-code',
      displayCwd: repo,
    });
    expect(loaded.config.imports?.external).toBe(false);
    expect(loaded.diagnostics.map((d) => d.code)).toEqual(['host-settings-invalid']);
    expect(loaded.diagnostics[0]?.message).toContain('.claude.json:1:');
  });
});

describe('stripHtmlCommentBlocks', () => {
  test.each([
    ['no comment', 'Plain.\r\n', 'Plain.\r\n'],
    ['a block line and the newlines after it', 'A.\n<!-- x -->\n\nB.\n', 'A.\nB.\n'],
    ['a block over several lines', 'A.\n<!-- one\ntwo -->\nB.\n', 'A.\nB.\n'],
    ['text after the comment on its line stays', '<!-- x --> tail\nB.\n', ' tail\nB.\n'],
    ['a comment inside a line stays', 'A <!-- x --> B.\n', 'A <!-- x --> B.\n'],
    ['a comment in a fence stays', '```\n<!-- x -->\n```\n', '```\n<!-- x -->\n```\n'],
    ['an unclosed comment stays', 'A.\n<!-- open\nB.\n', 'A.\n<!-- open\nB.\n'],
    ['four spaces of indent is code', '    <!-- x -->\n', '    <!-- x -->\n'],
    ['CRLF becomes LF once a block goes', 'A.\r\n<!-- x -->\r\nB.\r\n', 'A.\nB.\n'],
  ])('%s', (_, input, output) => {
    expect(stripHtmlCommentBlocks(input)).toBe(output);
  });
});

describe('Claude Code versions and hooks', () => {
  test('claude-code-2.1.197 frames a nested file without tags', () => {
    const frame = HOST_REGISTRY.format('claude-code-2.1.197')?.sessionFrame?.([
      { path: '/r/pkg/CLAUDE.md', dir: '/r/pkg', text: 'Pkg.\nContents of /x:\n' },
    ]);
    expect(frame).toBe('Contents of /r/pkg/CLAUDE.md:\n\nPkg.\n\\Contents of /x:\n');
  });

  test("the hook protocol recasts claude-code frames into Claude Code's tagless frame only", () => {
    const present = HOST_REGISTRY.hookProtocol('claude-code')?.present;
    const frame = '<system-reminder>\nContents of /r/a/CLAUDE.md:\n\nA.\n</system-reminder>';
    expect(present?.(frame, 'claude-code')).toMatch(
      /^Project instruction files[^\n]*\n\nContents of \/r\/a\/CLAUDE\.md:\n\nA\.$/,
    );
    expect(present?.(frame, 'claude-code-2.1.197')).toBe(frame);
    expect(HOST_REGISTRY.hookProtocol('claude-code')?.projectDirEnv).toBe('CLAUDE_PROJECT_DIR');
  });
});
