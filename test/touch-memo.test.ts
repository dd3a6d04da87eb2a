import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { BUILT_IN_TOOLS, toolTable, type SessionToolSpec } from '../src/session/tool-table.js';
import { createTouchMemo, rebaseUnder, TOUCH_MEMO_SIZE } from '../src/session/touch-memo.js';
import { touchedPaths, type ToolEvent } from '../src/session/triggers.js';
import { memoryResolver } from './helpers/memory.js';

const TABLE = toolTable({ fetch_page: { as: 'read', pathKeys: ['url', 'path'] }, tree: { as: 'list' } });
const TOOLS = Object.keys(TABLE).filter((name) => TABLE[name]?.as !== 'shell');

const pathValue = fc.oneof(
  fc.constantFrom('', 'a\0b', '.', '..', '/w', '/w/', '/link', '/link/x.ts', '/elsewhere/y.ts', '../up.ts'),
  fc
    .array(fc.constantFrom('a', 'b', '.', '..', 'AGENTS.md', 'x.ts', ''), { minLength: 1, maxLength: 4 })
    .map((segments) => segments.join('/')),
);
const value = fc.oneof(
  { weight: 4, arbitrary: pathValue },
  fc.array(pathValue, { maxLength: 3 }),
  fc.constantFrom(42, null, true, { path: 'a' }),
  fc.constantFrom('*** Begin Patch\n*** Update File: a/b.ts\n*** End Patch', 'no header', 'src/**/*.ts'),
);
const KEYS = [
  'file_path',
  'filePath',
  'path',
  'dir_path',
  'url',
  'patch_text',
  'input',
  'pattern',
  'include',
];
const input = fc.oneof(
  { weight: 5, arbitrary: fc.dictionary(fc.constantFrom(...KEYS), value, { maxKeys: 3 }) },
  fc.constantFrom('*** Begin Patch\n*** Add File: n.ts\n*** End Patch', null, undefined),
  fc.constant(['a']),
);

/** What the session read before the memo: touchedPaths, each path mapped to the canonical work dir. */
function unmemoized(event: ToolEvent, workDir: string, spelled: string | undefined) {
  const toCanonical = rebaseUnder(spelled, workDir);
  const touched = touchedPaths(event, workDir, TABLE);
  return {
    files: touched.files.map(toCanonical),
    dirs: touched.directories.map(toCanonical),
    diagnostics: touched.diagnostics,
  };
}

describe('the touch memo', () => {
  test.each([
    ['no symlinked cwd', '/w', undefined],
    ['a symlinked cwd', '/w', '/link'],
  ])('reads every call as touchedPaths does (%s)', (_name, workDir, spelled) => {
    const memo = createTouchMemo({ workDir, spelledWorkDir: spelled, tools: TABLE, rules: false });
    fc.assert(
      fc.property(fc.constantFrom(...TOOLS), input, (tool, given) => {
        const event = { tool, input: given as ToolEvent['input'], ok: true };
        const spec = memo.tool(tool) as SessionToolSpec;
        // Twice: the second answer may come from the memo.
        for (let round = 0; round < 2; round += 1) {
          const { files, dirs, diagnostics } = memo.touch(event, spec);
          expect({ files, dirs, diagnostics }).toEqual(unmemoized(event, workDir, spelled));
        }
      }),
      { numRuns: 500 },
    );
  });

  test('one string, one answer per kind of path: a file names its parent, a directory itself', () => {
    const memo = createTouchMemo({ workDir: '/w', tools: BUILT_IN_TOOLS, rules: false });
    const read = memo.tool('read') as SessionToolSpec;
    const grep = memo.tool('grep') as SessionToolSpec;
    const first = memo.touch({ tool: 'read', input: { file_path: 'a/b' }, ok: true }, read);
    expect(memo.touch({ tool: 'Read', input: { filePath: 'a/b' }, ok: true }, read)).toBe(first);
    const dir = memo.touch({ tool: 'grep', input: { path: 'a/b' }, ok: true }, grep);
    expect([first.files, first.dirs, dir.files, dir.dirs]).toEqual([['/w/a/b'], ['/w/a'], [], ['/w/a/b']]);
  });

  test('starts over after TOUCH_MEMO_SIZE strings, with the same answers', () => {
    const memo = createTouchMemo({ workDir: '/w', tools: BUILT_IN_TOOLS, rules: false });
    const read = memo.tool('read') as SessionToolSpec;
    const touch = (file: string) => memo.touch({ tool: 'read', input: { file_path: file }, ok: true }, read);
    const first = touch('a.ts');
    for (let index = 1; index < TOUCH_MEMO_SIZE; index += 1) touch(`f${index}.ts`);
    expect(touch('a.ts')).toBe(first);
    touch('one-more.ts');
    expect(touch('a.ts')).not.toBe(first);
    expect(touch('a.ts').dirs).toEqual(['/w']);
  });

  test.each([
    // name, rules on, lookup
    ['READ', false, BUILT_IN_TOOLS['read']],
    ['constructor', false, null],
    ['rule', false, null],
    ['Rule', true, 'rule'],
    ['bash', false, BUILT_IN_TOOLS['bash']],
  ])('tool %s (rules on: %s)', (name, rules, expected) => {
    const memo = createTouchMemo({ workDir: '/w', tools: BUILT_IN_TOOLS, rules });
    expect(memo.tool(name)).toBe(expected);
    expect(memo.tool(name)).toBe(expected);
  });
});

