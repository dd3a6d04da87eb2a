import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { formatDoctorText } from '../src/doctor/format-text.js';
import { listHosts } from '../src/doctor/hosts.js';
import { runDoctor, type DoctorReport } from '../src/doctor/run-doctor.js';
import { cli } from './helpers/cli.js';
import { tempTree } from './helpers/disk.js';
import { HOST_REGISTRY } from '../src/hosts/index.js';

/** A repository (a `.git` is added) with an empty home directory inside it. */
function repository(tree: Record<string, string>): string {
  const root = tempTree({ '.git/HEAD': 'ref: refs/heads/main\n', ...tree });
  fs.mkdirSync(path.join(root, '.home'));
  return root;
}

async function reportOf(root: string, hosts?: readonly string[], workDir = root): Promise<DoctorReport> {
  const home = path.join(root, '.home');
  return runDoctor({
    workDir,
    hosts: listHosts(HOST_REGISTRY).filter((host) => hosts === undefined || hosts.includes(host.name)),
    paths: [],
    env: { HOME: home },
    homeDir: home,
  });
}

const codes = (report: DoctorReport) =>
  report.findings.map((item) => `${item.severity} ${item.code} ${item.file}:${item.line}`);

describe('doctor precision: the false positives seen in five repositories, as fixtures', () => {
  test('prose "@vscode/prompt-tsx" is no import (vscode-copilot-chat): doctor exits 0', async () => {
    const root = repository({
      'CLAUDE.md': '# Copilot\n\nThe prompts are built using the @vscode/prompt-tsx library.\n',
      'package.json': '{"scripts":{}}',
    });
    const { code, stdout } = await cli(['doctor', '--host', 'claude-code'], {
      cwd: root,
      env: { HOME: path.join(root, '.home') },
    });
    expect(stdout).toContain('No findings.');
    expect(code).toBe(0);
  });

  test('a missing import is a warning: the host keeps the line as text, nothing is lost', async () => {
    const report = await reportOf(repository({ 'CLAUDE.md': 'See @docs/missing.md.\n' }), ['claude-code']);
    expect(codes(report)).toEqual(['warn broken-import CLAUDE.md:1']);
  });

  test('names looked up where an agent would: beside the file, its subtree, anywhere in the repository (payload, copilot-chat)', async () => {
    const root = repository({
      'CLAUDE.md': [
        '- Create a folder per component with `index.tsx` and `index.css`',
        '- Use the tokens of `colors.css`; import from `exports/client/index.js`',
        '- The hook registry is in `common/registry.ts` of the chat folder',
        '- Stylelint: `plugin/no-important`, the package `create-payload-app/commands`',
        '- Settings: `.claude/settings.json`, `.continue/settings.local.json` (project)',
        '- Their guide: `agent_docs/conventions.md` in that repo',
        '- Gone: `src/extension/endpoint/` and [the guide](docs/old-guide.md)',
        '',
      ].join('\n'),
      'packages/ui/src/css/colors.css': '',
      'packages/ui/src/exports/client/index.ts': '',
      'src/chat/common/registry.ts': '',
      'src/extension/agents/README.md': '',
      'docs/README.md': '',
    });
    const report = await reportOf(root, ['claude-code']);
    expect(report.findings.map((item) => item.message.split(' does not')[0])).toEqual([
      'src/extension/endpoint/',
      'docs/old-guide.md',
    ]);
  });

  test('`cd core && npm run vitest` is looked up in core/package.json (continue)', async () => {
    const root = repository({
      'AGENTS.md': '- `cd core && npm run vitest`\n- `cd gui && npm run nope`\n- `npm run build`\n',
      'package.json': '{"scripts":{"build":"tsc"}}',
      'core/package.json': '{"scripts":{"vitest":"vitest"}}',
      'gui/package.json': '{"scripts":{"test":"vitest"}}',
    });
    const report = await reportOf(root, ['codex']);
    expect(report.findings.map((item) => `${item.file}:${item.line} ${item.message}`)).toEqual([
      'AGENTS.md:2 npm run nope: the nearest package.json of gui has no script "nope"',
    ]);
  });

  test('`cd pkg && pnpm run x` is quoted as pnpm, the command the text gives (payload)', async () => {
    const root = repository({
      'CLAUDE.md': '- Lexical: `cd packages/lexical && pnpm run translateNewKeys`\n',
      'package.json': '{"scripts":{"translateNewKeys":"node t.js"}}',
      'packages/lexical/package.json': '{"scripts":{"build":"tsc"}}',
    });
    const report = await reportOf(root, ['claude-code']);
    expect(report.findings.map((item) => `${item.file}:${item.line} ${item.message}`)).toEqual([
      'CLAUDE.md:1 pnpm run translateNewKeys: the nearest package.json of packages/lexical has no script "translateNewKeys"',
    ]);
  });

  test('"never read" lines are grouped: hosts that miss the same files share one group', async () => {
    const root = repository({
      'AGENTS.md': '# A\n',
      '.cursor/rules/a.mdc': '---\nalwaysApply: true\n---\nA rule.\n',
    });
    const text = formatDoctorText(await reportOf(root, ['codex', 'opencode', 'continue', 'cursor']));
    expect(text.match(/never read by/g)).toHaveLength(1);
    expect(text).toContain(
      'never read by opencode, codex, continue:\n                  .cursor/rules/a.mdc (cursor)',
    );
  });

  test('a symlink twin is one file: CLAUDE.md -> AGENTS.md is not a file other hosts "never read"', async () => {
    const root = repository({ 'AGENTS.md': '# Shared\n\nThe rules.\n' });
    fs.symlinkSync('AGENTS.md', path.join(root, 'CLAUDE.md'));
    const report = await reportOf(root, ['codex', 'claude-code']);
    for (const column of report.sites[0]?.hosts ?? []) expect(column.unseen).toEqual([]);
  });

  test('a host that reads neither twin sees it once: CLAUDE.md -> AGENTS.md is one unseen file (pydantic-ai)', async () => {
    const root = repository({ 'AGENTS.md': '# Shared\n\nThe rules.\n' });
    fs.symlinkSync('AGENTS.md', path.join(root, 'CLAUDE.md'));
    const report = await reportOf(root, ['codex', 'claude-code', 'gemini-cli']);
    const gemini = report.sites[0]?.hosts.find((column) => column.host === 'gemini-cli');
    expect(gemini?.unseen).toEqual([{ path: 'AGENTS.md', readBy: ['codex', 'claude-code'] }]);
  });

  test('a rule glob written absolute that matches nothing either way is unmatched (continue)', async () => {
    const rule = (globs: string) => `---\nglobs: ${globs}\ndescription: d\n---\n\nThe rule.\n`;
    const root = repository({
      '.continue/rules/never.md': rule('/**/*.'),
      // Read from the root, "/src/**/*.ts" matches: a host may read it so; nothing is claimed.
      '.continue/rules/rooted.md': rule('/src/**/*.ts'),
      'src/a.ts': '',
    });
    const report = await reportOf(root, ['continue']);
    expect(report.findings.map((item) => `${item.code} ${item.file}:${item.line} ${item.message}`)).toEqual([
      'unmatched-glob .continue/rules/never.md:2 "/**/*." matches no file under ., read from there or as absolute, so this continue rule never loads',
    ]);
  });

  test('a file a host loads twice is a loaded-twice finding with the tokens it costs', async () => {
    const text = '# Shared\n\nThe rules of the project, in full.\n';
    const root = repository({ 'AGENTS.md': text, '.github/copilot-instructions.md': text });
    const report = await reportOf(root, ['copilot', 'codex']);
    const twice = report.findings.filter((item) => item.code === 'loaded-twice');
    expect(twice.map((item) => `${item.file} ${item.message}`)).toEqual([
      '.github/copilot-instructions.md copilot loads this file and AGENTS.md (the same text) at .: 12 tokens sent twice',
    ]);
  });
});

