import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { parseConfig } from '../src/index.js';
import { memoryResolver } from './helpers/memory.js';

const dir = 'docs/recipes';
const recipes = fs.readdirSync(dir).filter((name) => name !== 'README.md');

describe('recipes', () => {
  test('the index lists every recipe', () => {
    const index = fs.readFileSync(path.join(dir, 'README.md'), 'utf8');
    for (const name of recipes) expect(index).toContain(`(${name})`);
    // ... and every link of the index to a page beside it names a recipe that exists.
    const linked = [...index.matchAll(/\]\(([^)/]+\.md)\)/g)].map((match) => match[1]);
    expect(linked.sort()).toEqual([...recipes].sort());
  });

  test.each(recipes)('%s: the config is valid and resolves', async (name) => {
    const text = fs.readFileSync(path.join(dir, name), 'utf8');
    const block = /```json\n([\s\S]*?)\n```/.exec(text);
    expect(block).not.toBeNull();
    const value = JSON.parse((block as RegExpExecArray)[1] as string) as unknown;
    const { config, diagnostics } = await parseConfig(value);
    expect(diagnostics).toEqual([]);
    // The tool recipes read their own file names (CLAUDE.md, GEMINI.md) as well.
    const { resolver } = await memoryResolver(
      {
        'AGENTS.md': 'work dir rules',
        'CLAUDE.md': 'work dir rules',
        'GEMINI.md': 'work dir rules',
        'pkg/AGENTS.md': 'nested',
      },
      value,
      {
        workDir: '/repo/w',
        outside: { '/repo/.git/HEAD': 'ref', '/repo/AGENTS.md': 'repo rules' },
      },
    );
    const result = await resolver.resolve();
    expect(result.format).toBe(config.format);
    expect(result.text).toContain('work dir rules');
  });
});
