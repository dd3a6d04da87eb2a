import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { createResolver } from '../src/index.js';
import { parseConfig } from '../src/index.js';
import type { FileSystem } from '../src/fs/file-system.js';
import { createNodeFileSystem } from '../src/fs/node-file-system.js';
import { cli } from './helpers/cli.js';
import { tempTree } from './helpers/disk.js';
import { memoryResolver } from './helpers/memory.js';

// The sources of the block beyond the chain, on real disk: imports, `instructions.symlinks` on every
// source, inline discovery with gitignore, and the same files in sessions and the CLI's JSON.

/** A resolver over a real directory with a config object (trusted unless `untrusted`). */
async function diskResolver(
  workDir: string,
  input: unknown,
  options: { untrusted?: boolean; fs?: FileSystem } = {},
) {
  const { config } = await parseConfig(input);
  const loaded = options.untrusted
    ? { filepath: path.join(workDir, '.opencode.json'), config, flows: new Map(), diagnostics: [] }
    : config;
  return createResolver({
    workDir,
    config: loaded,
    env: {},
    homeDir: '/nonexistent-home',
    ...(options.fs ? { fs: options.fs } : {}),
  });
}

const read = (file: string) => ({ tool: 'read', input: { file_path: file }, ok: true });

describe('imports in the block', () => {
  const tree = {
    '/w/.git/HEAD': 'x',
    '/w/CLAUDE.md': '@AGENTS.md\n',
    '/w/AGENTS.md': 'Root rules. See @docs/style.md.',
    '/w/docs/style.md': 'Style.',
    '/w/pkg/CLAUDE.md': '@../AGENTS.md and @notes.md',
    '/w/pkg/notes.md': 'Notes.',
  };

  test('entries: each import follows its importer, in the importer layer, with importedBy', async () => {
    const { resolver } = await memoryResolver(tree, {
      contextPaths: ['CLAUDE.md'],
      imports: { enabled: true },
    });
    const result = await resolver.resolve();
    expect(result.files.map((file) => [file.path, file.layer, file.importedBy ?? null])).toEqual([
      ['/w/CLAUDE.md', 'global', null],
      ['/w/AGENTS.md', 'global', '/w/CLAUDE.md'],
      ['/w/docs/style.md', 'global', '/w/AGENTS.md'],
    ]);
    expect(result.text).toBe(
      '# Project-Specific Context\n Make sure to follow the instructions in the context below\n' +
        '# From:/w/CLAUDE.md\n@AGENTS.md\n\n# From:/w/AGENTS.md\nRoot rules. See @docs/style.md.\n# From:/w/docs/style.md\nStyle.',
    );
  });

  test('inline: the reference is replaced by the file between markers', async () => {
    const { resolver } = await memoryResolver(tree, {
      contextPaths: ['CLAUDE.md'],
      imports: { enabled: true, mode: 'inline' },
    });
    const result = await resolver.resolve();
    expect(result.files.map((file) => file.path)).toEqual(['/w/CLAUDE.md']);
    expect(result.files[0]?.text).toBe(
      '<!-- Imported from: AGENTS.md -->\nRoot rules. See <!-- Imported from: docs/style.md -->\nStyle.\n<!-- End of import from: docs/style.md -->.\n<!-- End of import from: AGENTS.md -->\n',
    );
  });

  test('chain files import within the chain root; an import already placed is not repeated', async () => {
    const { resolver } = await memoryResolver(
      tree,
      {
        contextPaths: [],
        instructions: { walk: 'project', candidates: ['CLAUDE.md'] },
        imports: { enabled: true },
      },
      { workDir: '/w/pkg' },
    );
    const result = await resolver.resolve();
    expect(result.files.map((file) => file.path)).toEqual([
      '/w/CLAUDE.md',
      '/w/AGENTS.md',
      '/w/docs/style.md',
      '/w/pkg/CLAUDE.md',
      '/w/pkg/notes.md',
    ]);
    expect(result.diagnostics.map((d) => d.code)).toContain('import-duplicate');
  });

  test('off by default: the text keeps the reference and nothing else is read', async () => {
    const { resolver } = await memoryResolver(tree, { contextPaths: ['CLAUDE.md'] });
    const result = await resolver.resolve();
    expect(result.files.map((file) => file.path)).toEqual(['/w/CLAUDE.md']);
  });

  test('layers import within the work dir: @../ from the work dir is refused before any access', async () => {
    const { fs: memory } = await memoryResolver(tree, {}, { workDir: '/w/pkg' });
    const { config } = await parseConfig({ contextPaths: ['CLAUDE.md'], imports: { enabled: true } });
    const loaded = { filepath: '/w/pkg/.opencode.json', config, flows: new Map(), diagnostics: [] };
    const resolver = await createResolver({ workDir: '/w/pkg', config: loaded, fs: memory, env: {} });
    memory.calls.length = 0;
    const result = await resolver.resolve();
    expect(result.files.map((file) => file.path)).toEqual(['/w/pkg/CLAUDE.md', '/w/pkg/notes.md']);
    expect(result.diagnostics.map((d) => d.code)).toContain('import-outside');
    expect(memory.calls.some((call) => JSON.stringify(call).includes('/w/AGENTS.md'))).toBe(false);
  });

  test('@~/ is followed only when the config is trusted', async () => {
    const root = tempTree({ 'w/CLAUDE.md': '@~/home.md', 'home/home.md': 'Home.' });
    const make = async (untrusted: boolean) => {
      const { config } = await parseConfig({ contextPaths: ['CLAUDE.md'], imports: { enabled: true } });
      const loaded = untrusted
        ? { filepath: `${root}/w/.opencode.json`, config, flows: new Map(), diagnostics: [] }
        : config;
      return createResolver({ workDir: `${root}/w`, config: loaded, env: {}, homeDir: `${root}/home` });
    };
    const trusted = await (await make(false)).resolve();
    expect(trusted.files.map((file) => path.basename(file.path))).toEqual(['CLAUDE.md', 'home.md']);
    const untrusted = await (await make(true)).resolve();
    expect(untrusted.files.map((file) => path.basename(file.path))).toEqual(['CLAUDE.md']);
    expect(untrusted.diagnostics.map((d) => d.code)).toContain('import-outside');
  });

  test('property: an untrusted config never reads outside the containment root, whatever the spelling', async () => {
    const root = tempTree({
      'secret.md': 'SECRET',
      'w/inside.md': 'in',
      'w/link.md': { symlink: '../secret.md' },
    });
    const port = createNodeFileSystem();
    const touched: string[] = [];
    const spy: FileSystem = new Proxy(port, {
      get(target, key: keyof FileSystem) {
        const value = target[key];
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) => {
          if (typeof args[0] === 'string') touched.push(args[0]);
          return (value as (...inner: unknown[]) => unknown).apply(target, args);
        };
      },
    });
    const spellings = fc.constantFrom(
      '../secret.md',
      './../secret.md',
      'sub/../../secret.md',
      `${root}/secret.md`,
      '~/secret.md',
      'link.md',
      '..\\secret.md',
      '../w/../secret.md',
      '/etc/passwd',
    );
    await fc.assert(
      fc.asyncProperty(fc.array(spellings, { minLength: 1, maxLength: 4 }), async (refs) => {
        fs.writeFileSync(`${root}/w/AGENTS.md`, refs.map((ref) => `@${ref}`).join('\n'));
        touched.length = 0;
        const resolver = await diskResolver(
          `${root}/w`,
          { contextPaths: ['AGENTS.md'], imports: { enabled: true } },
          { untrusted: true, fs: spy },
        );
        const result = await resolver.resolve();
        expect(result.text).not.toContain('SECRET');
        const readOutside = touched.filter(
          (file) =>
            !file.startsWith(`${root}/w/`) && file !== `${root}/w` && !file.endsWith('.opencode.json'),
        );
        // The link is resolved (realpath of the spelled path inside) but its target is never read.
        expect(readOutside.filter((file) => file.endsWith('secret.md') || file === '/etc/passwd')).toEqual(
          [],
        );
      }),
      { numRuns: 30 },
    );
  });
});

