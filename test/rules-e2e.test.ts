import { describe, expect, test } from 'vitest';
import { createResolver } from '../src/index.js';
import { loadConfig } from '../src/index.js';
import { cli } from './helpers/cli.js';
import { tempTree } from './helpers/disk.js';

/**
 * A monorepo as real ones are laid out: root and package rule folders of all five vendors, a
 * dependency folder the walk prunes, and a plain `.md` file that Copilot ignores.
 */
const MONOREPO = {
  '.git/HEAD': 'ref: refs/heads/main\n',
  'AGENTS.md': '# Repo\nroot agents',
  'ctxfiles.config.json': JSON.stringify({
    contextPaths: ['AGENTS.md', '.cursor/rules/'],
    rules: { sources: ['cursor', 'claude', 'copilot', 'windsurf', 'cline'] },
  }),
  '.cursor/rules/general.mdc': '---\nalwaysApply: true\n---\ngeneral: be concise',
  '.cursor/rules/react.mdc': '---\ndescription: React components\nglobs: *.tsx\n---\nreact: hooks only',
  '.cursor/rules/release.mdc': '---\ndescription: How to cut a release\n---\nrelease: tag first',
  '.cursor/rules/legacy.mdc': 'legacy: manual only',
  '.claude/rules/testing.md': '---\npaths:\n  - "**/*.test.ts"\n---\ntesting: vitest tables',
  '.github/copilot-instructions.md': 'copilot: repo-wide',
  '.github/instructions/go.instructions.md': '---\napplyTo: "**/*.go"\n---\ngo: gofmt',
  '.github/instructions/notes.md': 'copilot ignores this',
  '.windsurf/rules/docs.md': '---\ntrigger: glob\nglobs: docs/**\n---\ndocs: plain words',
  '.clinerules/security.md': 'security: no secrets',
  'packages/api/AGENTS.md': 'api agents',
  'packages/api/.cursor/rules/api.mdc': '---\nglobs: src/**/*.ts\n---\napi: zod at the edge',
  'packages/api/.claude/rules/api-always.md': 'api-always: log with pino',
  'packages/api/src/handler.test.ts': '',
  'packages/web/.windsurf/rules/web.md': '---\ntrigger: glob\nglobs: "*.tsx"\n---\nweb: tailwind',
  'packages/web/.clinerules/code.md': '---\npaths: ["!**/*.md"]\n---\ncode: not for markdown',
  'packages/web/.github/instructions/css.instructions.md': '---\napplyTo: "**/*.css"\n---\ncss: BEM',
  'packages/web/src/App.tsx': '',
  'docs/guide/intro.md': '',
  'node_modules/dep/.cursor/rules/evil.mdc': '---\nalwaysApply: true\n---\nevil',
};

const ALWAYS = ['.clinerules/security.md', '.cursor/rules/general.mdc', '.github/copilot-instructions.md'];

