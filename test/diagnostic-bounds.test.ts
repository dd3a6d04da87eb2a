import { describe, expect, test } from 'vitest';
import { capDiagnostics, createDiagnostics, MAX_DIAGNOSTICS } from '../src/diagnostics.js';
import type { Diagnostic } from '../src/errors.js';
import { spellChain } from '../src/imports/expand-imports.js';
import { memoryResolver, WORK } from './helpers/memory.js';

// Issue #26, item 3: diagnostics are bounded per resolution and per session (DESIGN §12, "Bounds").

const warn = (path: string, message = 'm'): Diagnostic => ({
  level: 'warn',
  code: 'too-large',
  message,
  path,
});

describe('the shared diagnostics list', () => {
  test('one per (code, file, target); the message stands in only without a path or entry', () => {
    const list = createDiagnostics();
    list.push(warn('/a', 'first'), warn('/a', 'second'), warn('/b'));
    list.push({ ...warn('/a'), entry: '@x.md' }, { ...warn('/a'), entry: '@x.md' });
    list.push(
      { level: 'warn', code: 'unknown-key', message: 'a' },
      { level: 'warn', code: 'unknown-key', message: 'b' },
    );
    expect(list.map((item) => `${item.path ?? ''} ${item.entry ?? ''} ${item.message}`)).toEqual([
      '/a  first',
      '/b  m',
      '/a @x.md m',
      '  a',
      '  b',
    ]);
  });

  test(`at most ${MAX_DIAGNOSTICS}, then one closing info that counts the rest`, () => {
    const list = createDiagnostics();
    for (let index = 0; index < 5000; index += 1) list.push(warn(`/f${index}`));
    expect(list).toHaveLength(MAX_DIAGNOSTICS + 1);
    expect(list[MAX_DIAGNOSTICS]).toEqual({
      level: 'info',
      code: 'diagnostics-capped',
      message: '4000 more diagnostics were left out: at most 1,000 are kept, one per code, file and target',
    });
  });

  test('merged lists carry their counts into one closing note, which comes last', () => {
    const first = createDiagnostics(2);
    for (const name of ['a', 'b', 'c', 'd']) first.push(warn(`/${name}`));
    const merged = capDiagnostics(first, [warn('/e')]);
    expect(merged.map((item) => item.code)).toEqual([
      'too-large',
      'too-large',
      'too-large',
      'diagnostics-capped',
    ]);
    expect(merged[3]?.message).toMatch(/^2 more diagnostics were left out/);
    expect(JSON.parse(JSON.stringify(merged))[3].message).toMatch(/^2 more/);
  });

  test('an import chain is spelled with at most six files', () => {
    const chain = Array.from({ length: 40 }, (_, index) => `/w/f${index}.md`);
    expect(spellChain(chain)).toBe('/w/f0.md → /w/f1.md → … 35 more … → /w/f37.md → /w/f38.md → /w/f39.md');
    expect(spellChain(chain.slice(0, 6))).toBe(chain.slice(0, 6).join(' → '));
  });
});