const read = (file: string) => ({ tool: 'read', input: { file_path: file }, ok: true });

describe('a session with settled paths', () => {
  test('a path that found nothing does not hide a directory touched later, nor a file of its own', async () => {
    const { resolver } = await memoryResolver(
      {
        'svc/AGENTS.md': 'svc rules',
        'svc/deep/AGENTS.md': 'deep rules',
        '.cursor/rules/gen.mdc': '---\nglobs: "*.gen.ts"\n---\ngenerated code',
      },
      { contextPaths: ['AGENTS.md'], format: 'xml', rules: { sources: ['cursor'] } },
    );
    const session = await resolver.openSession();
    expect(await session.afterTool(read('svc/a.ts'))).toContain('svc rules');
    expect(await session.afterTool(read('svc/a.ts'))).toBe('');
    expect(await session.afterTool(read('svc/a.ts'))).toBe('');
    // Same directory, another file: a glob rule due for it alone.
    expect(await session.afterTool(read('svc/b.gen.ts'))).toContain('generated code');
    expect(await session.afterTool(read('svc/deep/c.ts'))).toContain('deep rules');
    expect(session.state().injected.map((record) => record.path)).toEqual([
      'svc/AGENTS.md',
      '.cursor/rules/gen.mdc',
      'svc/deep/AGENTS.md',
    ]);
  });

  test('with change tracking, a settled path still reports an edit', async () => {
    const { resolver, fs } = await memoryResolver(
      { 'AGENTS.md': 'v1', 'pkg/AGENTS.md': 'pkg v1' },
      { contextPaths: ['AGENTS.md'], format: 'reminder', instructions: { trackChanges: true } },
    );
    const session = await resolver.openSession();
    expect(await session.afterTool(read('pkg/a.ts'))).toContain('pkg v1');
    expect(await session.afterTool(read('pkg/a.ts'))).toBe('');
    fs.set('/w/pkg/AGENTS.md', 'pkg v2');
    expect(await session.afterTool(read('pkg/a.ts'))).toContain('pkg v2');
    fs.set('/w/AGENTS.md', 'v2');
    expect(await session.afterTool(read('pkg/a.ts'))).toContain('v2');
    expect(await session.afterTool(read('pkg/a.ts'))).toBe('');
  });

  test('a file skipped as unreadable is settled after its warning, which comes once', async () => {
    const { resolver, fs } = await memoryResolver(
      { 'pkg/AGENTS.md': 'pkg' },
      { contextPaths: ['AGENTS.md'], format: 'xml' },
    );
    const session = await resolver.openSession();
    fs.remove('/w/pkg/AGENTS.md');
    expect(await session.afterTool(read('pkg/a.ts'))).toBe('');
    fs.set('/w/pkg/AGENTS.md', 'back');
    expect(await session.afterTool(read('pkg/a.ts'))).toBe('');
    expect(session.diagnostics.map((diagnostic) => diagnostic.code)).toEqual(['vanished']);
    expect(session.state().skipped).toEqual(['pkg/AGENTS.md']);
  });

  // The law the memo keeps: a call naming its path by a string (remembered) shows exactly what the
  // same call naming it in a one-element list (read afresh each time) shows, edits included.
  test('remembered and unremembered calls show the same, step by step', async () => {
    const dirs = ['a', 'a/b', 'a/b/c', 'd', 'd/e'];
    const tree: Record<string, string> = {
      'AGENTS.md': 'root',
      '.cursor/rules/ts.mdc': '---\nglobs: "a/**/*.ts"\n---\nts under a',
      '.cursor/rules/any.mdc': '---\nglobs: "*.md"\n---\nmarkdown',
      'd/.cursor/rules/d.mdc': '---\nalwaysApply: true\n---\nall of d',
    };
    for (const dir of dirs) tree[`${dir}/AGENTS.md`] = `rules of ${dir}`;
    const step = fc.oneof(
      fc.record({
        tool: fc.constantFrom('read', 'Read', 'edit', 'grep', 'ls'),
        dir: fc.constantFrom('', ...dirs, 'z', '../out'),
        name: fc.constantFrom('x.ts', 'y.md', 'AGENTS.md'),
      }),
      fc.record({ edit: fc.constantFrom(...dirs), text: fc.constantFrom('new', '') }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(step, { maxLength: 25 }), fc.boolean(), async (steps, trackChanges) => {
        const config = {
          contextPaths: ['AGENTS.md'],
          format: 'xml',
          rules: { sources: ['cursor'] },
          instructions: { trackChanges },
        };
        const one = await memoryResolver(tree, config);
        const two = await memoryResolver(tree, config);
        const remembered = await one.resolver.openSession();
        const afresh = await two.resolver.openSession();
        for (const taken of steps) {
          if ('edit' in taken) {
            one.fs.set(`/w/${taken.edit}/AGENTS.md`, taken.text);
            two.fs.set(`/w/${taken.edit}/AGENTS.md`, taken.text);
            continue;
          }
          const onDir = taken.tool === 'grep' || taken.tool === 'ls';
          const given = onDir ? taken.dir || '.' : `${taken.dir}${taken.dir === '' ? '' : '/'}${taken.name}`;
          const key = onDir ? 'path' : 'file_path';
          const shown = await remembered.afterTool({ tool: taken.tool, input: { [key]: given }, ok: true });
          expect(await afresh.afterTool({ tool: taken.tool, input: { [key]: [given] }, ok: true })).toBe(
            shown,
          );
        }
        expect(remembered.state()).toEqual(afresh.state());
        expect(remembered.diagnostics).toEqual(afresh.diagnostics);
      }),
      { numRuns: 60 },
    );
  });
});

describe('rebaseUnder', () => {
  test.each([
    ['/link/a/b.ts', '/real/a/b.ts'],
    ['/link', '/real'],
    ['/linked/a.ts', '/linked/a.ts'],
    ['/elsewhere/x', '/elsewhere/x'],
  ])('%s under /link maps to %s under /real, and back', (from, to) => {
    expect(rebaseUnder('/link', '/real')(from)).toBe(to);
    expect(rebaseUnder('/real', '/link')(to)).toBe(from);
  });

  test('no spelling, or the same directory, maps nothing', () => {
    expect(rebaseUnder(undefined, '/real')('/link/a')).toBe('/link/a');
    expect(rebaseUnder('/real', '/real')('/real/a')).toBe('/real/a');
  });
});
