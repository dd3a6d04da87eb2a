import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { createResolver } from '../src/index.js';
import { parseConfig } from '../src/index.js';
import { createMemoryFileSystem } from '../src/fs/memory-file-system.js';
import { RACY_MARGIN_MS } from '../src/discover/walk-index.js';
import { cli, spawnBin } from './helpers/cli.js';
import { tempTree, writeTree } from './helpers/disk.js';

/**
 * `contextDiscovery.cache` wired into the resolver (docs/disclosure.md, "The walk index"): the
 * nested walk and the rule-folder walk share one index per work dir, saved in the cache dir the
 * environment names; results are the same as without it. Every cache dir here is a temp dir.
 */

const TREE = {
  'AGENTS.md': '# root',
  'svc/AGENTS.md': '---\ndescription: service rules\n---\nbody',
  'svc/auth/CLAUDE.md': '# auth',
  'web/src/index.ts': 'x',
  'web/.cursor/rules/style.mdc': '---\nalwaysApply: true\n---\nstyle',
  'node_modules/dep/AGENTS.md': 'never',
};

afterEach(() => {
  vi.useRealTimers();
});

/**
 * Directories created a moment ago are never reused (the racy margin); the tests move the clock a
 * minute ahead, as if the tree had been made long before, so that the index records them.
 */
function settle(): void {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(Date.now() + 60_000);
}

async function resolveWith(workDir: string, cache: boolean, env: Record<string, string>, extra: object = {}) {
  const { config } = await parseConfig({
    contextPaths: ['AGENTS.md', 'CLAUDE.md'],
    contextDiscovery: { cache },
    ...extra,
  });
  const resolver = await createResolver({ workDir, config, env, homeDir: '/nonexistent-home' });
  return { resolver, result: await resolver.resolve() };
}

function indexFile(cacheHome: string, workDir: string): string {
  const name = `${createHash('sha256').update(workDir).digest('hex')}.json`;
  return path.join(cacheHome, 'ctxfiles', 'walk-index', name);
}

