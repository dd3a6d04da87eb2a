import fs from 'node:fs';
import { expect, test } from 'vitest';
import { createNodeFileSystem } from '../src/fs/node-file-system.js';
import { expandImports, type SymlinkPolicy } from '../src/imports/expand-imports.js';
import { tempTree } from './helpers/disk.js';

/** Real symlinks: the in-memory filesystem models them, the disk is the reference. */
test.each([
  // symlink policy, imported paths (relative to the project), diagnostic codes
  ['inside', ['AGENTS.md', 'docs/linked.md'], ['import-symlink', 'import-symlink']],
  ['reject', [], ['import-symlink', 'import-symlink', 'import-symlink', 'import-symlink']],
  ['follow', ['AGENTS.md', 'docs/linked.md', 'out.md', 'dir/x.md'], []],
] as const)('symlinks: %s', (symlinks, imported, codes) => {
  const base = tempTree({
    'outside/secret.md': 'SECRET',
    'outside/dir/x.md': 'X',
    'project/.ai/rules/general.md': 'General rules.',
    'project/AGENTS.md': { symlink: '.ai/rules/general.md' },
    'project/docs/real.md': 'Docs.',
    'project/docs/linked.md': { symlink: 'real.md' },
    'project/out.md': { symlink: '../outside/secret.md' },
    'project/dir': { symlink: '../outside/dir' },
    'project/CLAUDE.md': '@AGENTS.md\n@docs/linked.md\n@out.md\n@dir/x.md\n',
  });
  const root = `${base}/project`;
  const port = createNodeFileSystem();
  const file = `${root}/CLAUDE.md`;
  const result = expandImports(
    port,
    { path: file, realPath: file, info: port.stat(file), text: fs.readFileSync(file, 'utf8'), root },
    { maxBytes: 4096, symlinks: symlinks as SymlinkPolicy },
  );
  expect(result.files.map((imported) => imported.path.slice(root.length + 1))).toEqual(imported);
  expect(result.diagnostics.map((diagnostic) => diagnostic.code)).toEqual(codes);
  if (symlinks === 'inside') {
    expect(result.files.map((imported) => imported.text)).toEqual(['General rules.', 'Docs.']);
    expect(result.files[0]?.realPath).toBe(`${root}/.ai/rules/general.md`);
  }
});
