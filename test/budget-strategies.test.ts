import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { DEFAULT_CONFIG } from '../src/config/defaults.js';
import type { Format } from '../src/config/types.js';
import { applyBudget, type BudgetFile, type BudgetOptions } from '../src/render/apply-budget.js';
import { renderFormat } from '../src/index.js';
import { memoryResolver } from './helpers/memory.js';
import { HOST_REGISTRY } from '../src/hosts/index.js';

const bytes = (text: string) => Buffer.byteLength(text, 'utf8');
const within = (max: number) => (text: string) => bytes(text) <= max;
/** No notice, so that table rows can state exact sizes. */
const quiet = {
  workDir: '/r/w',
  homeDir: '/home/u',
  wording: { ...DEFAULT_CONFIG.wording, budgetNotice: '' },
  formats: HOST_REGISTRY.format,
};
const codexBudget = {
  format: 'codex',
  budget: { strategy: 'root-first', counts: 'content', scope: 'project' },
  wording: { budgetNotice: '' },
};

describe('ported from Codex', () => {
  test('doc_larger_than_limit_is_truncated: exactly the limit of document bytes survives', async () => {
    // openai/codex codex-rs/core/src/project_doc.rs and agents_md_tests.rs, `doc_larger_than_limit_is_truncated`
    const huge = 'A'.repeat(2048);
    const { resolver } = await memoryResolver(
      { 'AGENTS.md': huge },
      { contextPaths: ['AGENTS.md'], ...codexBudget, budget: { ...codexBudget.budget, maxBytes: 1024 } },
    );
    const result = await resolver.resolve();
    expect(result.text).toBe(
      `# AGENTS.md instructions for /w\n\n<INSTRUCTIONS>\n${'A'.repeat(1024)}\n</INSTRUCTIONS>`,
    );
    expect(result.diagnostics.map((diagnostic) => diagnostic.code)).toContain('budget-truncated');
  });

  test('total_byte_limit_truncates_later_project_docs: the budget is spent root first', async () => {
    // openai/codex codex-rs/core/src/agents_md_tests.rs, `total_byte_limit_truncates_later_project_docs`
    const { resolver } = await memoryResolver(
      { '/r/.git': '', '/r/AGENTS.md': 'root', '/r/nested/AGENTS.md': 'abcdef' },
      {
        contextPaths: [],
        instructions: { walk: 'project', candidates: ['AGENTS.override.md', 'AGENTS.md'] },
        ...codexBudget,
        budget: { ...codexBudget.budget, maxBytes: 7 },
      },
      { workDir: '/r/nested' },
    );
    expect((await resolver.resolve()).text).toBe(
      '# AGENTS.md instructions for /r/nested\n\n<INSTRUCTIONS>\nroot\n\nabc\n</INSTRUCTIONS>',
    );
  });

  test('a file whose cut text is blank is dropped without spending the budget (lab case cap-blank-cut)', async () => {
    // openai/codex codex-rs/core/src/agents_md.rs `read_agents_md`: a cut that leaves only
    // whitespace is not pushed and `remaining` is not lowered, so the next file gets it whole.
    const { resolver } = await memoryResolver(
      {
        '/r/.git': '',
        '/r/AGENTS.md': `${' '.repeat(20)}Tail.\n`,
        '/r/nested/AGENTS.md': 'Sub rules.\n',
        '/r/nested/deeper/AGENTS.md': 'Deeper rules.\n',
      },
      {
        contextPaths: [],
        instructions: { walk: 'project', candidates: ['AGENTS.override.md', 'AGENTS.md'] },
        ...codexBudget,
        budget: { ...codexBudget.budget, maxBytes: 15 },
      },
      { workDir: '/r/nested/deeper' },
    );
    const result = await resolver.resolve();
    expect(result.text).toBe(
      '# AGENTS.md instructions for /r/nested/deeper\n\n<INSTRUCTIONS>\nSub rules.\n\n\nDeep\n</INSTRUCTIONS>',
    );
  });

  test('two 16 KB files whose content just fits 32 KiB are both kept when the content is counted', () => {
    const files: BudgetFile[] = [
      { path: '/r/AGENTS.md', text: 'r'.repeat(16_380), layer: 'chain', depth: 0 },
      { path: '/r/codex-rs/AGENTS.md', text: 'c'.repeat(16_380), layer: 'chain', depth: 1 },
    ];
    const cap = within(32_768);
    for (const strategy of ['root-first', 'specific-first'] as const) {
      const content = applyBudget('codex', files, quiet, cap, { strategy, counts: 'content' });
      expect(content.dropped).toEqual([]);
      expect(content.truncated).toBeNull();
      // Counting the rendered block instead gives up the root file: the third failure.
      expect(applyBudget('codex', files, quiet, cap, { strategy: 'specific-first' }).dropped).toEqual([
        '/r/AGENTS.md',
      ]);
    }
  });
});

