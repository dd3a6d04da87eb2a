import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';

// What a person who installs the package gets: the published file list, the metadata, and how
// the entry points behave for `import` and `require`. `npm test` builds before vitest runs.
const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const manifest = JSON.parse(fs.readFileSync(path.join(repo, 'package.json'), 'utf8')) as Record<
  string,
  unknown
> & {
  dependencies: Record<string, string>;
  exports: Record<string, unknown>;
};

function packedFiles(): string[] {
  const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
    cwd: repo,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const [pack] = JSON.parse(out) as [{ files: { path: string }[] }];
  return pack.files.map((file) => file.path).sort();
}

describe('the published package', () => {
  const files = packedFiles();

  test('ships the bundled CLI, the library, the schema and the license', () => {
    for (const file of [
      'LICENSE',
      'README.md',
      'package.json',
      'dist/bin/ctxfiles.cjs',
      'dist/bin/cli.cjs',
      'dist/bin/hook.cjs',
      'dist/bin/hook-run.cjs',
      'dist/bin/resolve.cjs',
      'dist/index.js',
      'dist/index.d.ts',
      'schema/config.schema.json',
    ]) {
      expect(files).toContain(file);
    }
  });

  test('ships no source maps and no unbundled CLI next to the bundled one', () => {
    expect(files.filter((file) => file.endsWith('.map'))).toEqual([]);
    expect(files.filter((file) => file.startsWith('dist/cli/'))).toEqual([]);
    const js = files
      .filter((file) => file.endsWith('.js'))
      .map((file) => fs.readFileSync(path.join(repo, file), 'utf8'));
    expect(js.filter((text) => text.includes('sourceMappingURL'))).toEqual([]);
  });

  test('every relative import of a packed module or declaration names a packed file', () => {
    const packed = new Set(files);
    const specifier = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|\brequire\(\s*)['"](\.{1,2}\/[^'"]+)['"]/g;
    const missing: string[] = [];
    let imports = 0;
    for (const file of files.filter((name) => /\.(?:js|cjs|d\.ts)$/.test(name))) {
      for (const [, target] of fs.readFileSync(path.join(repo, file), 'utf8').matchAll(specifier)) {
        imports += 1;
        const resolved = path.posix.join(path.posix.dirname(file), target as string);
        const candidates = file.endsWith('.d.ts') ? [resolved.replace(/\.js$/, '.d.ts')] : [resolved];
        if (!candidates.some((candidate) => packed.has(candidate))) missing.push(`${file} → ${target}`);
      }
    }
    expect(missing).toEqual([]);
    expect(imports).toBeGreaterThan(200);
    // The CLI's commands are in the bundles only (scripts/bundle-library.mjs).
    expect(files.filter((file) => /^dist\/(?:hooks|mcp|doctor)\//.test(file))).toEqual([]);
    expect(files).not.toContain('dist/.npmignore');
  });

  test('the compiled library keeps no comments, its declarations do', () => {
    const index = fs.readFileSync(path.join(repo, 'dist/index.js'), 'utf8');
    expect(index).toContain('createResolver');
    expect(index).not.toMatch(/\/\*\*|^\s*\/\//m);
    expect(fs.readFileSync(path.join(repo, 'dist/index.d.ts'), 'utf8')).toContain('/**');
  });

  test('commander is bundled into the CLI, not also a runtime dependency', () => {
    expect(Object.keys(manifest.dependencies)).not.toContain('commander');
    const bin = fs
      .readdirSync(path.join(repo, 'dist/bin'))
      .map((name) => fs.readFileSync(path.join(repo, 'dist/bin', name), 'utf8'));
    expect(bin.some((text) => /from ['"]commander['"]/.test(text))).toBe(false);
  });

  test('has the metadata a registry page shows', () => {
    expect(manifest).toMatchObject({ license: 'MIT', sideEffects: false, type: 'module' });
    for (const key of ['repository', 'homepage', 'bugs', 'keywords']) expect(manifest[key]).toBeTruthy();
    expect(manifest.exports['./package.json']).toBe('./package.json');
    expect(manifest.exports['.']).toMatchObject({ import: './dist/index.js', default: './dist/index.js' });
  });

  test('the bin, the lock file and the demo script name the built bin', () => {
    const bin = (manifest['bin'] as Record<string, string>)['ctxfiles'] as string;
    expect(fs.statSync(path.join(repo, bin)).mode & 0o111).not.toBe(0);
    expect(fs.readFileSync(path.join(repo, bin), 'utf8').startsWith('#!/usr/bin/env node\n')).toBe(true);
    const lock = JSON.parse(fs.readFileSync(path.join(repo, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { bin?: Record<string, string> }>;
    };
    expect(lock.packages['']?.bin).toEqual({ ctxfiles: bin });
    expect((manifest['scripts'] as Record<string, string>)['demo']).toContain(`node ${bin} `);
  });

  test('each framework entry is exported, packed, and loads no framework at run time', () => {
    const entries = {
      'ai-sdk': ['contextPrompt', 'withContext'],
      'openai-agents': ['contextInstructions', 'contextPrompt', 'withContext'],
      langchain: ['contextPrompt', 'withContext'],
    };
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ctxfiles-entries-'));
    try {
      fs.mkdirSync(path.join(dir, 'node_modules'));
      fs.symlinkSync(repo, path.join(dir, 'node_modules', 'ctxfiles'), 'dir');
      for (const [entry, names] of Object.entries(entries)) {
        expect(manifest.exports[`./${entry}`]).toEqual({
          types: `./dist/adapters/${entry}.d.ts`,
          import: `./dist/adapters/${entry}.js`,
          default: `./dist/adapters/${entry}.js`,
        });
        expect(files).toContain(`dist/adapters/${entry}.js`);
        expect(files).toContain(`dist/adapters/${entry}.d.ts`);
        const script = `console.log(JSON.stringify(Object.keys(await import('ctxfiles/${entry}')).sort()))`;
        const result = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
          cwd: dir,
          encoding: 'utf8',
          timeout: 20_000,
        });
        expect(result.stderr).toBe('');
        expect(JSON.parse(result.stdout)).toEqual(names);
      }
      // What the entries import, and the one module of ctxfiles outside them they load: no framework.
      const js = [
        ...fs
          .readdirSync(path.join(repo, 'dist/adapters'))
          .filter((name) => name.endsWith('.js'))
          .map((name) => `dist/adapters/${name}`),
        'dist/prompt/context-prompt.js',
      ].map((file) => fs.readFileSync(path.join(repo, file), 'utf8'));
      expect(js.every((text) => !/from '\.\.\/(api|session)\//.test(text))).toBe(true);
      expect(
        js.filter(
          (text) =>
            /from ['"](ai|@openai\/|@langchain\/)/.test(text) ||
            /import\(['"](ai|@openai|@langchain)/.test(text),
        ),
      ).toEqual([]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test('require() gets a clear answer, never ERR_PACKAGE_PATH_NOT_EXPORTED', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ctxfiles-require-'));
    try {
      fs.mkdirSync(path.join(dir, 'node_modules'));
      fs.symlinkSync(repo, path.join(dir, 'node_modules', 'ctxfiles'), 'dir');
      const result = spawnSync(process.execPath, ['-e', "require('ctxfiles'); console.log('loaded')"], {
        cwd: dir,
        encoding: 'utf8',
      });
      // Node 20 refuses require() of an ES module with ERR_REQUIRE_ESM; newer versions load it.
      expect(result.stderr).not.toContain('ERR_PACKAGE_PATH_NOT_EXPORTED');
      if (result.status === 0) expect(result.stdout).toBe('loaded\n');
      else
        expect(result.stderr).toContain(
          'ctxfiles is an ES module only: use import { createResolver } from "ctxfiles"',
        );
      const version = spawnSync(process.execPath, ['-p', "require('ctxfiles/package.json').version"], {
        cwd: dir,
        encoding: 'utf8',
      });
      expect(version.stdout.trim()).toBe(manifest['version']);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
