import path from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, test } from 'vitest';
import { DEFAULT_CONFIG } from '../src/config/defaults.js';
import type { Config } from '../src/config/types.js';
import { wantedInside } from '../src/hooks/host-wants.js';
import { cli } from './helpers/cli.js';
import { tempTree } from './helpers/disk.js';

// Inside a host, with no contextPaths in any config layer, the host's own instruction names are
// wanted too (DESIGN §13): Qwen Code loads QWEN.md only from the cwd up, so the hook discloses a
// nested one (the lab's `live-count-nested`, which found 0 copies before).

const loaded = (keys: readonly string[][]) => ({
  config: DEFAULT_CONFIG as unknown as Config,
  layers: keys.map((layerKeys, index) => ({
    tier: 'project' as const,
    source: `c${index}`,
    keys: layerKeys,
  })),
});

describe('wantedInside', () => {
  test('adds the names the defaults lack, after them, once', () => {
    const result = wantedInside(loaded([]), ['QWEN.md', 'AGENTS.md']);
    expect(result.config.contextPaths).toEqual([...DEFAULT_CONFIG.contextPaths, 'QWEN.md']);
  });

  test('a layer that sets contextPaths gets exactly its own', () => {
    const before = loaded([['format'], ['contextPaths']]);
    expect(wantedInside(before, ['QWEN.md'])).toBe(before);
  });

  test('a host without names changes nothing', () => {
    const before = loaded([]);
    expect(wantedInside(before, undefined)).toBe(before);
    expect(wantedInside(before, [])).toBe(before);
  });
});

describe('the Qwen Code hook discloses a nested QWEN.md once', () => {
  const setup = () => {
    const root = tempTree({
      'QWEN.md': 'root qwen',
      'pkg/QWEN.md': 'nested qwen text',
      'pkg/a.js': '',
      'pkg/b.js': '',
    });
    const stateDir = path.join(tempTree(), 'sessions');
    const hook = (event: Record<string, unknown>, files: Record<string, string> = {}) =>
      cli(['hook', 'qwen-code'], {
        cwd: root,
        env: { CTXFILES_STATE_DIR: stateDir, HOME: stateDir, ...files },
        stdin: Readable.from([JSON.stringify({ session_id: 'q1', cwd: root, ...event })]),
      });
    const read = (file: string) =>
      hook({
        hook_event_name: 'PostToolUse',
        tool_name: 'read_file',
        tool_input: { file_path: path.join(root, file) },
        tool_response: { llmContent: 'x' },
      });
    return { root, hook, read };
  };

  test('after a read there, not before and not again; never the root file Qwen Code loads', async () => {
    const { hook, read } = setup();
    const start = await hook({ hook_event_name: 'SessionStart', source: 'startup' });
    expect(start.code).toBe(0);
    expect(start.stdout).not.toContain('root qwen');
    const first = await read('pkg/a.js');
    const second = await read('pkg/b.js');
    const all = [start.stdout, first.stdout, second.stdout].join('\n');
    expect(all.split('nested qwen text').length - 1).toBe(1);
    expect(first.stdout).toContain('nested qwen text');
    expect(all).not.toContain('root qwen');
  });

  test('a config that names contextPaths wants only those', async () => {
    const { root, hook, read } = setup();
    const fs = await import('node:fs');
    fs.writeFileSync(path.join(root, 'ctxfiles.config.json'), '{"contextPaths": ["AGENTS.md"]}');
    await hook({ hook_event_name: 'SessionStart', source: 'startup' });
    expect((await read('pkg/a.js')).stdout).not.toContain('nested qwen text');
  });
});