describe('contextDiscovery.cache', () => {
  test('a second resolver answers the same from the saved index, which it does not rewrite', async () => {
    const workDir = tempTree(TREE);
    const cacheHome = tempTree();
    const env = { XDG_CACHE_HOME: cacheHome };
    settle();
    const off = (await resolveWith(workDir, false, env)).result;
    expect(fs.existsSync(path.join(cacheHome, 'ctxfiles'))).toBe(false);
    const first = (await resolveWith(workDir, true, env)).result;
    const file = indexFile(cacheHome, workDir);
    const saved = JSON.parse(fs.readFileSync(file, 'utf8'));
    expect(saved.key).toBe(workDir);
    // The names of the nested walk and, rules being on by default, the first segments of the rule
    // locations read below the work dir (not Zed's `.rules`, read in the work dir only).
    expect(saved.names.sort()).toEqual([
      '.augment',
      '.claude',
      '.clinerules',
      '.continue',
      '.cursor',
      '.devin',
      '.github',
      '.junie',
      '.kilocode',
      '.kiro',
      '.qwen',
      '.roo',
      '.windsurf',
      'AGENTS.md',
      'CLAUDE.md',
      'agents.md',
    ]);
    expect(saved.dirs.map((row: unknown[]) => row[0]).sort()).toEqual([
      '',
      'svc',
      'svc/auth',
      'web',
      'web/src',
    ]);
    const written = fs.statSync(file).mtimeMs;
    const second = (await resolveWith(workDir, true, env)).result;
    expect([first.manifest, first.nested, first.diagnostics]).toEqual([
      off.manifest,
      off.nested,
      off.diagnostics,
    ]);
    expect([second.manifest, second.nested, second.diagnostics]).toEqual([
      off.manifest,
      off.nested,
      off.diagnostics,
    ]);
    expect(fs.statSync(file).mtimeMs).toBe(written);
  });

  test('a file added since the last run is listed: the changed directory is read again', async () => {
    const workDir = tempTree(TREE);
    const env = { XDG_CACHE_HOME: tempTree() };
    settle();
    await resolveWith(workDir, true, env);
    writeTree(workDir, { 'web/src/AGENTS.md': '# web src', 'svc/auth/deep/AGENTS.md': '# deep' });
    fs.rmSync(path.join(workDir, 'svc/AGENTS.md'));
    const after = (await resolveWith(workDir, true, env)).result;
    expect(after.nested.map((file) => file.relativePath)).toEqual([
      'svc/auth/CLAUDE.md',
      'svc/auth/deep/AGENTS.md',
      'web/src/AGENTS.md',
    ]);
    expect(after.manifest).toBe((await resolveWith(workDir, false, env)).result.manifest);
  });

  test('the rule-folder walk shares the index: its marker names are kept too', async () => {
    const workDir = tempTree(TREE);
    const env = { XDG_CACHE_HOME: tempTree() };
    settle();
    const rules = { rules: { sources: ['cursor'] } };
    const off = (await resolveWith(workDir, false, env, rules)).result;
    await resolveWith(workDir, true, env, rules);
    const saved = JSON.parse(fs.readFileSync(indexFile(env.XDG_CACHE_HOME, workDir), 'utf8'));
    expect(saved.names).toContain('.cursor');
    expect(saved.names).toContain('AGENTS.md');
    const on = (await resolveWith(workDir, true, env, rules)).result;
    expect([on.manifest, on.rules, on.text]).toEqual([off.manifest, off.rules, off.text]);
    expect(on.manifest).toContain('web');
  });

  test('sessions inject the same with and without the index', async () => {
    const workDir = tempTree(TREE);
    const env = { XDG_CACHE_HOME: tempTree() };
    settle();
    const injected = async (cache: boolean) => {
      const { resolver } = await resolveWith(workDir, cache, env);
      const session = await resolver.openSession();
      return session.afterTool({ tool: 'read', input: { file_path: 'svc/auth/login.ts' }, ok: true });
    };
    const off = await injected(false);
    await injected(true);
    expect(await injected(true)).toBe(off);
    expect(off).toContain('# auth');
  });

  test.each([
    ['cache: true with CTXFILES_NO_CACHE=1', true, { CTXFILES_NO_CACHE: '1' }],
    ['cache: false', false, {}],
  ])('%s: no index is read or written', async (_, cache, extraEnv) => {
    const workDir = tempTree(TREE);
    const cacheHome = tempTree();
    settle();
    await resolveWith(workDir, cache, { XDG_CACHE_HOME: cacheHome, ...extraEnv });
    expect(fs.readdirSync(cacheHome)).toEqual([]);
  });

  test('an embedder’s own port gets no index: nothing is written to the disk', async () => {
    const cacheHome = tempTree();
    settle();
    const memory = createMemoryFileSystem({ '/w/svc/AGENTS.md': '# svc' });
    const { config } = await parseConfig({ contextDiscovery: { cache: true } });
    const resolver = await createResolver({
      workDir: '/w',
      config,
      fs: memory,
      env: { XDG_CACHE_HOME: cacheHome },
    });
    expect((await resolver.resolve()).nested.map((file) => file.relativePath)).toEqual(['svc/AGENTS.md']);
    expect(fs.readdirSync(cacheHome)).toEqual([]);
  });

  test('a refused cache dir is one info diagnostic; the answer is unchanged', async () => {
    const workDir = tempTree(TREE);
    const cacheHome = tempTree();
    fs.symlinkSync(tempTree(), path.join(cacheHome, 'ctxfiles'));
    settle();
    const off = (await resolveWith(workDir, false, { XDG_CACHE_HOME: cacheHome })).result;
    const on = (await resolveWith(workDir, true, { XDG_CACHE_HOME: cacheHome })).result;
    const cacheDiagnostics = on.diagnostics.filter((d) => d.code === 'walk-cache');
    expect(cacheDiagnostics).toEqual([
      {
        level: 'info',
        code: 'walk-cache',
        message: `the cache dir ${path.join(cacheHome, 'ctxfiles')} is a symlink; it is not used`,
      },
    ]);
    expect(on.diagnostics.filter((d) => d.code !== 'walk-cache')).toEqual(off.diagnostics);
    expect([on.manifest, on.nested]).toEqual([off.manifest, off.nested]);
  });

  test('a corrupt index is ignored with an info diagnostic and rewritten', async () => {
    const workDir = tempTree(TREE);
    const cacheHome = tempTree();
    settle();
    const file = indexFile(cacheHome, workDir);
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    fs.chmodSync(path.join(cacheHome, 'ctxfiles'), 0o700);
    fs.writeFileSync(file, '{"version":1,"key":', { mode: 0o600 });
    const on = (await resolveWith(workDir, true, { XDG_CACHE_HOME: cacheHome })).result;
    expect(on.diagnostics.filter((d) => d.code === 'walk-cache').map((d) => d.message)).toEqual([
      `the walk index ${file} is ignored (it is not valid JSON) and rebuilt`,
    ]);
    expect(JSON.parse(fs.readFileSync(file, 'utf8')).key).toBe(workDir);
    const again = (await resolveWith(workDir, true, { XDG_CACHE_HOME: cacheHome })).result;
    expect(again.diagnostics.filter((d) => d.code === 'walk-cache')).toEqual([]);
  });
});