const user: BudgetFile = { path: '/home/u/AGENTS.md', text: 'üser', layer: 'user', depth: null }; // 5 bytes
const root: BudgetFile = { path: '/r/AGENTS.md', text: 'ルート', layer: 'chain', depth: 0 }; // 9 bytes
const work: BudgetFile = { path: '/r/w/AGENTS.md', text: 'wörk', layer: 'chain', depth: 1 }; // 5 bytes
const extra: BudgetFile = { path: '/home/u/extra.md', text: '€', layer: 'extra', depth: null }; // 3 bytes
const files = [user, root, work];
const cut = (file: BudgetFile, text: string) => ({ ...file, text });
const render = (format: Format, list: readonly BudgetFile[]) => bytes(renderFormat(format, list, quiet));

describe('strategies × counts × multi-byte text', () => {
  test.each<[string, BudgetOptions, number, BudgetFile[], string[]]>([
    // case, options, cap in bytes, files kept (cut ones with their cut text), files left out
    ['root-first content: all fit', { strategy: 'root-first', counts: 'content' }, 19, files, []],
    [
      'root-first content: the file that crosses the cap is cut at a character boundary',
      { strategy: 'root-first', counts: 'content' },
      10,
      [user, cut(root, 'ル')],
      [work.path],
    ],
    [
      'root-first content: a cut that splits a character keeps fewer bytes',
      { strategy: 'root-first', counts: 'content' },
      13,
      [user, cut(root, 'ルー')],
      [work.path],
    ],
    [
      'root-first content: no character fits, so the rest is left out',
      { strategy: 'root-first', counts: 'content' },
      7,
      [user],
      [root.path, work.path],
    ],
    [
      'root-first content, scope project: the user file is free',
      { strategy: 'root-first', counts: 'content', scope: 'project' },
      10,
      [user, root, cut(work, 'w')],
      [],
    ],
    [
      'specific-first content: broad files go first',
      { strategy: 'specific-first', counts: 'content' },
      10,
      [work],
      [user.path, root.path],
    ],
    [
      'specific-first content: the most specific file is cut last',
      { counts: 'content' },
      3,
      [cut(work, 'wö')],
      [user.path, root.path],
    ],
    [
      'specific-first content, scope project: the user file stays',
      { counts: 'content', scope: 'project' },
      5,
      [user, work],
      [root.path],
    ],
    [
      'root-first rendered: whole files while they fit',
      { strategy: 'root-first' },
      render('gemini', [user, root]),
      [user, root],
      [work.path],
    ],
    [
      'root-first rendered: the crossing file is cut to what the frame leaves',
      { strategy: 'root-first' },
      render('gemini', [user, root, cut(work, 'wö')]),
      [user, root, cut(work, 'wö')],
      [],
    ],
    [
      'root-first rendered, scope project: only project files are measured',
      { strategy: 'root-first', scope: 'project' },
      render('gemini', [root]),
      [user, root],
      [work.path],
    ],
    ['specific-first rendered', {}, render('gemini', [work]), [work], [user.path, root.path]],
    [
      'specific-first rendered, scope project: user and extra files are never measured',
      { scope: 'project' },
      render('gemini', [work]),
      [user, work, extra],
      [root.path],
    ],
  ])('%s', (_name, options, cap, kept, dropped) => {
    const input = kept.includes(extra) ? [...files, extra] : files;
    const result = applyBudget('gemini', input, quiet, within(cap), options);
    expect(result.kept.map((file) => [file.path, file.text])).toEqual(
      kept.map((file) => [file.path, file.text]),
    );
    expect(result.dropped).toEqual(dropped);
    expect(result.text).toBe(renderFormat('gemini', kept, quiet));
  });

  test('with the notice, the rendered block still never passes the cap', () => {
    const context = { ...quiet, wording: DEFAULT_CONFIG.wording };
    for (let cap = 0; cap < 400; cap += 7) {
      const result = applyBudget('codex', files, context, within(cap), { strategy: 'root-first' });
      expect(bytes(result.text)).toBeLessThanOrEqual(cap);
    }
  });

  test('budget.scope project keeps the user file even with maxBytes 0', async () => {
    const { resolver } = await memoryResolver(
      { 'AGENTS.md': 'project' },
      {
        contextPaths: ['AGENTS.md'],
        instructions: { userFile: '~/AGENTS.md' },
        format: 'gemini',
        budget: { maxBytes: 0, scope: 'project' },
        wording: { budgetNotice: '' },
      },
      { outside: { '/home/u/AGENTS.md': 'mine' } },
    );
    const result = await resolver.resolve();
    expect(result.text).toBe(
      '--- Context from: /home/u/AGENTS.md ---\nmine\n--- End of Context from: /home/u/AGENTS.md ---',
    );
    expect(result.diagnostics.map((diagnostic) => diagnostic.code)).toContain('budget-dropped');
  });
});

