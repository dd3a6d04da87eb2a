import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { loadCodeConfig } from '../src/fs/load-code-config.js';
import { spawnBin } from './helpers/cli.js';
import { tempTree } from './helpers/disk.js';

// Configs written in code, loaded without cosmiconfig (src/fs/load-code-config.ts).
describe('loadCodeConfig', () => {
  test('an ES module, a CommonJS module, and an edit seen by the next load', async () => {
    const root = tempTree({
      'a.mjs': 'export default { contextPaths: ["A.md"] };',
      'b.cjs': 'module.exports = { contextPaths: ["B.md"] };',
    });
    expect(await loadCodeConfig(path.join(root, 'a.mjs'))).toEqual({ contextPaths: ['A.md'] });
    expect(await loadCodeConfig(path.join(root, 'b.cjs'))).toEqual({ contextPaths: ['B.md'] });
    fs.writeFileSync(path.join(root, 'a.mjs'), 'export default { contextPaths: ["C.md"] };');
    expect(await loadCodeConfig(path.join(root, 'a.mjs'))).toEqual({ contextPaths: ['C.md'] });
  });

  test('a .ts config: compiled with the project typescript where Node cannot load it, and removed after', async () => {
    const root = tempTree({
      'ctxfiles.config.ts':
        'import { paths } from "./paths.mjs";\nconst c: { contextPaths: string[] } = { contextPaths: paths };\nexport default c;\n',
      'paths.mjs': 'export const paths = ["T.md"];',
    });
    fs.mkdirSync(path.join(root, 'node_modules'));
    fs.symlinkSync(
      path.resolve('node_modules/typescript'),
      path.join(root, 'node_modules/typescript'),
      'dir',
    );
    expect(await loadCodeConfig(path.join(root, 'ctxfiles.config.ts'))).toEqual({ contextPaths: ['T.md'] });
    expect(fs.readdirSync(root).sort()).toEqual(['ctxfiles.config.ts', 'node_modules', 'paths.mjs']);
  });

  test('a .ts config without typescript on a Node that cannot strip types says what is needed', async () => {
    // Through the built bin: vitest itself would compile the TypeScript.
    const root = tempTree({
      'ctxfiles.config.ts': 'const c: object = {};\nexport default c;\n',
      'A.md': 'a',
    });
    const result = spawnBin(['resolve', '--config', 'ctxfiles.config.ts'], { cwd: root });
    const [major, minor] = process.versions.node.split('.').map(Number) as [number, number];
    if (major > 22 || (major === 22 && minor >= 18)) expect(result.code).toBe(0);
    else
      expect([result.code, result.stderr]).toEqual([
        1,
        'ctxfiles: error: ctxfiles.config.ts: cannot load the config: a .ts config needs Node 22.18 or later (which loads TypeScript itself), or the typescript package installed in the project\n',
      ]);
  });
});
