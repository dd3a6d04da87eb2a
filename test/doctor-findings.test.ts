import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { SEVERITY, type Finding } from '../src/doctor/finding.js';
import { listHosts } from '../src/doctor/hosts.js';
import { runDoctor } from '../src/doctor/run-doctor.js';
import { DIAGNOSTICS } from '../src/diagnostics.js';
import { tempTree } from './helpers/disk.js';
import { HOST_REGISTRY } from '../src/hosts/index.js';

/** The findings of doctor in a repository (a `.git` is added), for the hosts named. */
async function findingsOf(
  tree: Record<string, string>,
  hosts: readonly string[],
  paths: readonly string[] = [],
  prepare?: (root: string) => void,
): Promise<Finding[]> {
  const root = tempTree({ '.git/HEAD': 'ref: refs/heads/main\n', ...tree });
  prepare?.(root);
  const home = path.join(root, '.home');
  fs.mkdirSync(home);
  const report = await runDoctor({
    workDir: root,
    hosts: listHosts(HOST_REGISTRY).filter((host) => hosts.includes(host.name)),
    paths,
    env: { HOME: home },
    homeDir: home,
  });
  return [...report.findings];
}

const where = (findings: readonly Finding[], code: string) =>
  findings.filter((item) => item.code === code).map(({ file, line, column }) => `${file}:${line}:${column}`);

