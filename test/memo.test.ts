import { describe, expect, test } from 'vitest';
import { createResolver } from '../src/index.js';
import { createMemo } from '../src/api/memo.js';
import { createMemoryFileSystem } from '../src/fs/memory-file-system.js';

describe('the resolver memo (src/api/memo.ts)', () => {
  test('a table computes each key once; clear() empties every table', () => {
    const memo = createMemo();
    const first = memo.table<number>();
    const second = memo.table<string>();
    let computed = 0;
    expect(first('a', () => ++computed)).toBe(1);
    expect(first('a', () => ++computed)).toBe(1);
    expect(first('b', () => ++computed)).toBe(2);
    expect(second('a', () => 'x')).toBe('x');
    memo.clear();
    expect(first('a', () => ++computed)).toBe(3);
    expect(second('a', () => 'y')).toBe('y');
  });

  test('concurrent calls share one promise; a rejected promise is not kept', async () => {
    const memo = createMemo();
    const table = memo.table<Promise<number>>();
    let calls = 0;
    const failing = () => {
      calls += 1;
      return Promise.reject(new Error('boom'));
    };
    const [a, b] = [table('k', failing), table('k', failing)];
    expect(a).toBe(b);
    await expect(a).rejects.toThrow('boom');
    await expect(table('k', () => Promise.resolve(7))).resolves.toBe(7);
    expect(calls).toBe(1);
  });
});

test('createResolver({ fs }) finds and reads the config through that filesystem', async () => {
  const fs = createMemoryFileSystem({
    '/w/.opencode.json': '{"contextPaths":["RULES.md"],"format":"xml"}',
    '/w/RULES.md': 'rules',
  });
  const resolver = await createResolver({ workDir: '/w', fs, env: {}, homeDir: '/home/u' });
  const result = await resolver.resolve();
  expect(result.format).toBe('xml');
  expect(result.files.map((file) => [file.path, file.text])).toEqual([['/w/RULES.md', 'rules']]);
});
