import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { DEFAULT_CONFIG } from '../src/config/defaults.js';
import type { Format } from '../src/config/types.js';
import { applyBudget, type BudgetFile } from '../src/render/apply-budget.js';
import { loadTokenCounter } from '../src/render/count-tokens.js';
import { memoryResolver } from './helpers/memory.js';
import { HOST_REGISTRY } from '../src/hosts/index.js';

const context = {
  workDir: '/repo/w',
  homeDir: '/home/u',
  wording: DEFAULT_CONFIG.wording,
  formats: HOST_REGISTRY.format,
};
const bytes = (text: string) => Buffer.byteLength(text, 'utf8');
const within = (max: number) => (text: string) => bytes(text) <= max;

const files: BudgetFile[] = [
  { path: '/home/u/AGENTS.md', text: 'user '.repeat(20), layer: 'user', depth: null },
  { path: '/repo/AGENTS.md', text: 'repo '.repeat(20), layer: 'chain', depth: 0 },
  { path: '/repo/w/AGENTS.md', text: 'work '.repeat(20), layer: 'chain', depth: 1 },
  { path: '/repo/w/docs/a.md', text: 'global '.repeat(10), layer: 'global', depth: 1 },
  { path: '/repo/w/agent.md', text: 'agent '.repeat(10), layer: 'agent', depth: 0 },
  { path: '/repo/w/step.md', text: 'step '.repeat(30), layer: 'step', depth: 0 },
];

describe('budget', () => {
  test('under the budget nothing changes', () => {
    const result = applyBudget('opencode', files, context, within(100_000));
    expect(result.dropped).toEqual([]);
    expect(result.truncated).toBeNull();
    expect(result.text).not.toContain('budget');
  });

  test('broader files are dropped first, in order: user, chain from the root, global, agent', () => {
    const drops: string[][] = [];
    const full = bytes(applyBudget('xml', files, context, within(1e9)).text);
    for (let max = full - 1; max > 0; max -= 25) {
      const result = applyBudget('xml', files, context, within(max));
      expect(bytes(result.text)).toBeLessThanOrEqual(max);
      drops.push([...result.dropped]);
    }
    const order = drops.reduce<string[]>(
      (longest, current) => (current.length > longest.length ? current : longest),
      [],
    );
    expect(order.slice(0, 5)).toEqual([
      '/home/u/AGENTS.md',
      '/repo/AGENTS.md',
      '/repo/w/AGENTS.md',
      '/repo/w/docs/a.md',
      '/repo/w/agent.md',
    ]);
    // Every smaller budget drops a prefix of the same order.
    for (const dropped of drops) expect(order.slice(0, dropped.length)).toEqual(dropped);
  });

  test('the most specific file is cut last, and a notice names what was left out and cut', () => {
    const result = applyBudget('reminder', files, context, within(550));
    expect(result.dropped).toEqual([
      '/home/u/AGENTS.md',
      '/repo/AGENTS.md',
      '/repo/w/AGENTS.md',
      '/repo/w/docs/a.md',
      '/repo/w/agent.md',
    ]);
    expect(result.truncated).toBe('/repo/w/step.md');
    expect(result.text).toContain(
      `${DEFAULT_CONFIG.wording.budgetNotice} Left out: ~/AGENTS.md, /repo/AGENTS.md, AGENTS.md, docs/a.md, agent.md. Cut short: step.md.`,
    );
    expect(bytes(result.text)).toBeLessThanOrEqual(550);
    expect(bytes(result.text)).toBeGreaterThan(540); // the cut keeps as much as fits
  });

  test('a cut never splits a multi-byte character or an escape', () => {
    const text = 'é€😀&<'.repeat(50);
    for (let max = 200; max < 700; max += 7) {
      const result = applyBudget(
        'xml',
        [{ path: '/repo/w/A.md', text, layer: 'global', depth: 0 }],
        context,
        within(max),
      );
      expect(bytes(result.text)).toBeLessThanOrEqual(max);
      expect(result.text).not.toContain('\uFFFD');
      expect(Buffer.from(result.text, 'utf8').toString('utf8')).toBe(result.text);
      expect(result.text).not.toMatch(/&(?!amp;|lt;|gt;|quot;|apos;)/);
      const kept = result.kept[0]?.text ?? '';
      expect(text.startsWith(kept)).toBe(true);
      expect([...kept].length === kept.length || !/[\uD800-\uDBFF]$/.test(kept)).toBe(true);
    }
  });

  test('when not even the notice fits, the result is empty', () => {
    const result = applyBudget('opencode', files, context, within(10));
    expect(result.text).toBe('');
    expect(result.dropped).toHaveLength(6);
  });

  test('property: the block never exceeds the budget', () => {
    const file = fc.record({
      path: fc.constantFrom(
        '/home/u/A.md',
        '/repo/A.md',
        '/repo/w/A.md',
        '/repo/w/x/B.md',
        '/repo/w/C.md',
        '/repo/w/D.md',
      ),
      text: fc.string({ unit: 'grapheme', maxLength: 200 }),
      layer: fc.constantFrom('user', 'chain', 'global', 'agent', 'step', 'extra'),
      depth: fc.option(fc.nat(5), { nil: null }),
    });
    fc.assert(
      fc.property(
        fc.uniqueArray(file, { selector: (entry) => entry.path, maxLength: 6 }),
        fc.nat(2000),
        fc.constantFrom<Format>('opencode', 'xml', 'reminder', 'magi'),
        (list, max, format) => {
          const result = applyBudget(format, list, context, within(max));
          expect(bytes(result.text)).toBeLessThanOrEqual(Math.max(max, 0));
        },
      ),
      { numRuns: 1000 },
    );
  });
});

