import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';

test('the embedding guide shows the example that runs', () => {
  const example = fs.readFileSync('examples/embedding/embed.mjs', 'utf8');
  expect(fs.readFileSync('docs/embedding.md', 'utf8')).toContain(example);
  const result = spawnSync(process.execPath, ['examples/embedding/embed.mjs'], {
    encoding: 'utf8',
    timeout: 20_000,
  });
  expect(result.stderr).toBe('');
  expect(result.status).toBe(0);
  expect(result.stdout.split('\n').slice(0, 2)).toEqual([
    'agent: coder',
    // The example's .cursor/rules/ holds no always rule: the rules engine (on by default) applies none.
    'global AGENTS.md (431 bytes, from "AGENTS.md")',
  ]);
  expect(result.stdout).toContain(
    'step   docs/release-implement.md (109 bytes, from "docs/release-${flow.step}.md")',
  );
  // The prompt holds the manifest too: contextPrompt, not result.text alone.
  expect(example).toContain('contextPrompt(result,');
  expect(result.stdout).toContain('nested files listed: 3');
});

test('the README opens with the two commands a newcomer runs, and both scripts exist', () => {
  const readme = fs.readFileSync('README.md', 'utf8');
  // The first code block, before any other section, holds the two commands (comments aside).
  const first = /```sh\n([\s\S]*?)```/.exec(readme);
  expect(first).not.toBeNull();
  expect(readme.indexOf('```sh')).toBeLessThan(readme.indexOf('\n## '));
  const commands = (first as RegExpExecArray)[1]
    ?.split('\n')
    .map((line) => line.replace(/#.*$/, '').trim())
    .filter((line) => line !== '');
  expect(commands).toEqual(['npm ci && npm run demo', 'npm ci && npm test']);
  const scripts = (JSON.parse(fs.readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> })
    .scripts;
  expect(scripts['demo']).toContain('examples/monorepo');
  expect(fs.existsSync(path.join('examples', 'monorepo'))).toBe(true);
  expect(scripts['test']).toContain('vitest run');
  expect(fs.readFileSync('.ci/run', 'utf8')).toContain('npm test');
});

test('docs/formats.md shows exactly what each format renders', async () => {
  const { renderFormat } = await import('../src/index.js');
  const { DEFAULT_CONFIG } = await import('../src/config/defaults.js');
  const { FORMATS } = await import('../src/config/types.js');
  const context = { workDir: '/home/dev/shop/api', homeDir: '/home/dev', wording: DEFAULT_CONFIG.wording };
  const files = [
    { path: '/home/dev/.config/ctxfiles/AGENTS.md', text: 'Answer in English.\n', layer: 'user' },
    { path: '/home/dev/shop/AGENTS.md', text: 'Run `npm test` before you commit.\n', layer: 'chain' },
    {
      path: '/home/dev/shop/api/AGENTS.md',
      text: 'Handlers validate input with <Schema> & return 4xx on bad input.\n',
      layer: 'chain',
    },
  ];
  const doc = fs.readFileSync('docs/formats.md', 'utf8');
  for (const format of FORMATS) {
    expect(doc, format).toContain(`\`\`\`text\n${renderFormat(format, files, context)}\n\`\`\``);
  }
  expect(doc).toContain(`\`\`\`text\n${renderFormat('magi', [], context)}\n\`\`\``);
});

test('every relative link in the docs points at a file that exists', () => {
  const pages = [
    'README.md',
    'ARCHITECTURE.md',
    ...fs
      .readdirSync('docs')
      .filter((name) => name.endsWith('.md'))
      .map((name) => `docs/${name}`),
    ...fs.readdirSync('docs/recipes').map((name) => `docs/recipes/${name}`),
  ];
  const broken: string[] = [];
  for (const page of pages) {
    const text = fs.readFileSync(page, 'utf8');
    for (const match of text.matchAll(/\]\(([^)#\s]+)(#[^)]*)?\)/g)) {
      const target = match[1] as string;
      if (/^[a-z]+:/.test(target)) continue;
      const resolved = new URL(target, `file://${process.cwd()}/${page}`).pathname;
      if (!fs.existsSync(resolved)) broken.push(`${page}: ${target}`);
    }
  }
  expect(broken).toEqual([]);
});

test('docs/presets.md says, per preset, the host version the lab verified or "from docs"', async () => {
  const { listPresets } = await import('../src/cli/presets-command.js');
  const doc = fs.readFileSync('docs/presets.md', 'utf8');
  for (const listing of listPresets()) {
    const section = doc.split(`\n### ${listing.name}\n`)[1]?.split('\n### ')[0] ?? '';
    const expected =
      listing.verified === null
        ? '**Verified:** from docs'
        : `**Verified:** ${listing.host} ${listing.verified.version} (\`${listing.verified.package}\`)`;
    expect(section, listing.name).toContain(expected);
  }
});