describe('instructions.symlinks on every source (real disk)', () => {
  const layout = {
    '.git/HEAD': 'x',
    '.ai/rules/general.md': 'General.',
    'AGENTS.md': { symlink: '.ai/rules/general.md' },
    'CLAUDE.md': { symlink: '../outside.md' },
    '.ai/rules/pkg.md': 'Package.',
    'pkg/AGENTS.md': { symlink: '../.ai/rules/pkg.md' },
    'pkg/CLAUDE.md': { symlink: '../../outside.md' },
    'docs/': '',
  } as const;

  function makeTree() {
    const base = tempTree({ 'outside.md': 'Outside.' });
    const root = `${base}/repo`;
    for (const [file, spec] of Object.entries(layout)) {
      if (file.endsWith('/')) continue;
      const target = path.join(root, file);
      fs.mkdirSync(path.dirname(target), { recursive: true });
      if (typeof spec === 'string') fs.writeFileSync(target, spec);
      else fs.symlinkSync(spec.symlink, target);
    }
    return root;
  }

  test.each([
    // policy, chain files, contextPaths files, nested files
    ['inside', ['AGENTS.md'], ['AGENTS.md'], ['pkg/AGENTS.md']],
    ['reject', [], [], []],
    // pkg/CLAUDE.md leads to the same file as CLAUDE.md, already inlined: not listed again.
    ['follow', ['AGENTS.md', 'CLAUDE.md'], ['AGENTS.md', 'CLAUDE.md'], ['pkg/AGENTS.md']],
  ] as const)('%s', async (symlinks, chain, layers, nested) => {
    const root = makeTree();
    const show = (files: readonly { path: string }[]) => files.map((file) => path.relative(root, file.path));
    const chainResult = await (
      await diskResolver(root, {
        contextPaths: [],
        instructions: { walk: 'project', candidates: ['AGENTS.md', 'CLAUDE.md'], select: 'all', symlinks },
      })
    ).resolve();
    expect(show(chainResult.files)).toEqual(chain);
    const layerResult = await (
      await diskResolver(root, { contextPaths: ['AGENTS.md', 'CLAUDE.md'], instructions: { symlinks } })
    ).resolve();
    expect(show(layerResult.files)).toEqual(layers);
    expect(show(layerResult.nested)).toEqual(nested);
    const refusals = [...chainResult.diagnostics, ...layerResult.diagnostics].filter(
      (d) => d.level === 'warn' && d.code.startsWith('symlink'),
    );
    // Both resolvers walk the nested files too: chain 1 + nested 1 + layer 1 + nested 1 with `inside`.
    const expectedRefusals = { inside: 4, reject: 8, follow: 0 }[symlinks];
    expect(refusals).toHaveLength(expectedRefusals);
    for (const refusal of refusals) expect(refusal.message).toMatch(/(AGENTS|CLAUDE)\.md/);
    // Each refusal names the link's target.
    for (const refusal of refusals) expect(refusal.message).toMatch(/outside\.md|general\.md|pkg\.md/);
    if (nested.length > 0) {
      const session = await (
        await diskResolver(root, { contextPaths: ['AGENTS.md'], instructions: { symlinks } })
      ).openSession();
      expect(await session.afterTool(read('pkg/x.ts'))).toContain('Package.');
    }
  });
});

