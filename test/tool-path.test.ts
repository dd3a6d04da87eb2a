import { describe, expect, test } from 'vitest';
import { createMemoryFileSystem } from '../src/fs/memory-file-system.js';
import { containToolPath } from '../src/mcp/tool-path.js';

/**
 * A tool's path argument (docs/mcp.md): a path inside the work dir as spelled is checked segment by
 * segment below it, without `realpath` (docs/performance.md, "Agent paths"); a path with a symlink
 * on the way, or outside as spelled, is resolved as before. The answers are the same either way.
 */
const W = '/w';

function tree() {
  return createMemoryFileSystem(
    {
      'AGENTS.md': '# w',
      'pkg/src/a.ts': 'a',
      'pkg/AGENTS.md': '# pkg',
      'inside-link': { symlink: '/w/pkg' },
      'outside-link': { symlink: '/elsewhere' },
      '/elsewhere/x.ts': 'x',
      '/alias': { symlink: '/w' },
    },
    { root: W },
  );
}

describe('containToolPath', () => {
  test.each([
    // [argument, canonical path, relative, isDirectory]
    ['pkg/src/a.ts', '/w/pkg/src/a.ts', 'pkg/src/a.ts', false],
    ['pkg/src', '/w/pkg/src', 'pkg/src', true],
    ['pkg/src/new.ts', '/w/pkg/src/new.ts', 'pkg/src/new.ts', false],
    ['pkg/missing/deeper/new.ts', '/w/pkg/missing/deeper/new.ts', 'pkg/missing/deeper/new.ts', false],
    ['pkg/src/a.ts/below', '/w/pkg/src/a.ts/below', 'pkg/src/a.ts/below', false],
    ['/w/pkg/./src/../AGENTS.md', '/w/pkg/AGENTS.md', 'pkg/AGENTS.md', false],
    ['.', '/w', '.', true],
    ['inside-link/src/a.ts', '/w/pkg/src/a.ts', 'pkg/src/a.ts', false],
    ['/alias/pkg/src', '/w/pkg/src', 'pkg/src', true],
  ])('%s → %s', (raw, canonical, relative, isDirectory) => {
    expect(containToolPath(tree(), W, raw)).toEqual({ ok: true, path: canonical, relative, isDirectory });
  });

  test.each([
    ['outside-link/x.ts', /leads through a symlink to \/elsewhere\/x\.ts, outside the work dir/],
    ['../elsewhere/x.ts', /is outside the work dir \/w/],
    ['/elsewhere/x.ts', /is outside the work dir \/w/],
  ])('%s is refused', (raw, message) => {
    const answer = containToolPath(tree(), W, raw);
    expect(answer.ok).toBe(false);
    expect(answer.ok ? '' : answer.message).toMatch(message);
  });

  test('a path inside as spelled, with no symlink on the way, costs no realpath', () => {
    const fs = tree();
    for (const raw of ['pkg/src/a.ts', 'pkg/src/new.ts', 'pkg/src'])
      expect(containToolPath(fs, W, raw).ok).toBe(true);
    expect(fs.calls.filter((call) => call.op === 'realpath')).toEqual([]);
    expect(fs.calls.map((call) => call.op)).toEqual(Array(8).fill('probe'));
  });
});
