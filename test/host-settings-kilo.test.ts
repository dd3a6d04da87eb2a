import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { createResolver } from '../src/index.js';
import { loadConfig } from '../src/index.js';
import { tempTree } from './helpers/disk.js';

// The kilo preset (src/hosts/kilo/) on real files: Kilo's user file, its kilo.json `instructions`
// through the host-settings seam, and Kilo Code's rule folders, which Kilo CLI reads as instructions.

interface Options {
  readonly cwd?: string;
  /** The environment, given the tree's root. */
  readonly env?: (root: string) => Record<string, string>;
  /** Make `repo` a git repository (default true). */
  readonly git?: boolean;
}

async function resolveKilo(tree: Record<string, string>, options: Options = {}) {
  const { cwd = 'repo', git = true } = options;
  const root = tempTree(tree);
  const env = options.env?.(root) ?? {};
  if (git) fs.mkdirSync(path.join(root, 'repo', '.git'), { recursive: true });
  const home = path.join(root, 'home');
  fs.mkdirSync(home, { recursive: true });
  const workDir = path.join(root, cwd);
  const loaded = await loadConfig({ cwd: workDir, homeDir: home, env, userConfig: null, preset: 'kilo' });
  const resolver = await createResolver({ workDir, config: loaded, homeDir: home, env });
  const result = await resolver.resolve({});
  const diagnostics = [
    ...new Set([...loaded.diagnostics, ...result.diagnostics].map((d) => `${d.level} ${d.message}`)),
  ];
  return { text: result.text.replaceAll(root, '<root>'), diagnostics };
}

const entry = (file: string, text: string) => `Instructions from: <root>/${file}\n${text}\n`;

describe('the kilo preset', () => {
  test("the user file is Kilo's (~/.config/kilo/AGENTS.md), not OpenCode's", async () => {
    const { text } = await resolveKilo({
      'home/.config/opencode/AGENTS.md': 'OpenCode user.\n',
      'home/.config/kilo/AGENTS.md': 'Kilo user.\n',
      'repo/AGENTS.md': 'Root.\n',
    });
    expect(text).toBe(
      [entry('home/.config/kilo/AGENTS.md', 'Kilo user.'), entry('repo/AGENTS.md', 'Root.')].join('\n'),
    );
  });

  test('$KILO_CONFIG_DIR/AGENTS.md comes before the config dir; ~/.claude/CLAUDE.md is the last resort', async () => {
    const tree = {
      'home/.claude/CLAUDE.md': 'Claude user.\n',
      'home/.config/kilo/AGENTS.md': 'Kilo user.\n',
      'kc/AGENTS.md': 'Dir user.\n',
      'repo/x.txt': '',
    };
    const withDir = await resolveKilo(tree, { env: (root) => ({ KILO_CONFIG_DIR: path.join(root, 'kc') }) });
    expect(withDir.text).toBe(entry('kc/AGENTS.md', 'Dir user.'));
    const claudeOnly = await resolveKilo({ 'home/.claude/CLAUDE.md': 'Claude user.\n', 'repo/x.txt': '' });
    expect(claudeOnly.text).toBe(entry('home/.claude/CLAUDE.md', 'Claude user.'));
  });

  test("Kilo Code's rule folders come after the walk and before every kilo.json pattern, user's first", async () => {
    const { text } = await resolveKilo({
      'home/.config/kilo/kilo.json': JSON.stringify({ instructions: ['docs/*.md'] }),
      'repo/AGENTS.md': 'Root.\n',
      'repo/kilo.json': JSON.stringify({ instructions: ['team/*.md'] }),
      'repo/.kilo/kilo.jsonc': '// written by Kilo\n{ "instructions": ["more/*.md",], }\n',
      'repo/.kilocode/rules/style.md': 'Kilocode rule.\n',
      'repo/.kilocode/rules/notes.txt': 'Not a rule.\n',
      'repo/.kilocode/rules/deep/inner.md': 'Below the folder.\n',
      'repo/.kilo/rules/a.md': 'Kilo rule.\n',
      'repo/.kilocoderules': 'Legacy file.\n',
      'repo/.kilocode/rules-code/c.md': 'Code mode.\n',
      'repo/docs/a.md': 'Doc.\n',
      'repo/team/t.md': 'Team.\n',
      'repo/more/m.md': 'More.\n',
    });
    expect(text).toBe(
      [
        entry('repo/AGENTS.md', 'Root.'),
        entry('repo/.kilo/rules/a.md', 'Kilo rule.'),
        entry('repo/.kilocode/rules/style.md', 'Kilocode rule.'),
        entry('repo/.kilocoderules', 'Legacy file.'),
        entry('repo/.kilocode/rules-code/c.md', 'Code mode.'),
        entry('repo/docs/a.md', 'Doc.'),
        entry('repo/team/t.md', 'Team.'),
        entry('repo/more/m.md', 'More.'),
      ].join('\n'),
    );
  });

  test("a project kilo.json cannot name files outside the project; the message names Kilo's file", async () => {
    const { text, diagnostics } = await resolveKilo({
      'home/secret.md': 'Secret.\n',
      'repo/kilo.jsonc': JSON.stringify({ instructions: ['~/secret.md', 'ok.md'] }),
      'repo/ok.md': 'Ok.\n',
    });
    expect(text).toBe(entry('repo/ok.md', 'Ok.'));
    expect(diagnostics.some((d) => d.includes("a project's kilo.jsonc cannot make ctxfiles read it"))).toBe(
      true,
    );
  });

  test('a malformed kilo.json is a warning naming the place; the preset still resolves', async () => {
    const { text, diagnostics } = await resolveKilo({
      'repo/AGENTS.md': 'Root.\n',
      'repo/kilo.json': '{\n  "instructions": [\n',
    });
    expect(text).toBe(entry('repo/AGENTS.md', 'Root.'));
    expect(diagnostics.some((d) => /^warn .*kilo\.json:\d+:\d+/.test(d))).toBe(true);
  });

  test('a byte order mark stays, and outside git only the cwd is read', async () => {
    const { text } = await resolveKilo(
      { 'repo/AGENTS.md': 'Above.\n', 'repo/sub/AGENTS.md': '\uFEFFHere.\n' },
      { cwd: 'repo/sub', git: false },
    );
    expect(text).toBe(entry('repo/sub/AGENTS.md', '\uFEFFHere.'));
  });
});
