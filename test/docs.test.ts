import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { expect, test } from 'vitest';

test('the embedding guide shows the example that runs', () => {
  const example = fs.readFileSync('examples/embedding/embed.mjs', 'utf8');
  expect(fs.readFileSync('docs/embedding.md', 'utf8')).toContain(example);
  const result = spawnSync(process.execPath, ['examples/embedding/embed.mjs'], { encoding: 'utf8', timeout: 20_000 });
  expect(result.stderr).toBe('');
  expect(result.status).toBe(0);
  expect(result.stdout.split('\n').slice(0, 2)).toEqual(['agent: coder', 'global .cursor/rules/testing.mdc (147 bytes, from ".cursor/rules/")']);
  expect(result.stdout).toContain('step   docs/release-implement.md (109 bytes, from "docs/release-${flow.step}.md")');
});

test('the README opens with the two commands a newcomer runs', () => {
  const lines = fs.readFileSync('README.md', 'utf8').split('\n');
  expect(lines.slice(2, 6)).toEqual([
    '```sh',
    'npm ci && npm run demo    # install, build, and resolve the context of examples/monorepo',
    'npm ci && npm test        # install, build, and run the whole test suite',
    '```',
  ]);
  const scripts = (JSON.parse(fs.readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> }).scripts;
  expect(scripts['demo']).toContain('examples/monorepo');
  expect(fs.readFileSync('.ci/run', 'utf8')).toContain('npm test');
});