describe('doctor sees every nested place, with paths from the repository root', () => {
  const tree = {
    'AGENTS.md': '# Root\n',
    'pkg/models/AGENTS.md': '# Models\n\nSee `pkg/models/gone.py`.\n',
    'tests/AGENTS.md': `# Tests\n\n${'Test every change. '.repeat(2000)}\n`,
    '.github/workflows/AGENTS.md': '# Workflows\n\nSee `.github/workflows/gone.yml`.\n',
  };

  test('nested files (a dot-directory too) are checked without --path: Codex cuts tests/AGENTS.md', async () => {
    const report = await reportOf(repository(tree));
    expect(report.sites.map((site) => `${site.kind} ${site.path}`)).toEqual([
      'workdir .',
      'nested tests',
      'nested .github/workflows',
      'nested pkg/models',
    ]);
    expect(codes(report)).toEqual([
      'warn dangling-path .github/workflows/AGENTS.md:3',
      'warn dangling-path pkg/models/AGENTS.md:3',
      'error over-cap tests/AGENTS.md:3',
    ]);
    const codex = report.sites[1]?.hosts.find((column) => column.host === 'codex');
    expect(codex?.adds?.files).toEqual(['tests/AGENTS.md']);
    expect(codex?.adds?.tokens).toBeGreaterThan(7000);
  });

  test('--format github from a sub-directory annotates the files by their path from the root', async () => {
    const root = repository(tree);
    const { stdout } = await cli(['doctor', '--cwd', 'pkg/models', '--format', 'github'], {
      cwd: root,
      env: { HOME: path.join(root, '.home') },
    });
    expect(
      stdout
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => /file=([^,]*)/.exec(line)?.[1]),
    ).toEqual(['pkg/models/AGENTS.md']);
    const sarif = await cli(['doctor', '--cwd', 'pkg/models', '--format', 'sarif'], {
      cwd: root,
      env: { HOME: path.join(root, '.home') },
    });
    expect(sarif.stdout).toContain('"uri": "pkg/models/AGENTS.md"');
    expect(sarif.stdout).not.toContain(root);
  });
});

