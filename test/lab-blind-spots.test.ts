// The lab's blind spots (issue #39): each difference a new lab case found, reproduced here on the
// engine's side with exact bytes, so a regression fails without running the lab. The lab cases
// (test/conformance/cases.mjs, "blind spots") check the same against the hosts' binaries.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { createResolver } from '../src/index.js';
import { loadConfig } from '../src/index.js';
import { checkHostNotices, hostNotices } from '../src/doctor/check-host-notices.js';
import { claudeCodeFormat } from '../src/hosts/claude-code/format.js';
import { renderGemini, renderGeminiFull } from '../src/hosts/gemini-cli/format.js';
import { scanImports } from '../src/imports/scan-imports.js';
import { DEFAULT_CONFIG } from '../src/config/defaults.js';
import { normalizeConfig } from '../src/config/normalize-config.js';
import { tempTree } from './helpers/disk.js';
import { memoryResolver } from './helpers/memory.js';
import { HOST_REGISTRY } from '../src/hosts/index.js';
import { listHosts } from '../src/doctor/hosts.js';

const context = {
  workDir: '/r',
  homeDir: '/h',
  wording: DEFAULT_CONFIG.wording,
  formats: HOST_REGISTRY.format,
};

describe('Gemini CLI (lab cases gemini-path-order, gemini-user-blank-runs, import-trailing-dot)', () => {
  test('the chain in plain string order of the paths: Api/ before the root file, Api/lib/ between', async () => {
    const { resolver } = await memoryResolver(
      {
        '/r/.git': { dir: true },
        '/r/GEMINI.md': 'Root.',
        '/r/Api/GEMINI.md': 'Api.',
        '/r/Api/lib/GEMINI.md': 'Lib.',
      },
      { preset: 'gemini-cli' },
      { workDir: '/r/Api/lib' },
    );
    const result = await resolver.resolve();
    expect(result.files.map((file) => file.path)).toEqual([
      '/r/Api/GEMINI.md',
      '/r/Api/lib/GEMINI.md',
      '/r/GEMINI.md',
    ]);
  });

  test("the order is the host profile's: root-first by default, not a config key", async () => {
    const tree = { '/r/.git': { dir: true as const }, '/r/GEMINI.md': 'Root.', '/r/Api/GEMINI.md': 'Api.' };
    const input = { instructions: { walk: 'project', candidates: ['GEMINI.md'] }, rules: { sources: [] } };
    const order = async (profile: object) => {
      const config = normalizeConfig(input as never, profile);
      const { resolver } = await memoryResolver(tree, config, { workDir: '/r/Api' });
      return (await resolver.resolve()).files.map((file) => file.path);
    };
    expect(await order({})).toEqual(['/r/GEMINI.md', '/r/Api/GEMINI.md']);
    expect(await order({ order: 'path' })).toEqual(['/r/Api/GEMINI.md', '/r/GEMINI.md']);
    await expect(
      memoryResolver(
        tree,
        { preset: 'gemini-cli', instructions: { order: 'root-first' } },
        { workDir: '/r/Api' },
      ),
    ).rejects.toMatchObject({ code: 'config-invalid' });
  });

  test('runs of three or more newlines in a user file become two; a project file keeps them', () => {
    const files = [
      { path: '/h/.gemini/GEMINI.md', text: 'One.\n\n\n\nTwo.\n \n\n\nThree.\n', layer: 'user' },
      { path: '/r/GEMINI.md', text: 'P1.\n\n\n\nP2.\n', layer: 'chain' },
    ];
    expect(renderGemini(files, context)).toBe(
      '--- Context from: /h/.gemini/GEMINI.md ---\nOne.\n\nTwo.\n \n\nThree.\n--- End of Context from: /h/.gemini/GEMINI.md ---\n\n' +
        '--- Context from: /r/GEMINI.md ---\nP1.\n\n\n\nP2.\n--- End of Context from: /r/GEMINI.md ---',
    );
    expect(renderGeminiFull(files, context)).toContain('One.\n\nTwo.\n \n\nThree.');
    expect(renderGeminiFull(files, context)).toContain('P1.\n\n\n\nP2.');
  });

  test('imports.punctuation: keep takes the punctuation into the path', () => {
    expect(scanImports('See @notes.md.').map((ref) => ref.path)).toEqual(['notes.md']);
    expect(scanImports('See @notes.md.', { punctuation: 'keep' }).map((ref) => ref.path)).toEqual([
      'notes.md.',
    ]);
    expect(scanImports('(@a.md), @b.md;', { punctuation: 'keep' }).map((ref) => ref.path)).toEqual(['b.md;']);
  });

  test('the gemini-cli preset: see @notes.md. fails as Gemini CLI fails it', async () => {
    const { resolver } = await memoryResolver(
      { '/r/.git': { dir: true }, '/r/GEMINI.md': 'See @notes.md.\n', '/r/notes.md': 'Notes.\n' },
      { preset: 'gemini-cli' },
      { workDir: '/r' },
    );
    const text = (await resolver.resolve()).text;
    expect(text).toContain('See <!-- Import failed: notes.md. - ');
    expect(text).not.toContain('Notes.');
  });
});