describe('contextDiscovery.mode and respectGitignore', () => {
  const tree = {
    '/w/AGENTS.md': 'root',
    '/w/b/AGENTS.md': 'b',
    '/w/a/AGENTS.md': 'a',
    '/w/a/z/AGENTS.md': 'az',
    '/w/a/z/deep/AGENTS.md': 'deep',
    '/w/ignored/AGENTS.md': 'ignored',
    '/w/.gitignore': 'ignored/\n',
  };

  test('inline renders nested files in the block, sorted by path, within maxDepth', async () => {
    const { resolver } = await memoryResolver(tree, {
      contextPaths: ['AGENTS.md'],
      contextDiscovery: { mode: 'inline', maxDepth: 2 },
    });
    const result = await resolver.resolve();
    expect(result.files.map((file) => [file.path, file.layer])).toEqual([
      ['/w/AGENTS.md', 'global'],
      ['/w/a/AGENTS.md', 'nested'],
      ['/w/a/z/AGENTS.md', 'nested'],
      ['/w/b/AGENTS.md', 'nested'],
      ['/w/ignored/AGENTS.md', 'nested'],
    ]);
    expect(result.manifest).toBe('');
    const session = await resolver.openSession();
    expect(await session.afterTool(read('a/z/x.ts'))).toBe('');
  });

  test('inline takes the shallow files first when maxFiles cuts (breadth first)', async () => {
    const { resolver } = await memoryResolver(tree, {
      contextPaths: ['AGENTS.md'],
      contextDiscovery: { mode: 'inline', maxFiles: 2 },
    });
    const result = await resolver.resolve();
    expect(result.files.map((file) => file.path)).toEqual([
      '/w/AGENTS.md',
      '/w/a/AGENTS.md',
      '/w/b/AGENTS.md',
    ]);
    expect(result.diagnostics.filter((d) => d.code === 'walk-truncated')).toEqual([
      {
        level: 'warn',
        code: 'walk-truncated',
        message:
          'inline discovery stopped at 2 nested files (contextDiscovery.maxFiles); more may exist and are not in the block',
      },
    ]);
  });

  test('inline reports the walk cap once, rules on or off', async () => {
    for (const rules of [undefined, { sources: ['cursor'] }]) {
      const { resolver } = await memoryResolver(tree, {
        contextPaths: ['AGENTS.md'],
        contextDiscovery: { mode: 'inline', maxFiles: 2 },
        ...(rules === undefined ? {} : { rules }),
      });
      const result = await resolver.resolve();
      expect(result.diagnostics.filter((d) => d.code === 'walk-truncated')).toHaveLength(1);
    }
  });

  test.each(['manifest', 'inline'] as const)('respectGitignore in %s mode', async (mode) => {
    const on = await memoryResolver(tree, {
      contextPaths: ['AGENTS.md'],
      contextDiscovery: { mode, respectGitignore: true },
    });
    const off = await memoryResolver(tree, { contextPaths: ['AGENTS.md'], contextDiscovery: { mode } });
    const listed = async (made: typeof on) => {
      const result = await made.resolver.resolve();
      return mode === 'inline'
        ? result.files.map((file) => file.path)
        : result.nested.map((file) => file.path);
    };
    expect(await listed(on)).not.toContain('/w/ignored/AGENTS.md');
    expect(await listed(off)).toContain('/w/ignored/AGENTS.md');
  });

  test('gitignore negation and nested .gitignore files', async () => {
    const { resolver } = await memoryResolver(
      {
        '/w/.gitignore': 'gen/*\n!gen/keep/\n',
        '/w/gen/drop/AGENTS.md': 'drop',
        '/w/gen/keep/AGENTS.md': 'keep',
        '/w/lib/.gitignore': 'private/\n',
        '/w/lib/private/AGENTS.md': 'private',
        '/w/lib/AGENTS.md': 'lib',
      },
      { contextPaths: ['AGENTS.md'], contextDiscovery: { respectGitignore: true } },
    );
    const result = await resolver.resolve();
    expect(result.nested.map((file) => file.relativePath)).toEqual(['gen/keep/AGENTS.md', 'lib/AGENTS.md']);
  });

  test('off: no manifest and no injection', async () => {
    const { resolver } = await memoryResolver(tree, {
      contextPaths: ['AGENTS.md'],
      contextDiscovery: { mode: 'off' },
    });
    expect((await resolver.resolve()).manifest).toBe('');
    const session = await resolver.openSession();
    expect(await session.afterTool(read('a/x.ts'))).toBe('');
  });
});

