// The pi preset and format (src/hosts/pi/): the bytes pi 1.6.0 put in front of the model in the
// conformance lab, and its walk on an in-memory tree. The lab (test/conformance/hosts/pi.mjs)
// checks the same against the binary.
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { createResolver } from '../src/index.js';
import { loadConfig } from '../src/index.js';
import { checkHostNotices, hostNotices } from '../src/doctor/check-host-notices.js';
import { DEFAULT_CONFIG } from '../src/config/defaults.js';
import { piFormat, renderPi } from '../src/hosts/pi/format.js';
import { tempTree } from './helpers/disk.js';
import { memoryResolver } from './helpers/memory.js';
import { HOST_REGISTRY } from '../src/hosts/index.js';
import { listHosts } from '../src/doctor/hosts.js';

const context = {
  workDir: '/r/sub',
  homeDir: '/h',
  wording: DEFAULT_CONFIG.wording,
  formats: HOST_REGISTRY.format,
};

describe('pi format', () => {
  test('one project_context section: the intro line, then each file in its own tag, blank lines between', () => {
    const files = [
      { path: '/h/.pi/agent/AGENTS.md', text: 'User rules.\n', layer: 'user' },
      { path: '/r/AGENTS.md', text: '', layer: 'chain' },
      { path: '/r/sub/AGENTS.md', text: 'Sub rules.', layer: 'chain' },
    ];
    expect(renderPi(files, context)).toBe(
      '<project_context>\nProject-specific instructions and guidelines:\n\n' +
        '<project_instructions path="/h/.pi/agent/AGENTS.md">\nUser rules.\n\n</project_instructions>\n\n' +
        '<project_instructions path="/r/AGENTS.md">\n\n</project_instructions>\n\n' +
        '<project_instructions path="/r/sub/AGENTS.md">\nSub rules.\n</project_instructions>\n</project_context>',
    );
    expect(renderPi([], context)).toBe('');
  });

  test("pi's own tags in a file's text are escaped, and the doctor is told the file would break pi's frame", () => {
    const text = 'A.\n</project_instructions>\n</project_context>\nB.';
    expect(renderPi([{ path: '/r/AGENTS.md', text, layer: 'chain' }], context)).toContain(
      'A.\n&lt;/project_instructions>\n&lt;/project_context>\nB.\n</project_instructions>',
    );
    expect(piFormat.frameBreaks?.(text)).toMatch(/<project_instructions>/);
    expect(piFormat.frameBreaks?.('Plain <b>text</b>.')).toBeNull();
  });
});

describe('pi in doctor', () => {
  test("frame-escaped names pi's tags and points at the first one; Codex's finding stays its own", () => {
    // Each host's notices are taken when its resolution is done (doctor keeps no resolution).
    const host = (name: string, text: string) => ({
      host: name,
      notices: hostNotices(listHosts(HOST_REGISTRY).find((entry) => entry.name === name)!.frameTags, {
        diagnostics: [{ level: 'warn', code: 'frame-escaped', message: '', path: '/r/AGENTS.md' }],
        files: [{ path: '/r/AGENTS.md', text }],
      } as never),
    });
    const text = 'A.\n<INSTRUCTIONS>\nB </project_context>\n';
    const findings = checkHostNotices([{ hosts: [host('codex', text), host('pi', text)] }], (absolute) =>
      path.relative('/r', absolute),
    );
    expect(findings.map((item) => [item.file, item.line, item.column, item.message])).toEqual([
      [
        'AGENTS.md',
        2,
        1,
        expect.stringMatching(/^codex sends this file inside its <INSTRUCTIONS> frame as written/),
      ],
      [
        'AGENTS.md',
        3,
        3,
        expect.stringMatching(
          /^pi sends this file inside its <project_instructions> or <project_context> frame as written/,
        ),
      ],
    ]);
  });
});

describe('pi preset', () => {
  test('the user file, then one file per directory from / down to the work dir, past any .git', async () => {
    const { resolver } = await memoryResolver(
      {
        '/home/u/.pi/agent/CLAUDE.md': 'User claude.',
        '/AGENTS.md': 'Filesystem root.',
        '/r/.git': { dir: true },
        '/r/CLAUDE.md': 'Root claude.',
        '/r/AGENTS.MD': 'Upper-case extension wins over CLAUDE.md.',
        '/r/sub/.git': { dir: true },
        '/r/sub/AGENTS.override.md': 'Override.',
        '/r/sub/AGENTS.md': 'Not read: the override wins.',
      },
      { preset: 'pi' },
      { workDir: '/r/sub' },
    );
    const result = await resolver.resolve();
    expect(result.files.map((file) => file.path)).toEqual([
      '/home/u/.pi/agent/CLAUDE.md',
      '/AGENTS.md',
      '/r/AGENTS.MD',
      '/r/sub/AGENTS.override.md',
    ]);
  });

  test('an empty file is kept and framed; a byte order mark is dropped', async () => {
    const { resolver } = await memoryResolver(
      { '/home/u/.pi/agent/AGENTS.md': '\ufeffUser rules.', '/w/AGENTS.md': '' },
      { preset: 'pi' },
    );
    const result = await resolver.resolve();
    expect(result.files.map((file) => [file.path, file.text])).toEqual([
      ['/home/u/.pi/agent/AGENTS.md', 'User rules.'],
      ['/w/AGENTS.md', ''],
    ]);
  });

  // Through the host-settings seam (loadConfig), on real files.
  async function userFiles(env: (root: string) => Record<string, string>) {
    const root = tempTree({
      'home/.pi/agent/AGENTS.md': 'Default agent dir.\n',
      'cfg/CLAUDE.md': 'Agent dir from the environment.\n',
      'empty-cfg/.keep': '',
      'repo/AGENTS.md': 'Project.\n',
    });
    const home = path.join(root, 'home');
    const workDir = path.join(root, 'repo');
    const vars = env(root);
    const loaded = await loadConfig({
      cwd: workDir,
      homeDir: home,
      env: vars,
      userConfig: null,
      preset: 'pi',
    });
    const resolver = await createResolver({ workDir, config: loaded, homeDir: home, env: vars });
    const result = await resolver.resolve({});
    return result.files.map((file) => path.relative(root, file.path));
  }

  test('PI_CODING_AGENT_DIR replaces ~/.pi/agent: its file is read, and with none there no user file', async () => {
    expect(await userFiles(() => ({}))).toEqual(['home/.pi/agent/AGENTS.md', 'repo/AGENTS.md']);
    expect(await userFiles((root) => ({ PI_CODING_AGENT_DIR: path.join(root, 'cfg') }))).toEqual([
      'cfg/CLAUDE.md',
      'repo/AGENTS.md',
    ]);
    expect(await userFiles((root) => ({ PI_CODING_AGENT_DIR: path.join(root, 'empty-cfg') }))).toEqual([
      'repo/AGENTS.md',
    ]);
  });
});
