import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { createResolver } from '../src/index.js';
import { parseConfig } from '../src/index.js';
import { CtxfilesError } from '../src/errors.js';
import { createMemoryFileSystem } from '../src/fs/memory-file-system.js';
import { flow, memoryResolver } from './helpers/memory.js';
import { seededShuffle } from './helpers/shuffle.js';

describe('the opencode block', () => {
  test('golden bytes', async () => {
    const { resolver } = await memoryResolver(
      {
        'AGENTS.md': '# Rules\nUse tabs.\n',
        'CLAUDE.md': 'No trailing newline',
        '.cursor/rules/a.mdc': 'rule a\n',
        '.cursor/rules/sub/b.mdc': 'rule b',
      },
      // Spec 003's system: rules off, so the rule folder is inlined as files.
      { contextPaths: ['CLAUDE.md', 'AGENTS.md', '.cursor/rules/'], rules: { sources: [] } },
    );
    expect((await resolver.resolve()).text).toBe(
      '# Project-Specific Context\n Make sure to follow the instructions in the context below\n' +
        '# From:/w/.cursor/rules/a.mdc\nrule a\n' +
        '\n# From:/w/.cursor/rules/sub/b.mdc\nrule b' +
        '\n# From:/w/AGENTS.md\n# Rules\nUse tabs.\n' +
        '\n# From:/w/CLAUDE.md\nNo trailing newline',
    );
  });

  test('no file → the empty string', async () => {
    const { resolver } = await memoryResolver({ 'README.md': 'x' });
    const result = await resolver.resolve();
    expect(result.text).toBe('');
    expect(result.files).toEqual([]);
    expect(result.diagnostics).toHaveLength(12); // one per default entry
    expect(result.diagnostics.every((d) => d.level === 'debug' && d.code === 'missing')).toBe(true);
  });

  test('the default contextPaths are used without a config', async () => {
    const { resolver } = await memoryResolver({
      'OpenCode.md': 'o',
      '.github/copilot-instructions.md': 'c',
      '.cursorrules': 'r',
      'CLAUDE.local.md': 'l',
    });
    const { files } = await resolver.resolve();
    // Copilot's file is an `always` rule (rules are on by default): the rules layer comes first.
    expect(files.map((file) => [file.path, file.layer])).toEqual([
      ['/w/.github/copilot-instructions.md', 'rules'],
      ['/w/.cursorrules', 'global'],
      ['/w/CLAUDE.local.md', 'global'],
      ['/w/OpenCode.md', 'global'],
    ]);
  });

  test('without a config, rule folders go to the rules engine: always rules in, glob and manual rules out', async () => {
    const { resolver } = await memoryResolver({
      'AGENTS.md': 'agents',
      '.cursor/rules/always.mdc': '---\nalwaysApply: true\n---\nalways on',
      '.cursor/rules/ts.mdc': '---\nglobs: "*.ts"\n---\nts only',
      '.cursor/rules/manual.mdc': 'named only',
      '.clinerules/style.md': 'cline style',
    });
    const result = await resolver.resolve();
    expect(result.text).toBe(
      '# Project-Specific Context\n Make sure to follow the instructions in the context below\n' +
        '# From:/w/.clinerules/style.md\ncline style\n' +
        '# From:/w/.cursor/rules/always.mdc\nalways on\n' +
        '# From:/w/AGENTS.md\nagents',
    );
    // A glob rule applies when a path in play matches.
    expect((await resolver.resolve({ paths: ['src/a.ts'] })).text).toContain('ts only');
  });

  test('rules.sources: [] restores the raw inlining of rule folders named in contextPaths', async () => {
    const { resolver } = await memoryResolver(
      { '.cursor/rules/ts.mdc': '---\nglobs: "*.ts"\n---\nts only' },
      { contextPaths: ['.cursor/rules/'], rules: { sources: [] } },
    );
    expect((await resolver.resolve()).text).toContain(
      '# From:/w/.cursor/rules/ts.mdc\n---\nglobs: "*.ts"\n---\nts only',
    );
  });

  test('files keep provenance, size and digest', async () => {
    const { resolver } = await memoryResolver({ 'AGENTS.md': 'abc' }, { contextPaths: ['./AGENTS.md'] });
    const [file] = (await resolver.resolve()).files;
    expect(file).toMatchObject({
      path: '/w/AGENTS.md',
      layer: 'global',
      entry: './AGENTS.md',
      bytes: 3,
      sha256: 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
      text: 'abc',
    });
  });

  test('CRLF is preserved and a UTF-8 BOM is dropped', async () => {
    const { resolver } = await memoryResolver(
      { 'AGENTS.md': '\uFEFFline one\r\nline two\r\n' },
      { contextPaths: ['AGENTS.md'] },
    );
    expect((await resolver.resolve()).files[0]?.text).toBe('line one\r\nline two\r\n');
  });
});