describe('a monorepo with rule folders of all five vendors', () => {
  test.each([
    [
      'packages/api/src/handler.test.ts',
      [
        '.claude/rules/testing.md',
        'packages/api/.claude/rules/api-always.md',
        'packages/api/.cursor/rules/api.mdc',
        // Not packages/api/AGENTS.md: the default contextPaths read AGENTS.md as an instruction file,
        // so nested disclosure shows it, not Windsurf's rule (docs/rules.md).
      ],
    ],
    [
      'packages/web/src/App.tsx',
      ['.cursor/rules/react.mdc', 'packages/web/.clinerules/code.md', 'packages/web/.windsurf/rules/web.md'],
    ],
    ['docs/guide/intro.md', ['.windsurf/rules/docs.md']],
  ])('resolve --paths %s: exactly the always rules, then these', async (touched, brought) => {
    const root = tempTree(MONOREPO);
    const result = await cli(['resolve', '--json', '--paths', touched], { cwd: root });
    expect(result.code).toBe(0);
    const json = JSON.parse(result.stdout) as {
      files: { path: string; layer: string }[];
      text: string;
      rules: { relativePath: string; applied: boolean }[];
    };
    const rules = json.files
      .filter((file) => file.layer === 'rules')
      .map((file) => file.path.slice(root.length + 1));
    expect(rules.slice(0, ALWAYS.length)).toEqual(ALWAYS);
    expect(rules.slice(ALWAYS.length).sort()).toEqual(brought);
    expect(
      json.rules
        .filter((rule) => rule.applied)
        .map((rule) => rule.relativePath)
        .sort(),
    ).toEqual([...ALWAYS, ...brought].sort());
    // Raw rule folders are never inlined, frontmatter never shows, pruned and ignored files never appear.
    expect(json.files.filter((file) => file.layer === 'global').map((file) => file.path)).toEqual([
      `${root}/AGENTS.md`,
    ]);
    expect(json.text).not.toMatch(/alwaysApply|evil|copilot ignores/);
  });

  test('a session: the first touch of each file injects exactly its rules, once', async () => {
    const root = tempTree(MONOREPO);
    const resolver = await createResolver({
      workDir: root,
      config: await loadConfig({ cwd: root }),
      env: {},
    });
    const session = await resolver.openSession();
    const injectedBy = async (file: string) => {
      const before = session.state().injected.length;
      await session.afterTool({ tool: 'read', input: { file_path: file }, ok: true });
      return session
        .state()
        .injected.slice(before)
        .map((record) => record.path)
        .sort();
    };
    expect(await injectedBy('packages/api/src/handler.test.ts')).toEqual([
      '.claude/rules/testing.md',
      'packages/api/.claude/rules/api-always.md',
      'packages/api/.cursor/rules/api.mdc',
      'packages/api/AGENTS.md',
    ]);
    expect(await injectedBy('packages/web/src/App.tsx')).toEqual([
      '.cursor/rules/react.mdc',
      'packages/web/.clinerules/code.md',
      'packages/web/.windsurf/rules/web.md',
    ]);
    expect(await injectedBy('docs/guide/intro.md')).toEqual(['.windsurf/rules/docs.md']);
    expect(await injectedBy('packages/api/src/other.test.ts')).toEqual([]);
  });

  test('explain lists every rule with its reason; prompt carries the catalog', async () => {
    const root = tempTree(MONOREPO);
    const explained = await cli(['explain', '--paths', 'docs/guide/intro.md', '--rule', 'legacy'], {
      cwd: root,
    });
    expect(explained.code).toBe(0);
    const section = explained.stdout.slice(
      explained.stdout.indexOf('Rules:'),
      explained.stdout.indexOf('Diagnostics:'),
    );
    expect(section).toContain('applied     windsurf glob      .windsurf/rules/docs.md [docs/**]\n');
    expect(section).toContain('matched docs/** by docs/guide/intro.md');
    expect(section).toContain('applied     cursor   manual    .cursor/rules/legacy.mdc\n');
    expect(section).toContain('not applied cursor   requested .cursor/rules/release.mdc\n');
    expect(section).toContain('listed in catalog');
    expect(section).toContain('no path matched');
    expect(section).toContain(`nested, no path inside packages/api/\n`);
    const prompt = await cli(['prompt'], { cwd: root });
    expect(prompt.stdout).toContain('- release (.cursor/rules/release.mdc): How to cut a release');
    expect(prompt.stdout).not.toContain('- legacy (');
    const named = await cli(['prompt', '--rule', 'legacy'], { cwd: root });
    expect(named.stdout).toContain('legacy: manual only');
  });

  test('validate reports an unknown source; resolve with rules off is unchanged', async () => {
    const root = tempTree({
      ...MONOREPO,
      'ctxfiles.config.json': '{"rules": {"sources": ["cursor", "vim"]}}',
    });
    const validated = await cli(['validate'], { cwd: root });
    expect(validated.stderr).toContain('rules.sources: unknown source "vim" is ignored');
    const plain = tempTree({
      ...MONOREPO,
      'ctxfiles.config.json': '{"contextPaths": ["AGENTS.md"], "rules": {"sources": []}}',
    });
    const result = await cli(['resolve', '--paths', 'docs/guide/intro.md'], { cwd: plain });
    expect(result.stdout).toBe(
      '# Project-Specific Context\n Make sure to follow the instructions in the context below\n# From:' +
        `${plain}/AGENTS.md\n# Repo\nroot agents`,
    );
  });
});

describe('ctxfiles session with rules', () => {
  test('a rule event and a matching read, one JSON line each', async () => {
    const { Readable } = await import('node:stream');
    const root = tempTree(MONOREPO);
    const lines = [
      { tool: 'rule', input: { name: 'release' } },
      { tool: 'read', input: { file_path: 'svc/main.go' }, ok: true },
      { tool: 'read', input: { file_path: 'web/other.go' }, ok: true },
    ];
    const result = await cli(['session'], {
      cwd: root,
      stdin: Readable.from([lines.map((line) => JSON.stringify(line)).join('\n') + '\n']),
    });
    const answers = result.stdout
      .trim()
      .split('\n')
      .map((line) => (JSON.parse(line) as { inject: string }).inject);
    expect(answers[0]).toContain(
      'Rule "release" (cursor) applies: it was asked for by name.\n\nrelease: tag first',
    );
    expect(answers[1]).toContain('svc/main.go matches its glob **/*.go');
    expect(answers[2]).toBe('');
  });
});