describe('contextDiscovery.cache through the CLI', () => {
  test('ctxfiles hook injects the same with the index on and off', async () => {
    const workDir = tempTree({
      ...TREE,
      '.opencode.json': JSON.stringify({ contextDiscovery: { cache: true } }),
    });
    const cacheHome = tempTree();
    const stateDir = path.join(tempTree(), 'sessions');
    settle();
    const run = async (session: string, event: Record<string, unknown>, env: Record<string, string> = {}) => {
      const input = { session_id: session, cwd: workDir, ...event };
      // Gemini CLI: it loads no CLAUDE.md or AGENTS.md of its own, so the hook delivers them.
      const result = await cli(['hook', 'gemini-cli'], {
        cwd: workDir,
        env: { CTXFILES_STATE_DIR: stateDir, XDG_CACHE_HOME: cacheHome, HOME: cacheHome, ...env },
        stdin: Readable.from([JSON.stringify(input)]),
      });
      return { ...result, stdout: result.stdout.split(workDir).join('<root>') };
    };
    const events = [
      { hook_event_name: 'SessionStart', source: 'startup' },
      {
        hook_event_name: 'AfterTool',
        tool_name: 'read_file',
        tool_input: { file_path: `${workDir}/svc/auth/login.ts` },
        tool_response: { llmContent: 'x' },
      },
    ];
    const off = [];
    for (const event of events) off.push(await run('off', event, { CTXFILES_NO_CACHE: '1' }));
    expect(fs.readdirSync(cacheHome)).toEqual([]);
    for (const session of ['on-1', 'on-2']) {
      const on = [];
      for (const event of events) on.push(await run(session, event));
      expect(on).toEqual(off);
    }
    expect(fs.existsSync(indexFile(cacheHome, workDir))).toBe(true);
    expect(off[0]?.stdout).toContain('svc/auth/CLAUDE.md');
    expect(off[1]?.stdout).toContain('# auth');
  });

  test('ctxfiles manifest prints the same bytes with the key on and off; a new nested file shows up', async () => {
    const on = JSON.stringify({ contextDiscovery: { cache: true } });
    const workDir = tempTree({ ...TREE, '.opencode.json': on });
    const cacheHome = tempTree();
    const env = { XDG_CACHE_HOME: cacheHome };
    // Real time this time: let the tree's directories fall behind the racy margin.
    await new Promise((resolve) => setTimeout(resolve, RACY_MARGIN_MS + 200));
    const manifest = () => spawnBin(['manifest'], { cwd: workDir, env });
    const keyOff = () => {
      fs.writeFileSync(path.join(workDir, '.opencode.json'), '{}');
      const result = manifest();
      fs.writeFileSync(path.join(workDir, '.opencode.json'), on);
      return result;
    };
    const off = keyOff();
    expect(off.code).toBe(0);
    expect(off.stdout).toContain('svc/AGENTS.md');
    // The bin's compile cache may be there (docs/performance.md, "Start-up"); no walk index is.
    expect(fs.existsSync(path.join(cacheHome, 'ctxfiles', 'walk-index'))).toBe(false);
    expect(manifest()).toEqual(off);
    const file = indexFile(cacheHome, workDir);
    expect(JSON.parse(fs.readFileSync(file, 'utf8')).dirs.length).toBeGreaterThan(0);
    expect(manifest()).toEqual(off); // From the index.
    writeTree(workDir, { 'web/src/AGENTS.md': '# web sources' });
    const after = manifest();
    expect(after.stdout).toContain('web/src/AGENTS.md');
    expect(after).toEqual(keyOff());
    // Turned off for one run by the environment: the same bytes, and the index is not touched.
    const saved = fs.readFileSync(file, 'utf8');
    writeTree(workDir, { 'svc/auth/AGENTS.md': '# auth too' });
    const skipped = spawnBin(['manifest'], { cwd: workDir, env: { ...env, CTXFILES_NO_CACHE: '1' } });
    expect(skipped).toEqual(keyOff());
    expect(fs.readFileSync(file, 'utf8')).toBe(saved);
  });
});
