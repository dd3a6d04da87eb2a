import { spawnSync } from 'node:child_process';
import { describe, expect, test } from 'vitest';
import { createGitignore } from '../src/discover/gitignore.js';
import { walkNested } from '../src/discover/nested-walk.js';
import { createMemoryFileSystem, type MemoryTree } from '../src/fs/memory-file-system.js';
import { createNodeFileSystem } from '../src/fs/node-file-system.js';
import { tempTree } from './helpers/disk.js';

function setup(tree: MemoryTree) {
  const fs = createMemoryFileSystem({}, { root: '/w' });
  fs.set('/w', { dir: true });
  for (const [file, spec] of Object.entries(tree)) fs.set(file, spec);
  return fs;
}

const tree: MemoryTree = {
  '.gitignore': [
    '# a comment line',
    '*.log',
    '!keep.log',
    'build/',
    '/top-only.md',
    'secret',
    '\\#hash.md',
    '!x.local',
    'vendor/',
    'a/',
    '!a/b.md',
    '',
  ].join('\n'),
  '.git/info/exclude': 'local.md\n*.local\n',
  'pkg/.gitignore': '!debug.log\ngenerated/\n*.tmp\n',
  'pkg/sub/.gitignore': '!*.tmp\r\n',
  'vendor/.gitignore': '!keep.md\n',
};

// path, is a directory, ignored
const cases: readonly (readonly [string, boolean, boolean])[] = [
  ['x.log', false, true],
  ['keep.log', false, false], // a negation re-includes
  ['pkg/other.log', false, true], // a pattern without a slash matches at every level
  ['pkg/debug.log', false, false], // a deeper .gitignore's negation wins
  ['build', true, true],
  ['build', false, false], // `build/` matches directories only
  ['build/x.md', false, true], // inside an ignored directory
  ['pkg/build', true, true],
  ['pkg/build/deep/x.md', false, true],
  ['top-only.md', false, true],
  ['pkg/top-only.md', false, false], // a leading slash anchors to the file's directory
  ['secret', false, true],
  ['secret', true, true],
  ['pkg/secret', true, true],
  ['#hash.md', false, true], // an escaped `#` is a pattern, not a comment
  ['# a comment line', false, false],
  ['pkg/generated', true, true], // nested rules apply to their subtree only
  ['generated', true, false],
  ['pkg/a.tmp', false, true],
  ['pkg/sub/a.tmp', false, false], // the deepest file wins
  ['local.md', false, true], // .git/info/exclude
  ['pkg/local.md', false, true],
  ['x.local', false, false], // .gitignore outranks .git/info/exclude
  ['y.local', false, true],
  ['vendor/keep.md', false, true], // no negation reaches inside an ignored directory
  ['a/b.md', false, true],
  ['AGENTS.md', false, false],
  ['pkg/AGENTS.md', false, false],
  ['X.LOG', false, false], // case-sensitive by default, like git on Linux
  // spellings the walk might pass
  ['./x.log', false, true],
  ['build/', true, true],
  ['', true, false],
  ['../x.log', false, false],
  ['/x.log', false, false],
];

describe('gitignore rules', () => {
  test.each(cases)('%j (directory: %s) → %s', (relativePath, isDirectory, ignored) => {
    const matcher = createGitignore(setup(tree), '/w');
    expect(matcher.ignores(relativePath, isDirectory)).toBe(ignored);
    expect(matcher.diagnostics).toEqual([]);
  });

  test('ignoreCase matches names case-insensitively', () => {
    expect(createGitignore(setup(tree), '/w', { ignoreCase: true }).ignores('X.LOG', false)).toBe(true);
  });
});