describe('budget in resolution', () => {
  test('maxBytes caps the rendered block and reports drops and cuts as warnings', async () => {
    const tree = { 'AGENTS.md': 'a'.repeat(300), 'CLAUDE.md': 'c'.repeat(300), 'agent.md': 'x'.repeat(300) };
    const { resolver } = await memoryResolver(tree, {
      contextPaths: ['AGENTS.md', 'CLAUDE.md'],
      agents: { coder: { context: { paths: ['agent.md'], mode: 'append' } } },
      budget: { maxBytes: 400 },
    });
    const result = await resolver.resolve({ agent: 'coder' });
    expect(bytes(result.text)).toBeLessThanOrEqual(400);
    expect(result.files.map((file) => file.path)).toEqual(['/w/agent.md']);
    expect(
      result.diagnostics.filter((d) => d.code.startsWith('budget-')).map((d) => [d.level, d.code, d.path]),
    ).toEqual([
      ['warn', 'budget-dropped', '/w/AGENTS.md'],
      ['warn', 'budget-dropped', '/w/CLAUDE.md'],
      ['warn', 'budget-truncated', '/w/agent.md'],
    ]);
  });

  test('maxBytes 0 renders nothing', async () => {
    const { resolver } = await memoryResolver(
      { 'AGENTS.md': 'a' },
      { contextPaths: ['AGENTS.md'], format: 'magi', budget: { maxBytes: 0 } },
    );
    const result = await resolver.resolve();
    expect(result.text).toBe('');
    expect(result.files).toEqual([]);
  });

  test('maxTokens counts with a real tokenizer', async () => {
    const countTokens = await loadTokenCounter();
    expect(countTokens('hello world')).toBe(2);
    expect(countTokens('<|endoftext|>')).toBeGreaterThan(1); // special tokens are plain text here
    const { resolver } = await memoryResolver(
      { 'AGENTS.md': 'word '.repeat(400), 'CLAUDE.md': 'tiny' },
      { contextPaths: ['AGENTS.md', 'CLAUDE.md'], budget: { maxTokens: 100 } },
    );
    const result = await resolver.resolve();
    expect(countTokens(result.text)).toBeLessThanOrEqual(100);
    expect(result.diagnostics.map((d) => d.code)).toContain('budget-dropped');
  });
});
