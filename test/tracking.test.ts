import { describe, expect, test } from 'vitest';
import { DEFAULT_CONFIG } from '../src/config/defaults.js';
import { memoryResolver } from './helpers/memory.js';

const read = (file: string) => ({ tool: 'read', input: { file_path: file }, ok: true });
const w = DEFAULT_CONFIG.wording;

async function tracked(tree: Record<string, string> = {}, config: Record<string, unknown> = {}) {
  const made = await memoryResolver(
    { 'AGENTS.md': 'root v1', 'pkg/AGENTS.md': 'pkg v1', 'pkg/src/a.ts': '', ...tree },
    { contextPaths: ['AGENTS.md'], format: 'reminder', instructions: { trackChanges: true }, ...config },
    { workDir: '/repo', outside: { '/repo/.git/HEAD': 'ref' } },
  );
  return { ...made, session: await made.resolver.openSession() };
}

describe('change tracking', () => {
  test('off by default: edits are not reported', async () => {
    const { resolver, fs } = await memoryResolver({ 'AGENTS.md': 'v1' }, { contextPaths: ['AGENTS.md'] });
    const session = await resolver.openSession();
    fs.set('/w/AGENTS.md', 'v2');
    expect(await session.afterTool({ tool: 'read', input: { file_path: 'x.ts' }, ok: true })).toBe('');
  });

  test('an edited file is reported once with its new text', async () => {
    const { session, fs } = await tracked();
    fs.set('/repo/AGENTS.md', 'root v2');
    expect(await session.afterTool(read('src/x.ts'))).toBe(
      `<system-reminder>\nUpdated instructions from: AGENTS.md\n\n${w.updatedNote}\n\nroot v2\n</system-reminder>`,
    );
    expect(await session.afterTool(read('src/x.ts'))).toBe('');
  });

  test('an unchanged file is never sent again, and size and mtime spare the read', async () => {
    const { session, fs } = await tracked();
    fs.calls.length = 0;
    expect(await session.afterTool(read('src/x.ts'))).toBe('');
    expect(fs.calls.filter((call) => call.op === 'readFile')).toEqual([]);
    // Same bytes, new mtime: read and digested, but not reported.
    fs.set('/repo/AGENTS.md', 'root v1');
    expect(await session.afterTool(read('src/x.ts'))).toBe('');
    expect(fs.calls.filter((call) => call.op === 'readFile').map((call) => call.path)).toEqual([
      '/repo/AGENTS.md',
    ]);
  });

  test('a deleted file is reported as removed, once', async () => {
    const { session, fs } = await tracked();
    fs.remove('/repo/AGENTS.md');
    expect(await session.afterTool(read('src/x.ts'))).toBe(
      `<system-reminder>\nInstructions removed: AGENTS.md\n\n${w.removedNote}\n</system-reminder>`,
    );
    expect(await session.afterTool(read('src/x.ts'))).toBe('');
    fs.set('/repo/AGENTS.md', 'back');
    expect(await session.afterTool(read('src/x.ts'))).toContain('Updated instructions from: AGENTS.md\n\n');
  });

  test('a candidate switch names the old path', async () => {
    const { session, fs } = await tracked(
      {},
      { contextPaths: [], instructions: { walk: 'project', trackChanges: true } },
    );
    fs.set('/repo/AGENTS.override.md', 'override');
    expect(await session.afterTool(read('src/x.ts'))).toBe(
      `<system-reminder>\nUpdated instructions from: AGENTS.override.md\nPreviously from: AGENTS.md\n\n${w.updatedNote}\n\noverride\n</system-reminder>`,
    );
    fs.remove('/repo/AGENTS.override.md');
    expect(await session.afterTool(read('src/x.ts'))).toContain(
      'Updated instructions from: AGENTS.md\nPreviously from: AGENTS.override.md',
    );
    fs.remove('/repo/AGENTS.md');
    expect(await session.afterTool(read('src/x.ts'))).toContain('Instructions removed: AGENTS.md');
  });

  test('a read failure is "temporarily unavailable", not a removal', async () => {
    const { session, fs } = await tracked();
    fs.fail('/repo/AGENTS.md', 'probe', 'EACCES', 1);
    expect(await session.afterTool(read('src/x.ts'))).toBe('');
    expect(session.diagnostics.map((d) => [d.level, d.code])).toEqual([['debug', 'temporarily-unavailable']]);
    fs.set('/repo/AGENTS.md', 'root v2');
    expect(await session.afterTool(read('src/x.ts'))).toContain('root v2');
  });

  test('a tracked file that turns binary is unavailable, not sent as empty text', async () => {
    const { session, fs } = await tracked();
    fs.set('/repo/AGENTS.md', new Uint8Array([0x61, 0, 0x62]));
    expect(await session.afterTool(read('src/x.ts'))).toBe('');
    expect(session.diagnostics.map((d) => [d.level, d.code])).toEqual([['debug', 'temporarily-unavailable']]);
  });

  test('new scopes use their own frame and are tracked too', async () => {
    const { session, fs } = await tracked();
    expect(await session.afterTool(read('pkg/src/a.ts'))).toBe(
      `<system-reminder>\nAdditional instructions from: pkg/AGENTS.md\n\n${w.scopeNote.replace('{dir}', 'pkg')}\n\npkg v1\n</system-reminder>`,
    );
    fs.set('/repo/pkg/AGENTS.md', 'pkg v2');
    expect(await session.afterTool(read('src/x.ts'))).toContain(
      'Updated instructions from: pkg/AGENTS.md\n\n',
    );
  });

  test('a resumed session reports what changed meanwhile', async () => {
    const { resolver, session, fs } = await tracked();
    await session.afterTool(read('pkg/src/a.ts'));
    const saved = JSON.parse(JSON.stringify(session.state())) as unknown;
    fs.set('/repo/pkg/AGENTS.md', 'pkg v2');
    fs.remove('/repo/AGENTS.md');
    const resumed = await resolver.openSession({ state: saved });
    const text = await resumed.afterTool(read('src/x.ts'));
    expect(text).toContain('Instructions removed: AGENTS.md');
    expect(text).toContain('Updated instructions from: pkg/AGENTS.md');
    expect(await resumed.afterTool(read('src/x.ts'))).toBe('');
  });

  test('tool calls that touch nothing do not check', async () => {
    const { session, fs } = await tracked();
    fs.set('/repo/AGENTS.md', 'root v2');
    expect(await session.afterTool({ tool: 'bash', input: { command: 'cat AGENTS.md' }, ok: true })).toBe('');
    expect(await session.afterTool({ tool: 'read', input: { file_path: 'x' }, ok: false })).toBe('');
    expect(await session.afterTool(read('x'))).toContain('root v2');
  });
});