describe('sessions', () => {
  const tree = {
    '/w/AGENTS.md': 'root',
    '/w/svc/AGENTS.md': 'Service. @guide.md',
    '/w/svc/guide.md': 'Guide.',
  };

  test.each([
    ['entries', ['# From:/w/svc/AGENTS.md\nService. @guide.md', '# From:/w/svc/guide.md\nGuide.']],
    ['inline', ['Service. <!-- Imported from: guide.md -->\nGuide.\n<!-- End of import from: guide.md -->']],
  ] as const)('an injected nested file brings its imports (%s)', async (mode, parts) => {
    const { resolver } = await memoryResolver(tree, {
      contextPaths: ['AGENTS.md'],
      imports: { enabled: true, mode },
    });
    const session = await resolver.openSession();
    const text = await session.afterTool(read('svc/x.ts'));
    for (const part of parts) expect(text).toContain(part);
    expect(await session.afterTool(read('svc/y.ts'))).toBe('');
  });

  test.each(['entries', 'inline'] as const)('change tracking covers imported files (%s)', async (mode) => {
    const { resolver, fs: memory } = await memoryResolver(
      { '/w/AGENTS.md': '@docs/rules.md', '/w/docs/rules.md': 'Old rules.', '/w/src/x.ts': '' },
      { contextPaths: ['AGENTS.md'], imports: { enabled: true, mode }, instructions: { trackChanges: true } },
    );
    const session = await resolver.openSession();
    memory.set('/w/docs/rules.md', 'New rules, longer.');
    const text = await session.afterTool(read('src/x.ts'));
    expect(text).toContain('docs/rules.md');
    expect(text).toContain('New rules, longer.');
  });

  test('reading a nested instruction file does not inject that same file', async () => {
    const { resolver } = await memoryResolver(tree, { contextPaths: ['AGENTS.md'] });
    const session = await resolver.openSession();
    expect(await session.afterTool(read('svc/AGENTS.md'))).toBe('');
    expect(await session.afterTool(read('svc/x.ts'))).toBe('');
    const other = await resolver.openSession();
    expect(await other.afterTool(read('svc/x.ts'))).toContain('Service.');
  });

  test('a symlinked cwd: paths are shown as spelled and absolute tool paths under it disclose', async () => {
    const base = tempTree({ 'real/AGENTS.md': 'root', 'real/svc/AGENTS.md': 'Service.' });
    fs.symlinkSync(`${base}/real`, `${base}/link`);
    const { config } = await parseConfig({ contextPaths: ['AGENTS.md'] });
    const resolver = await createResolver({ workDir: `${base}/link`, config, env: {} });
    const result = await resolver.resolve();
    expect(result.text).toContain(`# From:${base}/link/AGENTS.md\n`);
    expect(result.files[0]?.realPath).toBe(`${base}/real/AGENTS.md`);
    const session = await resolver.openSession();
    expect(await session.afterTool(read(`${base}/link/svc/x.ts`))).toContain(
      `# From:${base}/link/svc/AGENTS.md`,
    );
  });

  test('a symlinked cwd: rule paths map to the canonical work dir and are shown as spelled', async () => {
    const base = tempTree({
      'real/.cursor/rules/ts.mdc': '---\nglobs: "*.ts"\n---\nts rule',
      'real/src/a.ts': 'code',
    });
    fs.symlinkSync(`${base}/real`, `${base}/link`);
    const { config } = await parseConfig({ contextPaths: [], rules: { sources: ['cursor'] } });
    const resolver = await createResolver({ workDir: `${base}/link`, config, env: {} });
    for (const paths of [[`${base}/link/src/a.ts`], ['src/a.ts'], [`${base}/real/src/a.ts`]]) {
      const result = await resolver.resolve({ paths });
      expect(result.files.map((file) => [file.layer, file.path])).toEqual([
        ['rules', `${base}/link/.cursor/rules/ts.mdc`],
      ]);
      expect(result.rules?.map((rule) => rule.reason)).toEqual(['matched *.ts by src/a.ts']);
    }
    const session = await resolver.openSession();
    expect(await session.afterTool(read(`${base}/link/src/a.ts`))).toBe(
      `<system-reminder>\n# From:${base}/link/.cursor/rules/ts.mdc\nRule "ts" (cursor) applies: src/a.ts matches its glob *.ts.\n\nts rule\n</system-reminder>`,
    );
  });
});