describe('Claude Code (lab case claude-rule-paths-read)', () => {
  test('a rule arrives in the session frame with its body alone', () => {
    const frame = claudeCodeFormat.sessionFrame?.([
      {
        path: '/r/.claude/rules/ts.md',
        dir: '/r',
        text: 'Rule "ts" (claude) applies: src/index.ts matches its glob src/**.\n\nStrict mode.',
        note: 'Rule "ts" (claude) applies: src/index.ts matches its glob src/**.',
      },
      { path: '/r/pkg/CLAUDE.md', dir: '/r/pkg', text: 'Package.' },
    ]);
    expect(frame).toBe(
      '<system-reminder>\nContents of /r/.claude/rules/ts.md:\n\nStrict mode.\n</system-reminder>\n' +
        '<system-reminder>\nContents of /r/pkg/CLAUDE.md:\n\nPackage.\n</system-reminder>',
    );
  });

  test('a session of the claude-code preset injects the rule without the note', async () => {
    const { resolver } = await memoryResolver(
      {
        '/r/.git': { dir: true },
        '/r/CLAUDE.md': 'Root.',
        '/r/.claude/rules/ts.md': '---\npaths: ["src/**"]\n---\nStrict mode.\n',
        '/r/src/index.ts': 'export {};\n',
      },
      { preset: 'claude-code' },
      { workDir: '/r' },
    );
    const session = await resolver.openSession();
    const inject = await session.afterTool({
      tool: 'Read',
      input: { file_path: '/r/src/index.ts' },
      ok: true,
    });
    // The body as the file holds it, its final newline included (lab: Claude Code 2.1.332 sends the same).
    expect(inject).toBe(
      '<system-reminder>\nContents of /r/.claude/rules/ts.md:\n\nStrict mode.\n\n</system-reminder>',
    );
  });
});

describe('Codex (lab cases codex-home-without-agents, codex-user-frame-tags)', () => {
  function codexHome() {
    const root = tempTree({
      'home/.codex/AGENTS.md': 'Not read: CODEX_HOME is set.\n',
      'home/alt/config.toml.txt': '',
      'repo/AGENTS.md': 'Project rules.\n',
    });
    fs.mkdirSync(path.join(root, 'repo', '.git'));
    return { home: path.join(root, 'home'), repo: path.join(root, 'repo') };
  }

  async function resolveCodex(home: string, repo: string, env: Record<string, string>) {
    const loaded = await loadConfig({ cwd: repo, homeDir: home, env, userConfig: null, preset: 'codex' });
    const resolver = await createResolver({ workDir: repo, config: loaded, homeDir: home, env });
    return { loaded, result: await resolver.resolve({}) };
  }

  test('with CODEX_HOME set, ~/.codex/AGENTS.md is not read, even when CODEX_HOME holds no file', async () => {
    const { home, repo } = codexHome();
    const { loaded, result } = await resolveCodex(home, repo, { CODEX_HOME: path.join(home, 'alt') });
    expect(result.files.map((file) => path.relative(home, file.path))).toEqual(['../repo/AGENTS.md']);
    expect(loaded.layers?.find((layer) => layer.tier === 'host')).toEqual({
      tier: 'host',
      source: 'the environment (CODEX_HOME)',
      keys: ['instructions'],
    });
  });

  test('without CODEX_HOME, ~/.codex/AGENTS.md is the user file', async () => {
    const { home, repo } = codexHome();
    const { result } = await resolveCodex(home, repo, {});
    expect(result.files.map((file) => path.relative(home, file.path))).toEqual([
      '.codex/AGENTS.md',
      '../repo/AGENTS.md',
    ]);
  });

  test('a file holding <INSTRUCTIONS> tags: shown escaped, with a frame-escaped warning', async () => {
    const { resolver } = await memoryResolver(
      {
        '/r/.git': { dir: true },
        '/r/AGENTS.md': 'A.\n</INSTRUCTIONS>\nB.\n',
        '/h/.codex/AGENTS.md': 'User.\n',
      },
      { preset: 'codex' },
      { workDir: '/r', homeDir: '/h' },
    );
    const result = await resolver.resolve();
    expect(result.text).toContain('A.\n&lt;/INSTRUCTIONS>\nB.');
    expect(result.diagnostics.filter((item) => item.code === 'frame-escaped')).toEqual([
      {
        level: 'warn',
        code: 'frame-escaped',
        message:
          "/r/AGENTS.md holds Codex's own <INSTRUCTIONS> frame tag, which Codex sends as written (the text after it leaves the frame); ctxfiles shows it escaped, so the block above is not what the host sends",
        layer: 'chain',
        entry: 'AGENTS.md',
        path: '/r/AGENTS.md',
      },
    ]);
  });

  test('doctor: frame-escaped at the tag, too-large once per file with every host that loads it', () => {
    // Each host's notices are taken when its resolution is done (doctor keeps no resolution).
    const resolution = (host: string, diagnostics: object[], files: object[] = []) => ({
      host,
      notices: hostNotices(listHosts(HOST_REGISTRY).find((entry) => entry.name === host)!.frameTags, {
        diagnostics,
        files,
      } as never),
    });
    const findings = checkHostNotices(
      [
        {
          hosts: [
            resolution(
              'codex',
              [{ level: 'warn', code: 'frame-escaped', message: '', path: '/r/AGENTS.md' }],
              [{ path: '/r/AGENTS.md', text: 'A.\nB </INSTRUCTIONS>\n' }],
            ),
            resolution('copilot', [{ level: 'warn', code: 'too-large', message: '', path: '/r/GEMINI.md' }]),
            resolution('gemini-cli', [
              { level: 'warn', code: 'too-large', message: '', path: '/r/GEMINI.md' },
            ]),
          ],
        },
      ],
      (absolute) => path.relative('/r', absolute),
    );
    expect(findings.map((item) => [item.code, item.file, item.line, item.column, item.severity])).toEqual([
      ['frame-escaped', 'AGENTS.md', 2, 3, 'warn'],
      ['too-large', 'GEMINI.md', 1, 1, 'warn'],
    ]);
    expect(findings[1]?.message).toMatch(/^loaded by copilot, gemini-cli, but over 1 MiB/);
  });
});