describe('tracked files stay contained', () => {
  const SECRET = 'SENTINEL-OUTSIDE-42';
  const zero = '0'.repeat(64);

  test('a parent directory swapped for a symlink to outside is not followed', async () => {
    const { session, fs } = await tracked();
    expect(await session.afterTool(read('pkg/src/a.ts'))).toContain('pkg v1');
    // mv pkg pkg.o; ln -s ../outside pkg
    fs.remove('/repo/pkg');
    fs.set('/outside/AGENTS.md', SECRET);
    fs.set('/repo/pkg', { symlink: '../outside' });
    const text = await session.afterTool(read('src/x.ts'));
    expect(text).not.toContain(SECRET);
    expect(text).toBe('');
    expect(session.diagnostics.map((d) => d.code)).toContain('symlink-outside-workdir');
    // No longer tracked: later calls stay silent and do not read it.
    fs.calls.length = 0;
    expect(await session.afterTool(read('src/x.ts'))).toBe('');
    expect(fs.calls.filter((call) => call.path.startsWith('/repo/pkg/'))).toEqual([]);
  });

  test('a crafted state cannot make a session read files outside the work dir', async () => {
    const { resolver, fs } = await tracked();
    fs.set('/etc/secret.md', SECRET);
    fs.set('/etc/AGENTS.md', SECRET);
    fs.set('/repo/link.md', { symlink: '/etc/secret.md' });
    const record = (file: string, scope: string | null) => ({
      path: file,
      sha256: zero,
      size: 1,
      mtimeMs: 0,
      scope,
      removed: false,
    });
    const state = {
      version: 1,
      injected: [],
      skipped: [],
      bytes: 0,
      exhausted: false,
      tracked: [
        record('/etc/secret.md', null),
        record('/repo/AGENTS.md', '/etc'),
        record('/repo/link.md', null),
        record('/repo/AGENTS.md', null),
      ],
    };
    const seen: string[] = [];
    const session = await resolver.openSession({ state, onDiagnostic: (d) => seen.push(d.code) });
    expect(seen).toEqual(['state-record-dropped', 'state-record-dropped']);
    fs.calls.length = 0;
    const text = await session.afterTool(read('src/x.ts'));
    expect(text).not.toContain(SECRET);
    expect(fs.calls.filter((call) => call.op === 'readFile' && call.path.startsWith('/etc'))).toEqual([]);
    // The honest record inside the work dir is still tracked (its digest differs: reported); the
    // link inside the work dir is not a file, so it reads as removed.
    expect(text).toContain('root v1');
    expect(session.state().tracked.map((r) => [r.path, r.removed])).toEqual([
      ['/repo/link.md', true],
      ['/repo/AGENTS.md', false],
    ]);
  });
});

describe('baselineRecords: what tracking starts from (sessions and the MCP server share it)', () => {
  test('a chain file is scoped to its directory; files held inline are tracked too', async () => {
    const { baselineRecords } = await import('../src/session/change-tracking.js');
    const records = baselineRecords([
      { path: '/w/AGENTS.md', sha256: 'a', bytes: 1, mtimeMs: 1, source: 'chain' },
      {
        path: '/w/CLAUDE.md',
        sha256: 'b',
        bytes: 2,
        mtimeMs: 2,
        source: 'layer',
        inlined: [{ path: '/w/docs/style.md', sha256: 'c', bytes: 3, mtimeMs: 3 }],
      },
    ]);
    expect(records).toEqual([
      { path: '/w/AGENTS.md', sha256: 'a', size: 1, mtimeMs: 1, scope: '/w', removed: false },
      { path: '/w/CLAUDE.md', sha256: 'b', size: 2, mtimeMs: 2, scope: null, removed: false },
      { path: '/w/docs/style.md', sha256: 'c', size: 3, mtimeMs: 3, scope: null, removed: false },
    ]);
  });
});