describe('importedBy in the CLI', () => {
  test('resolve --json and explain name the importer of an imported file', async () => {
    const root = tempTree({
      'AGENTS.md': 'See @docs/guide.md',
      'docs/guide.md': 'Guide.',
      'ctxfiles.config.json': JSON.stringify({ contextPaths: ['AGENTS.md'], imports: { enabled: true } }),
    });
    const json = JSON.parse((await cli(['resolve', '--json'], { cwd: root })).stdout) as {
      files: Array<{ path: string; entry: string; importedBy?: string }>;
    };
    expect(json.files.map(({ path: file, entry, importedBy }) => [file, entry, importedBy])).toEqual([
      [`${root}/AGENTS.md`, 'AGENTS.md', undefined],
      [`${root}/docs/guide.md`, '@docs/guide.md', `${root}/AGENTS.md`],
    ]);
    const text = (await cli(['explain'], { cwd: root })).stdout;
    expect(text).toContain(
      '  included          global  docs/guide.md (entry "@docs/guide.md") imported by AGENTS.md\n',
    );
    const report = JSON.parse((await cli(['explain', '--json'], { cwd: root })).stdout) as {
      files: Array<{ path: string; importedBy?: string }>;
    };
    expect(report.files.find((file) => file.path === `${root}/docs/guide.md`)?.importedBy).toBe(
      `${root}/AGENTS.md`,
    );
  });
});