describe('hostile import chains (#26.3)', () => {
  const imports = { imports: { enabled: true, maxDepth: 32 } };

  test('100,000 references back into a chain give one warning, not one per reference', async () => {
    const tree = {
      [`${WORK}/AGENTS.md`]: '@a.md\n',
      [`${WORK}/a.md`]: '@b.md\n',
      [`${WORK}/b.md`]: `${'@a.md '.repeat(100_000)}\n`,
    };
    const { resolver } = await memoryResolver(tree, imports);
    const result = await resolver.resolve();
    const cycles = result.diagnostics.filter((item) => item.code === 'import-cycle');
    expect(cycles).toHaveLength(1);
    expect(cycles[0]?.message).toBe(
      'import cycle: /w/AGENTS.md → /w/a.md → /w/b.md → /w/a.md; the repeated import is not followed',
    );
  });

  test('20,000 distinct references past the depth: 1,000 diagnostics and a count, each chain spelled short', async () => {
    const tree: Record<string, string> = { [`${WORK}/AGENTS.md`]: '@i0.md\n' };
    for (let depth = 0; depth < 31; depth += 1) tree[`${WORK}/i${depth}.md`] = `@i${depth + 1}.md\n`;
    tree[`${WORK}/i31.md`] = Array.from({ length: 20_000 }, (_, index) => `@z${index}.md`).join(' ');
    for (let index = 0; index < 20_000; index += 1) tree[`${WORK}/z${index}.md`] = 'z';
    const { resolver } = await memoryResolver(tree, imports);
    const result = await resolver.resolve();
    expect(result.diagnostics.length).toBeLessThanOrEqual(MAX_DIAGNOSTICS + 1);
    const depth = result.diagnostics.filter((item) => item.code === 'import-depth');
    expect(depth.length).toBeGreaterThan(900);
    for (const item of depth) expect(item.message.length).toBeLessThan(200);
    const last = result.diagnostics[result.diagnostics.length - 1];
    expect(last?.code).toBe('diagnostics-capped');
    expect(last?.message).toMatch(/^\d+ more diagnostics were left out/);
  });

  test('a session keeps at most 1,000 diagnostics too, and reports each once', async () => {
    const { resolver } = await memoryResolver({ [`${WORK}/AGENTS.md`]: 'x' }, {});
    const seen: Diagnostic[] = [];
    const session = await resolver.openSession({ onDiagnostic: (item: Diagnostic) => seen.push(item) });
    // A patch call that names no file warns `malformed-patch`; each distinct text is its own target.
    for (let index = 0; index < 1500; index += 1)
      await session.afterTool({ tool: 'apply_patch', input: { input: `*** Begin Patch ${index}` } });
    expect(session.diagnostics.length).toBeLessThanOrEqual(MAX_DIAGNOSTICS + 1);
    expect(seen).toEqual(session.diagnostics);
  });
});

describe('the rules-on-request catalog obeys maxManifestBytes (#26.6)', () => {
  test('300 requested rules with 10 KB descriptions: a catalog within the cap, and a warning', async () => {
    const tree: Record<string, string> = {};
    for (let index = 0; index < 300; index += 1)
      tree[`${WORK}/.cursor/rules/r${index}.mdc`] =
        `---\ndescription: ${'d'.repeat(10_000)}\n---\nrule ${index}\n`;
    const { resolver } = await memoryResolver(tree, { rules: { sources: ['cursor'] } });
    const result = await resolver.resolve();
    expect(Buffer.byteLength(result.manifest)).toBeLessThanOrEqual(8192);
    expect(result.manifest).toMatch(/^# Rules on Request\n/);
    expect(result.manifest).toMatch(/\n\.\.\. \d+ more rules not shown$/);
    expect(result.diagnostics).toContainEqual({
      level: 'warn',
      code: 'catalog-truncated',
      message:
        'the rules-on-request catalog is larger than contextDiscovery.maxManifestBytes (8192 bytes): its descriptions are left out and the list is cut',
    });
  });

  test('a catalog that fits only without descriptions keeps every name', async () => {
    const tree: Record<string, string> = {};
    for (let index = 0; index < 3; index += 1)
      tree[`${WORK}/.cursor/rules/r${index}.mdc`] = `---\ndescription: ${'d'.repeat(5000)}\n---\nrule\n`;
    const { resolver } = await memoryResolver(tree, { rules: { sources: ['cursor'] } });
    const result = await resolver.resolve();
    expect(result.manifest.split('\n').filter((line) => line.startsWith('- '))).toEqual([
      '- r0 (.cursor/rules/r0.mdc)',
      '- r1 (.cursor/rules/r1.mdc)',
      '- r2 (.cursor/rules/r2.mdc)',
    ]);
    expect(result.diagnostics.some((item) => item.code === 'catalog-truncated')).toBe(true);
  });
});