describe('dedupe', () => {
  test.each([
    ['two spellings', ['AGENTS.md', './AGENTS.md', 'docs/../AGENTS.md'], ['/w/AGENTS.md']],
    ['a symlink to the same file', ['AGENTS.md', 'link.md'], ['/w/AGENTS.md']],
    ['a symlink first by path order', ['link.md', 'b-link.md'], ['/w/b-link.md']],
    ['a directory entry and a file entry', ['docs/', 'docs/x.md'], ['/w/docs/x.md']],
  ])('%s', async (_name, contextPaths, expected) => {
    const { resolver } = await memoryResolver(
      {
        'AGENTS.md': 'root',
        'link.md': { symlink: 'AGENTS.md' },
        'b-link.md': { symlink: 'AGENTS.md' },
        'docs/x.md': 'x',
      },
      { contextPaths },
    );
    const result = await resolver.resolve();
    expect(result.files.map((file) => file.path)).toEqual(expected);
  });

  test('the same file in two layers appears once, at its first layer', async () => {
    const { resolver } = await memoryResolver(
      { 'AGENTS.md': 'root', 'A.md': 'a' },
      {
        contextPaths: ['AGENTS.md'],
        agents: { coder: { context: { paths: ['A.md', 'AGENTS.md'], mode: 'append' } } },
      },
    );
    const result = await resolver.resolve({ agent: 'coder' });
    expect(result.files.map((file) => [file.layer, file.path])).toEqual([
      ['global', '/w/AGENTS.md'],
      ['agent', '/w/A.md'],
    ]);
    expect(result.diagnostics.find((d) => d.code === 'deduped')).toMatchObject({
      level: 'debug',
      layer: 'agent',
      path: '/w/AGENTS.md',
    });
  });

  test('case-insensitive filesystems: two spellings are one file', async () => {
    const fs = createMemoryFileSystem({ '/w/AGENTS.md': 'root' }, { caseInsensitive: true });
    const { config } = await parseConfig({ contextPaths: ['AGENTS.md', 'agents.md'] });
    const resolver = await createResolver({ workDir: '/w', config, fs, env: {} });
    expect((await resolver.resolve()).files.map((file) => file.path)).toEqual(['/w/AGENTS.md']);
  });
});

describe('agents, flows and steps', () => {
  test('an agent without a declared layer is byte-identical to no agent', async () => {
    const { resolver } = await memoryResolver(
      { 'AGENTS.md': 'root', 'CLAUDE.md': 'c' },
      { contextPaths: ['AGENTS.md', 'CLAUDE.md'], agents: { reviewer: { model: 'x' } } },
    );
    const none = await resolver.resolve();
    const reviewer = await resolver.resolve({ agent: 'reviewer' });
    expect(reviewer.text).toBe(none.text);
    expect(reviewer.files.map((file) => file.text)).toEqual(['root', 'c']);
    expect(reviewer.text).toContain('root');
    expect(reviewer.agent).toBe('reviewer');
  });

  test.each([
    // Agents are declared: a step's agent (planner) does not make it known.
    [{ agent: 'nobody' }, 'unknown-agent', 'unknown agent "nobody". Known agents: coder.'],
    [{ flow: 'release', step: 'plan' }, 'unknown-agent', 'unknown agent "planner". Known agents: coder.'],
    [{ flow: 'nope', step: 'x' }, 'unknown-flow', 'unknown flow "nope". Known flows: release.'],
    [
      { flow: 'release', step: 'ship' },
      'unknown-step',
      'unknown step "ship" in flow "release". Known steps: implement, plan.',
    ],
    [{ flow: 'release' }, 'usage', 'flow "release" needs a step: one of implement, plan'],
    [{ step: 'plan' }, 'usage', 'a step needs a flow: add --flow (known flows: release)'],
  ])('%j fails with %s', async (request, code, message) => {
    const { resolver } = await memoryResolver(
      {},
      { agents: { coder: {} } },
      { flows: [flow('release', [{ id: 'plan', agent: 'planner' }, { id: 'implement' }])] },
    );
    const error = await resolver.resolve(request).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(CtxfilesError);
    expect(error).toMatchObject({ code, message });
  });
});

