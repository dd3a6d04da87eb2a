import { describe, expect, test } from 'vitest';
import { memoizeFileSystem } from '../src/fs/memo-file-system.js';
import { createMemoryFileSystem } from '../src/fs/memory-file-system.js';

describe('memoizeFileSystem (one run that resolves the same directory per preset)', () => {
  test('each question reaches the port once; answers and errors are given again', () => {
    const disk = createMemoryFileSystem({ '/p/AGENTS.md': 'hi', '/p/sub/x.md': 'x' });
    const fs = memoizeFileSystem(disk);
    for (let round = 0; round < 3; round += 1) {
      expect(fs.probe('/p/CLAUDE.md')).toBeNull();
      expect(fs.lstat('/p/AGENTS.md').kind).toBe('file');
      expect(fs.stat('/p/sub').kind).toBe('directory');
      expect(fs.realpath('/p/sub/x.md')).toBe('/p/sub/x.md');
      expect(fs.readdir('/p').map((entry) => entry.name)).toEqual(['AGENTS.md', 'sub']);
      expect(() => fs.stat('/p/missing.json')).toThrow(expect.objectContaining({ code: 'ENOENT' }));
    }
    const asked = disk.calls.map((call) => `${call.op} ${call.path}`);
    expect(asked).toEqual([...new Set(asked)]);
    expect(asked).toHaveLength(6);
  });

  test('every read gets bytes of its own; reads with other bounds are asked again', () => {
    const disk = createMemoryFileSystem({ '/p/AGENTS.md': 'hello' });
    const fs = memoizeFileSystem(disk);
    const first = fs.readFile('/p/AGENTS.md', { maxBytes: 100 });
    first.bytes.fill(0);
    const second = fs.readFile('/p/AGENTS.md', { maxBytes: 100 });
    expect(Buffer.from(second.bytes).toString()).toBe('hello');
    const short = fs.readFile('/p/AGENTS.md', { maxBytes: 2 });
    expect(short.truncated).toBe(true);
    expect(disk.calls.filter((call) => call.op === 'readFile')).toHaveLength(2);
  });
});
