import { describe, expect, test } from 'vitest';
import type { Diagnostic } from '../src/errors.js';
import { createMemoryFileSystem } from '../src/fs/memory-file-system.js';
import { globCandidates } from '../src/resolve/glob-files.js';

// instructions.globs (src/resolve/glob-files.ts): a relative pattern's literal folders are walked
// straight into, so `.kilo/rules/*.md` does not list the whole tree, and finds the same files.

function tree(): Record<string, string> {
  const files: Record<string, string> = {
    '/p/.kilo/rules/b.md': 'B',
    '/p/.kilo/rules/a.md': 'A',
    '/p/.kilo/rules/deep/c.md': 'C',
    '/p/.kilo/rules/x.txt': 'X',
    '/p/docs/guide/one.md': '1',
    '/p/docs/two.md': '2',
  };
  for (let i = 0; i < 50; i += 1) files[`/p/src/m${i}/index.ts`] = '';
  return files;
}

function run(patterns: string[]) {
  const fs = createMemoryFileSystem(tree());
  const diagnostics: Diagnostic[] = [];
  fs.calls.length = 0;
  const found = globCandidates(fs, patterns, ['/p'], '/home', diagnostics).map((c) => c.path);
  const listed = fs.calls.filter((call) => call.op === 'readdir').map((call) => call.path);
  return { found, listed, diagnostics };
}

describe('instructions.globs: literal folders of a relative pattern', () => {
  test('a folder and one segment: that folder is listed alone, its files sorted, nothing below', () => {
    const { found, listed, diagnostics } = run(['.kilo/rules/*.md']);
    expect(found).toEqual(['/p/.kilo/rules/a.md', '/p/.kilo/rules/b.md']);
    expect(listed).toEqual(['/p/.kilo/rules']);
    expect(diagnostics).toEqual([]);
  });

  test('a folder and more segments: the walk starts in the folder', () => {
    const { found, listed } = run(['docs/**/*.md']);
    expect(found).toEqual(['/p/docs/guide/one.md', '/p/docs/two.md']);
    expect(listed).toEqual(['/p/docs', '/p/docs/guide']);
  });

  test('a pattern without a literal folder still walks the tree', () => {
    const { found, listed } = run(['*/rules/*.md']);
    expect(found).toEqual(['/p/.kilo/rules/a.md', '/p/.kilo/rules/b.md']);
    expect(listed).toContain('/p/src/m7');
  });

  test('a missing folder finds nothing, quietly', () => {
    expect(run(['.kilocode/rules/*.md'])).toMatchObject({ found: [], diagnostics: [] });
  });
});

describe('instructions.globs: a leading folder that is a link', () => {
  test('is not stepped into, as the walk never descends into a link; an absent one lists nothing', () => {
    const fs = createMemoryFileSystem({
      '/p/AGENTS.md': 'root',
      '/p/.kilo': { symlink: '/outside' },
      '/outside/rules/secret.md': 'S',
    });
    const diagnostics: Diagnostic[] = [];
    fs.calls.length = 0;
    const found = globCandidates(fs, ['.kilo/rules/*.md', '.none/rules/*.md'], ['/p'], '/home', diagnostics);
    expect(found.map((c) => c.path)).toEqual([]);
    expect(fs.calls.filter((call) => call.op === 'readdir')).toEqual([]);
    expect(diagnostics).toEqual([]);
  });
});