describe('loading', () => {
  test('each .gitignore is read once, when a path below its directory is first matched', () => {
    const fs = setup(tree);
    const matcher = createGitignore(fs, '/w');
    fs.calls.length = 0;
    matcher.ignores('AGENTS.md', false);
    expect(fs.calls.map((call) => call.path)).toEqual(['/w/.gitignore', '/w/.git/info/exclude']);
    fs.calls.length = 0;
    matcher.ignores('pkg/sub/x.md', false);
    matcher.ignores('pkg/sub/y.md', false);
    matcher.ignores('pkg/sub', true);
    expect(fs.calls.map((call) => call.path)).toEqual(['/w/pkg/.gitignore', '/w/pkg/sub/.gitignore']);
  });

  test('an ignored directory’s own .gitignore is never read', () => {
    const fs = setup(tree);
    const matcher = createGitignore(fs, '/w');
    matcher.ignores('vendor/keep.md', false);
    expect(fs.calls.map((call) => call.path)).not.toContain('/w/vendor/.gitignore');
  });

  test('a .gitignore that is a symlink is not followed', () => {
    const fs = setup({ 'rules.txt': '*.md\n', '.gitignore': { symlink: 'rules.txt' } });
    expect(createGitignore(fs, '/w').ignores('a.md', false)).toBe(false);
  });

  test('without any .gitignore nothing is ignored', () => {
    expect(createGitignore(setup({ 'a.md': '' }), '/w').ignores('a.md', false)).toBe(false);
  });

  test('an unreadable or oversized .gitignore is a warn, never an exception', () => {
    const fs = setup({ '.gitignore': '*.log\n', 'pkg/.gitignore': 'x'.repeat(100) });
    fs.fail('/w/.gitignore', 'readFile', 'EACCES');
    const matcher = createGitignore(fs, '/w', { maxBytes: 50 });
    expect(matcher.ignores('pkg/a.log', false)).toBe(false);
    expect(matcher.diagnostics).toEqual([
      {
        level: 'warn',
        code: 'gitignore-unreadable',
        message: '/w/.gitignore cannot be read (EACCES)',
        path: '/w/.gitignore',
      },
      {
        level: 'warn',
        code: 'gitignore-unreadable',
        message: '/w/pkg/.gitignore is larger than 50 bytes and is not used',
        path: '/w/pkg/.gitignore',
      },
    ]);
  });
});

const hasGit = spawnSync('git', ['--version']).status === 0;

test.skipIf(!hasGit)('git check-ignore agrees on every plain path of the table (real disk)', () => {
  const root = tempTree(
    Object.fromEntries(
      Object.entries(tree).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
    ),
  );
  expect(spawnSync('git', ['init', '-q'], { cwd: root }).status).toBe(0);
  const matcher = createGitignore(createNodeFileSystem(), root);
  const plain = cases.filter(
    ([file]) => /^[\w#][\w#./ -]*[^/]$/.test(file) && !file.includes('..') && file !== 'X.LOG',
  );
  expect(plain.length).toBeGreaterThan(25);
  for (const [file, isDirectory] of plain) {
    const git = spawnSync('git', ['check-ignore', '-q', '--no-index', isDirectory ? `${file}/` : file], {
      cwd: root,
    });
    expect([file, matcher.ignores(file, isDirectory)]).toEqual([file, git.status === 0]);
  }
});

describe('the nested walk with a gitignore matcher', () => {
  const walkTree: MemoryTree = {
    '.gitignore': 'gen/\nlocal/AGENTS.md\nlinks/\n',
    'gen/AGENTS.md': '',
    'local/AGENTS.md': '',
    'links/AGENTS.md': { symlink: '../pkg/AGENTS.md' },
    'pkg/.gitignore': 'sub/\n',
    'pkg/AGENTS.md': '',
    'pkg/sub/AGENTS.md': '',
    'pkg/other/AGENTS.md': '',
  };
  const limits = { maxDepth: 8, maxFiles: 100 };

  test('ignored directories are not entered and ignored files are not found', () => {
    const fs = setup(walkTree);
    const matcher = createGitignore(fs, '/w');
    fs.calls.length = 0;
    const result = walkNested(fs, '/w', new Set(['AGENTS.md']), limits, {
      ignores: (relativePath, isDirectory) => matcher.ignores(relativePath, isDirectory),
    });
    expect(result.files.map((file) => file.relativePath)).toEqual(['pkg/AGENTS.md', 'pkg/other/AGENTS.md']);
    expect(result.diagnostics).toEqual([]);
    const listed = fs.calls.filter((call) => call.op === 'readdir').map((call) => call.path);
    expect(listed).toEqual(['/w', '/w/local', '/w/pkg', '/w/pkg/other']);
  });

  test('without the option the walk finds everything, as before', () => {
    const result = walkNested(setup(walkTree), '/w', new Set(['AGENTS.md']), limits);
    expect(result.files.map((file) => file.relativePath)).toEqual([
      'gen/AGENTS.md',
      'local/AGENTS.md',
      'pkg/AGENTS.md',
      'pkg/other/AGENTS.md',
      'pkg/sub/AGENTS.md',
    ]);
    expect(result.diagnostics.map((diagnostic) => diagnostic.code)).toEqual(['symlink-rejected']);
  });
});