describe('doctor output', () => {
  test('--host order on the command line is the order of the output', async () => {
    const root = repository({ 'AGENTS.md': '# A\n' });
    const { stdout } = await cli(['doctor', '--json', '--host', 'gemini-cli', 'codex', 'claude-code'], {
      cwd: root,
      env: { HOME: path.join(root, '.home') },
    });
    const report = JSON.parse(stdout) as DoctorReport;
    expect(report.hosts).toEqual(['gemini-cli', 'codex', 'claude-code']);
    expect(report.sites[0]?.hosts.map((column) => column.host)).toEqual([
      'gemini-cli',
      'codex',
      'claude-code',
    ]);
  });

  test('terminal controls in names and messages are escaped in the text view', async () => {
    const root = repository({
      'AGENTS.md': '# A\n\nRead `docs/\u001bc\u0007x.md` and [b](docs/\u009b31mred.md).\n',
    });
    const text = formatDoctorText(await reportOf(root, ['codex']));
    expect(text).toContain('docs/\\u001bc\\u0007x.md');
    expect(text).toContain('docs/\\u009b31mred.md');
    expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
  });

  test('bounds: a 1 MiB AGENTS.md of code spans prints 1,000 findings and a closing count, quickly', async () => {
    const spans = Array.from({ length: 60_000 }, (_, index) => `\`d/${index}.md\``).join(' ');
    const root = repository({ 'AGENTS.md': `# A\n\n${spans.slice(0, 1_000_000)}\n`, 'd/x.md': '' });
    const started = Date.now();
    const report = await reportOf(root, ['codex']);
    const text = formatDoctorText(report);
    expect(report.findings).toHaveLength(1_000);
    // 2,000 names checked per file (MAX_NAMES_PER_FILE) and Codex's cut: 1,000 listed, errors
    // first, the rest counted.
    expect(report.findingsLeftOut).toBe(1_001);
    expect(report.findings.some((item) => item.code === 'over-cap')).toBe(true);
    expect(text).toMatch(/… and \d+ more finding\(s\) not listed\n$/);
    expect(Date.now() - started).toBeLessThan(20_000);
  }, 60_000);
});