describe('doctor findings: each code, and a close case that must not report it', () => {
  test('every finding code is a row of the diagnostics table with its severity as level', () => {
    for (const [code, severity] of Object.entries(SEVERITY))
      expect(DIAGNOSTICS.find((row) => row.code === code)?.level).toBe(severity);
  });

  test('unmatched-glob: a Cursor glob matching no file', async () => {
    const tree = (glob: string) => ({
      '.cursor/rules/py.mdc': `---\ndescription: Python\nglobs: ${glob}\n---\nUse type hints.\n`,
      'src/a.ts': '',
    });
    expect(where(await findingsOf(tree('src/**/*.py'), ['cursor']), 'unmatched-glob')).toEqual([
      '.cursor/rules/py.mdc:3:1',
    ]);
    expect(where(await findingsOf(tree('src/**/*.ts'), ['cursor']), 'unmatched-glob')).toEqual([]);
  });

  test('unmatched-glob: a Copilot applyTo pattern matching no file, each pattern on its own', async () => {
    const tree = {
      '.github/instructions/api.instructions.md':
        '---\napplyTo: "packages/api/**,docs/**/*.md"\n---\nValidate.\n',
      'packages/api/server.ts': '',
    };
    const findings = await findingsOf(tree, ['copilot']);
    expect(findings.filter((item) => item.code === 'unmatched-glob').map((item) => item.message)).toEqual([
      '"docs/**/*.md" matches no file under ., so this copilot rule never loads',
    ]);
  });

  test('misread-frontmatter: alwaysApply written as the string "true" in a Cursor rule', async () => {
    const tree = (value: string) => ({
      '.cursor/rules/style.mdc': `---\nalwaysApply: ${value}\n---\nStyle.\n`,
    });
    expect(where(await findingsOf(tree('"true"'), ['cursor']), 'misread-frontmatter')).toEqual([
      '.cursor/rules/style.mdc:2:1',
    ]);
    expect(where(await findingsOf(tree('true'), ['cursor']), 'misread-frontmatter')).toEqual([]);
  });

  test('misread-frontmatter: Claude paths quoted or listed (anthropics/claude-code#17204, #16299)', async () => {
    const rule = (frontmatter: string) => ({
      '.claude/rules/api.md': `---\n${frontmatter}\n---\nTyped errors.\n`,
      'src/api/a.ts': '',
      'src/lib/b.ts': '',
    });
    for (const form of [
      'paths: "src/api/**"',
      'paths:\n  - "src/api/**"',
      'paths:\n  - src/api/**\n  - src/lib/**',
    ])
      expect(where(await findingsOf(rule(form), ['claude-code']), 'misread-frontmatter')).toEqual([
        '.claude/rules/api.md:2:1',
      ]);
    expect(
      where(await findingsOf(rule('paths: src/api/**, src/lib/**'), ['claude-code']), 'misread-frontmatter'),
    ).toEqual([]);
  });

  test('misread-frontmatter: the Claude paths forms known from bug reports are warnings, the rest errors', async () => {
    const claude = await findingsOf(
      { '.claude/rules/api.md': '---\npaths: "src/**"\n---\nA.\n', 'src/a.ts': '' },
      ['claude-code'],
    );
    expect(claude.find((item) => item.code === 'misread-frontmatter')?.severity).toBe('warn');
    const cursor = await findingsOf({ '.cursor/rules/a.mdc': '---\nalwaysApply: "true"\n---\nA.\n' }, [
      'cursor',
    ]);
    expect(cursor.find((item) => item.code === 'misread-frontmatter')?.severity).toBe('error');
  });

  test('misread-frontmatter: globs in a Claude rule; the same key in a Cursor rule is right', async () => {
    expect(
      where(
        await findingsOf({ '.claude/rules/a.md': '---\nglobs: src/**\n---\nA.\n', 'src/a.ts': '' }, [
          'claude-code',
        ]),
        'misread-frontmatter',
      ),
    ).toEqual(['.claude/rules/a.md:2:1']);
    expect(
      where(
        await findingsOf({ '.cursor/rules/a.mdc': '---\nglobs: src/**\n---\nA.\n', 'src/a.ts': '' }, [
          'cursor',
        ]),
        'misread-frontmatter',
      ),
    ).toEqual([]);
  });

  test('misread-frontmatter: Copilot applyTo in a Claude rule loads it in every session', async () => {
    const findings = await findingsOf(
      { '.claude/rules/py.md': '---\napplyTo: "**/*.py"\n---\nPython.\n', 'a.py': '' },
      ['claude-code'],
    );
    expect(findings.find((item) => item.code === 'misread-frontmatter')?.message).toBe(
      'Claude Code ignores applyTo (a Copilot key): this rule loads in every session',
    );
    const copilot = await findingsOf(
      { '.github/instructions/py.instructions.md': '---\napplyTo: "**/*.py"\n---\nPython.\n', 'a.py': '' },
      ['copilot'],
    );
    expect(where(copilot, 'misread-frontmatter')).toEqual([]);
  });

  test('broken-import: an import naming no file, or leaving the project; a working import and prose are fine', async () => {
    const findings = await findingsOf(
      {
        'CLAUDE.md':
          '# Claude\n\nSee @docs/missing.md and @../outside.md.\nAlso @docs/guide.md, ask @alice.\n',
        'docs/guide.md': 'Guide.\n',
      },
      ['claude-code'],
    );
    expect(
      findings
        .filter((item) => item.code === 'broken-import')
        .map((item) => `${item.line}:${item.column} ${item.severity} ${item.message}`),
    ).toEqual([
      '3:5 warn @docs/missing.md names no file: the host leaves the text as written',
      '3:26 error @../outside.md leaves the project: hosts that keep imports inside it do not read it, others read a file no one else has',
    ]);
  });

  test('broken-import: only in files a host expands imports in (Codex does not)', async () => {
    const findings = await findingsOf({ 'AGENTS.md': 'See @docs/missing.md.\n' }, ['codex']);
    expect(where(findings, 'broken-import')).toEqual([]);
  });

  test('dangling-path: a path in code or a link that does not exist; existing ones are fine', async () => {
    const findings = await findingsOf(
      {
        'AGENTS.md':
          '# Repo\n\nRead `docs/setup.md` and [the guide](docs/guide.md#start).\nCode is in `src/`, config in `package.json`, run `src/a.ts:12`.\nRebase on `origin/main`; send `text/plain`; tests in `src/tests`.\n\n```sh\ncat docs/none.md `docs/fenced.md`\n```\n',
        'docs/guide.md': '',
        'src/a.ts': '',
        'package.json': '{}',
      },
      ['codex'],
    );
    expect(where(findings, 'dangling-path')).toEqual(['AGENTS.md:3:7', 'AGENTS.md:5:55']);
  });

  test('missing-script: npm run of a script the nearest package.json lacks', async () => {
    const tree = {
      'package.json': JSON.stringify({ scripts: { test: 'vitest' } }),
      'AGENTS.md': 'Run `npm run lint`, then npm run test.\n',
      'packages/api/package.json': JSON.stringify({ scripts: { lint: 'eslint .' } }),
      'packages/api/AGENTS.md': 'Run npm run lint here.\n',
    };
    const findings = await findingsOf(tree, ['codex'], ['packages/api']);
    expect(where(findings, 'missing-script')).toEqual(['AGENTS.md:1:6']);
  });

  const paragraph =
    'Every change comes with a test that fails before it and passes after it, run with the whole suite.';

  test('duplicate-paragraph: one paragraph in two files one host loads both of', async () => {
    const findings = await findingsOf(
      { 'AGENTS.md': `# Root\n\n${paragraph}\n`, 'packages/api/AGENTS.md': `# API\n\n${paragraph}\n` },
      ['codex'],
      ['packages/api'],
    );
    expect(where(findings, 'duplicate-paragraph')).toEqual(['packages/api/AGENTS.md:3:1']);
  });

  test('duplicate-paragraph: not when no host loads both files', async () => {
    const findings = await findingsOf(
      { 'AGENTS.md': `# Agents\n\n${paragraph}\n`, 'CLAUDE.md': `# Claude\n\n${paragraph}\n` },
      ['codex', 'claude-code'],
    );
    expect(where(findings, 'duplicate-paragraph')).toEqual([]);
  });

  const guide = [
    '# Guide',
    '',
    '- Use pnpm.',
    '- Write tests first.',
    '- Keep functions short.',
    '- Name files in kebab-case.',
  ];

  test('stale-copy: CLAUDE.md copied from AGENTS.md, which changed since', async () => {
    const agents = [...guide, '- Run the linter before a commit.'].join('\n');
    const claude = [...guide.slice(0, 4), '- Keep functions under 40 lines.', guide[5]].join('\n');
    const findings = await findingsOf(
      { 'AGENTS.md': agents, 'CLAUDE.md': claude },
      ['codex', 'claude-code'],
      [],
      (root) => {
        fs.utimesSync(path.join(root, 'CLAUDE.md'), new Date(2020, 0, 1), new Date(2020, 0, 1));
      },
    );
    expect(where(findings, 'stale-copy')).toEqual(['CLAUDE.md:5:1']);
  });

  test('stale-copy: not for identical files, nor for unrelated ones', async () => {
    const same = guide.join('\n');
    expect(
      where(
        await findingsOf({ 'AGENTS.md': same, 'CLAUDE.md': same }, ['codex', 'claude-code']),
        'stale-copy',
      ),
    ).toEqual([]);
    const other = '# Claude\n\n@AGENTS.md\n\n- Use the Read tool first.\n';
    expect(
      where(
        await findingsOf({ 'AGENTS.md': same, 'CLAUDE.md': other }, ['codex', 'claude-code']),
        'stale-copy',
      ),
    ).toEqual([]);
  });

  test("over-cap: a file past Codex's 32 KiB cap is cut where the cap falls; one under it is not", async () => {
    const line = `${'x'.repeat(99)}\n`;
    const over = await findingsOf({ 'AGENTS.md': line.repeat(330) }, ['codex']);
    expect(
      over
        .filter((item) => item.code === 'over-cap')
        .map((item) => `${item.file}:${item.line}:${item.column} ${item.message}`),
    ).toEqual([
      'AGENTS.md:328:69 codex cuts this file here to stay within its 32768-byte cap; 232 bytes are never sent',
    ]);
    expect(where(await findingsOf({ 'AGENTS.md': line.repeat(320) }, ['codex']), 'over-cap')).toEqual([]);
  });
});