describe('faults in single files', () => {
  test('an unreadable file is a warning and the rest still resolves', async () => {
    const { resolver, fs } = await memoryResolver(
      { 'AGENTS.md': 'root', 'CLAUDE.md': 'c' },
      { contextPaths: ['AGENTS.md', 'CLAUDE.md'] },
    );
    fs.fail('/w/AGENTS.md', 'readFile', 'EACCES');
    const result = await resolver.resolve();
    expect(result.files.map((file) => file.path)).toEqual(['/w/CLAUDE.md']);
    expect(result.diagnostics).toContainEqual({
      level: 'warn',
      code: 'unreadable',
      message: '/w/AGENTS.md cannot be read (EACCES)',
      layer: 'global',
      entry: 'AGENTS.md',
      path: '/w/AGENTS.md',
    });
  });

  test('a file that vanishes between listing and reading is a warning', async () => {
    const { resolver, fs } = await memoryResolver(
      { 'AGENTS.md': 'root', 'CLAUDE.md': 'c' },
      { contextPaths: ['AGENTS.md', 'CLAUDE.md'] },
    );
    fs.before('/w/AGENTS.md', 'readFile', () => fs.remove('/w/AGENTS.md'));
    const result = await resolver.resolve();
    expect(result.files.map((file) => file.path)).toEqual(['/w/CLAUDE.md']);
    expect(result.diagnostics.find((d) => d.code === 'vanished')).toMatchObject({
      level: 'warn',
      path: '/w/AGENTS.md',
    });
  });

  test('a file replaced between the check and the read is not used', async () => {
    const { resolver, fs } = await memoryResolver(
      { 'AGENTS.md': 'checked' },
      { contextPaths: ['AGENTS.md'] },
    );
    fs.before('/w/AGENTS.md', 'readFile', () => {
      fs.remove('/w/AGENTS.md');
      fs.set('/w/AGENTS.md', 'swapped in');
    });
    const result = await resolver.resolve();
    expect(result.files).toEqual([]);
    expect(result.diagnostics.map((d) => d.code)).toContain('vanished');
  });

  test('a directory named like a file entry is skipped with a debug diagnostic', async () => {
    const { resolver } = await memoryResolver({ 'AGENTS.md/inner.md': 'x' }, { contextPaths: ['AGENTS.md'] });
    const result = await resolver.resolve();
    expect(result.files).toEqual([]);
    expect(result.diagnostics.map((d) => [d.level, d.code])).toEqual([['debug', 'is-directory']]);
  });

  test('a FIFO is never read', async () => {
    const { resolver, fs } = await memoryResolver(
      { 'AGENTS.md': { fifo: true } },
      { contextPaths: ['AGENTS.md'] },
    );
    const result = await resolver.resolve();
    expect(result.diagnostics.map((d) => [d.level, d.code])).toEqual([['warn', 'not-regular']]);
    expect(fs.calls.some((call) => call.op === 'readFile')).toBe(false);
  });

  test('binary files are skipped', async () => {
    const { resolver } = await memoryResolver(
      { 'AGENTS.md': new Uint8Array([0x61, 0, 0x62]) },
      { contextPaths: ['AGENTS.md'] },
    );
    expect((await resolver.resolve()).diagnostics.map((d) => d.code)).toEqual(['binary']);
  });
});

describe('memoization', () => {
  test('the same request returns the same frozen result; refresh re-reads', async () => {
    const { resolver, fs } = await memoryResolver({ 'AGENTS.md': 'v1' }, { contextPaths: ['AGENTS.md'] });
    const first = await resolver.resolve();
    fs.set('/w/AGENTS.md', 'v2');
    const second = await resolver.resolve();
    expect(second).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    expect(second.text).toContain('v1');
    const reads = fs.calls.filter((call) => call.op === 'readFile').length;
    expect(reads).toBe(1);
    resolver.refresh();
    expect((await resolver.resolve()).text).toContain('v2');
  });

  test('two requests with the same effective entries share one read', async () => {
    const { resolver, fs } = await memoryResolver(
      { 'AGENTS.md': 'v1' },
      { contextPaths: ['AGENTS.md'], agents: { a: {}, b: {} } },
    );
    const a = await resolver.resolve({ agent: 'a' });
    const b = await resolver.resolve({ agent: 'b' });
    expect(a.text).toBe(b.text);
    expect(fs.calls.filter((call) => call.op === 'readFile')).toHaveLength(1);
  });
});

describe('order independence', () => {
  test('property: the output does not depend on the order the filesystem lists entries in', async () => {
    const names = ['a.md', 'B.md', 'c.mdc', '_x.md', 'Z/1.md', 'Z/0.md', 'y/a.md', 'é.md', '.hidden.md'];
    const tree = Object.fromEntries(names.map((name) => [`rules/${name}`, name]));
    // The entries' own order (rules off: the rules engine has its own order test, 10,000 runs each).
    const reference = await (
      await memoryResolver(tree, { contextPaths: ['rules/', 'rules/a.md'], rules: { sources: [] } })
    ).resolver.resolve();
    await fc.assert(
      fc.asyncProperty(fc.integer(), async (seed) => {
        const shuffle = seededShuffle(seed);
        const { resolver } = await memoryResolver(
          tree,
          { contextPaths: ['rules/', 'rules/a.md'], rules: { sources: [] } },
          { fs: { listOrder: shuffle } },
        );
        expect((await resolver.resolve()).text).toBe(reference.text);
      }),
      { numRuns: 10_000 },
    );
    expect(reference.files.map((file) => file.path.slice('/w/rules/'.length))).toEqual([
      '.hidden.md',
      'B.md',
      'Z/0.md',
      'Z/1.md',
      '_x.md',
      'a.md',
      'c.mdc',
      'y/a.md',
      'é.md',
    ]);
  });
});