describe('laws', () => {
  const layer = fc.constantFrom('user', 'chain', 'global', 'agent', 'step', 'extra');
  const budgetFiles = fc
    .array(
      fc.record({
        text: fc.string({ unit: 'grapheme', maxLength: 40 }),
        layer,
        depth: fc.option(fc.nat(4), { nil: null }),
      }),
      { maxLength: 6 },
    )
    .map((list) => list.map((file, index) => ({ ...file, path: `/r/w/f${index}/AGENTS.md` })));
  const options = fc.record({
    strategy: fc.constantFrom('specific-first' as const, 'root-first' as const),
    counts: fc.constantFrom('rendered' as const, 'content' as const),
    scope: fc.constantFrom('all' as const, 'project' as const),
  });
  const formats = fc.constantFrom<Format>(
    'opencode',
    'xml',
    'reminder',
    'magi',
    'codex',
    'claude-code',
    'gemini',
  );

  test('the counted bytes never exceed the cap, and cut text is a prefix cut at a character boundary', () => {
    fc.assert(
      fc.property(
        budgetFiles,
        options,
        formats,
        fc.nat(600),
        fc.boolean(),
        (list, chosen, format, cap, notice) => {
          const context = notice ? { ...quiet, wording: DEFAULT_CONFIG.wording } : quiet;
          const result = applyBudget(format, list, context, within(cap), chosen);
          const counted = result.kept.filter(
            (file) => chosen.scope === 'all' || (file.layer !== 'user' && file.layer !== 'extra'),
          );
          if (chosen.counts === 'content') {
            expect(bytes(counted.map((file) => file.text).join(''))).toBeLessThanOrEqual(cap);
          } else if (chosen.scope === 'all') {
            expect(bytes(result.text)).toBeLessThanOrEqual(cap);
          } else if (!notice && counted.length > 0) {
            expect(bytes(renderFormat(format, counted, context))).toBeLessThanOrEqual(cap);
          }
          for (const file of result.kept) {
            const original = list.find((entry) => entry.path === file.path);
            expect(original?.text.startsWith(file.text)).toBe(true);
            expect(Buffer.from(file.text, 'utf8').toString('utf8')).toBe(file.text);
          }
          // Unmeasured files are never given up.
          if (chosen.scope === 'project')
            for (const file of list)
              if (file.layer === 'user' || file.layer === 'extra')
                expect(result.kept.map((kept) => kept.path)).toContain(file.path);
        },
      ),
      { numRuns: 3_000 },
    );
  });

  test('root-first keeps the measured files in order, passing over only those whose cut would be blank', () => {
    fc.assert(
      fc.property(budgetFiles, fc.nat(300), (list, cap) => {
        const result = applyBudget('gemini', list, quiet, within(cap), {
          strategy: 'root-first',
          counts: 'content',
        });
        const at = result.kept.map((file) => list.findIndex((entry) => entry.path === file.path));
        expect(at).toEqual([...at].sort((a, b) => a - b));
        // Every kept file but the last is whole.
        expect(
          result.kept.slice(0, -1).every((file, index) => file.text === list[at[index] as number]?.text),
        ).toBe(true);
        // A file passed over before the last kept one begins with whitespace: its cut was blank.
        const last = at[at.length - 1] ?? -1;
        for (const [index, file] of list.entries())
          if (index < last && !at.includes(index)) expect(file.text).toMatch(/^\s/);
      }),
      { numRuns: 3_000 },
    );
  });

  test('without the new keys, the result is the same as with their defaults', () => {
    fc.assert(
      fc.property(budgetFiles, formats, fc.nat(600), (list, format, cap) => {
        const context = { ...quiet, wording: DEFAULT_CONFIG.wording };
        expect(applyBudget(format, list, context, within(cap))).toEqual(
          applyBudget(format, list, context, within(cap), {
            strategy: 'specific-first',
            counts: 'rendered',
            scope: 'all',
          }),
        );
      }),
      { numRuns: 1_000 },
    );
  });
});
