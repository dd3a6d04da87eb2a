import { describe, expect, test } from 'vitest';
import { BUILT_IN_TOOLS, toolTable } from '../src/session/tool-table.js';
import { touchedDirectories, touchedPaths } from '../src/session/triggers.js';
import { memoryResolver } from './helpers/memory.js';

const W = '/w';
const PATCH =
  '*** Begin Patch\n*** Add File: a/x.ts\n+x\n*** Update File: b/y.ts\n*** Move to: c/z.ts\n@@\n-a\n+b\n*** Delete File: d/w.ts\n*** End Patch';

describe('built-in tool names', () => {
  test.each<[string, string, unknown, string[], string[]]>([
    // runner, tool, input, files touched, directories touched
    [
      'Codex',
      'apply_patch',
      { input: PATCH },
      ['/w/a/x.ts', '/w/b/y.ts', '/w/c/z.ts', '/w/d/w.ts'],
      ['/w/a', '/w/b', '/w/c', '/w/d'],
    ],
    [
      'Codex (free-form)',
      'apply_patch',
      PATCH,
      ['/w/a/x.ts', '/w/b/y.ts', '/w/c/z.ts', '/w/d/w.ts'],
      ['/w/a', '/w/b', '/w/c', '/w/d'],
    ],
    ['Codex', 'read_file', { file_path: 'src/a.rs' }, ['/w/src/a.rs'], ['/w/src']],
    ['Codex', 'list_dir', { dir_path: 'src' }, [], ['/w/src']],
    ['Codex', 'shell', { command: ['cat', 'src/a.rs'] }, [], []],
    ['Cursor', 'read_file', { target_file: 'src/a.ts' }, ['/w/src/a.ts'], ['/w/src']],
    ['Claude Code', 'Read', { file_path: '/w/src/a.ts' }, ['/w/src/a.ts'], ['/w/src']],
    ['Claude Code', 'Write', { file_path: 'src/new.ts' }, ['/w/src/new.ts'], ['/w/src']],
    ['Claude Code', 'Edit', { file_path: 'src/a.ts' }, ['/w/src/a.ts'], ['/w/src']],
    ['Claude Code', 'MultiEdit', { file_path: 'src/a.ts' }, ['/w/src/a.ts'], ['/w/src']],
    ['Claude Code', 'NotebookEdit', { notebook_path: 'nb/a.ipynb' }, ['/w/nb/a.ipynb'], ['/w/nb']],
    ['Claude Code', 'Glob', { pattern: 'src/**/*.ts' }, [], ['/w/src']],
    ['Claude Code', 'Grep', { pattern: 'x', path: 'src' }, [], ['/w/src']],
    ['Claude Code', 'LS', { path: '/w/src' }, [], ['/w/src']],
    ['Claude Code', 'Bash', { command: 'cat src/a.ts' }, [], []],
    ['Gemini CLI', 'read_file', { file_path: 'src/a.ts' }, ['/w/src/a.ts'], ['/w/src']],
    ['Gemini CLI', 'write_file', { file_path: 'src/a.ts', content: '' }, ['/w/src/a.ts'], ['/w/src']],
    ['Gemini CLI', 'replace', { file_path: 'src/a.ts' }, ['/w/src/a.ts'], ['/w/src']],
    ['Gemini CLI', 'list_directory', { dir_path: 'src' }, [], ['/w/src']],
    ['Gemini CLI', 'glob', { pattern: '*.ts', dir_path: 'src' }, [], ['/w/src']],
    ['Gemini CLI', 'grep_search', { pattern: 'x', dir_path: 'src' }, [], ['/w/src']],
    ['Gemini CLI (older)', 'search_file_content', { pattern: 'x', path: 'src' }, [], ['/w/src']],
    [
      'Gemini CLI',
      'read_many_files',
      { include: ['src/**/*.ts', 'docs/a.md'] },
      ['/w/docs/a.md'],
      ['/w/src', '/w/docs'],
    ],
    ['Gemini CLI', 'run_shell_command', { command: 'ls src' }, [], []],
    ['OpenCode', 'read', { filePath: 'src/a.ts' }, ['/w/src/a.ts'], ['/w/src']],
    ['OpenCode', 'write', { filePath: 'src/a.ts' }, ['/w/src/a.ts'], ['/w/src']],
    ['OpenCode', 'edit', { filePath: 'src/a.ts' }, ['/w/src/a.ts'], ['/w/src']],
    [
      'OpenCode',
      'patch',
      { patchText: PATCH },
      ['/w/a/x.ts', '/w/b/y.ts', '/w/c/z.ts', '/w/d/w.ts'],
      ['/w/a', '/w/b', '/w/c', '/w/d'],
    ],
    [
      'OpenCode',
      'apply_patch',
      { patchText: PATCH },
      ['/w/a/x.ts', '/w/b/y.ts', '/w/c/z.ts', '/w/d/w.ts'],
      ['/w/a', '/w/b', '/w/c', '/w/d'],
    ],
    ['OpenCode', 'grep', { pattern: 'x', path: 'src' }, [], ['/w/src']],
    ['OpenCode', 'glob', { pattern: '**/*.ts', path: 'src' }, [], ['/w/src']],
    ['OpenCode', 'list', { path: 'src' }, [], ['/w/src']],
    ['any', 'read', { path: 'src/a.ts' }, ['/w/src/a.ts'], ['/w/src']], // `path` is the last file key tried
    ['any', 'read', { file_path: 'src/a.ts', path: 'other/b.ts' }, ['/w/src/a.ts'], ['/w/src']], // first key wins
    ['any', 'read', { file_path: '', filePath: 'src/a.ts' }, ['/w/src/a.ts'], ['/w/src']], // an empty value is skipped
    ['any', 'unknown_tool', { file_path: 'src/a.ts' }, [], []],
    ['any', 'constructor', { file_path: 'src/a.ts' }, [], []], // never an Object.prototype member
    ['any', 'read', 'src/a.ts', [], []], // a string input is a patch only for patch tools
  ])('%s %s %j', (_runner, tool, input, files, directories) => {
    const touched = touchedPaths({ tool, input: input as never, ok: true }, W, BUILT_IN_TOOLS);
    expect(touched.files).toEqual(files);
    expect(touched.directories).toEqual(directories);
    expect(touched.diagnostics).toEqual([]);
  });

  test.each([
    ['no header at all', '*** Begin Patch\n*** End Patch'],
    ['a header without a path', '*** Begin Patch\n*** Update File:   \n*** End Patch'],
    ['not a patch', 'rm -rf /'],
  ])('a malformed patch (%s) is a warning and touches nothing', (_name, patch) => {
    let touched: ReturnType<typeof touchedPaths> | undefined;
    expect(() => {
      touched = touchedPaths({ tool: 'apply_patch', input: { input: patch }, ok: true }, W, BUILT_IN_TOOLS);
    }).not.toThrow();
    expect(touched?.files).toEqual([]);
    expect(touched?.directories).toEqual([]);
    expect(touched?.diagnostics.map((diagnostic) => [diagnostic.level, diagnostic.code])).toEqual([
      ['warn', 'malformed-patch'],
    ]);
  });

  test('a failed call touches nothing and warns about nothing', () => {
    expect(
      touchedPaths({ tool: 'apply_patch', input: { input: 'x' }, ok: false }, W, BUILT_IN_TOOLS),
    ).toEqual({
      files: [],
      directories: [],
      diagnostics: [],
    });
  });

  test('touchedDirectories keeps its answers with the built-in table', () => {
    expect(touchedDirectories({ tool: 'read', input: { file_path: 'svc/a.ts' }, ok: true }, W)).toEqual([
      '/w/svc',
    ]);
    expect(
      touchedDirectories({ tool: 'NotebookEdit', input: { notebook_path: 'nb/a.ipynb' }, ok: true }, W),
    ).toEqual(['/w/nb']);
  });
});

describe('session.tools', () => {
  test.each<
    [
      string,
      Record<string, { as: 'read' | 'write' | 'edit' | 'list' | 'search' | 'shell'; pathKeys?: string[] }>,
      string,
      unknown,
      string[],
      string[],
    ]
  >([
    // case, configured tools, tool, input, files, directories
    [
      'a new name',
      { view_source: { as: 'read', pathKeys: ['source'] } },
      'view_source',
      { source: 'src/a.ts' },
      ['/w/src/a.ts'],
      ['/w/src'],
    ],
    [
      'names are case-insensitive',
      { View_Source: { as: 'read', pathKeys: ['source'] } },
      'VIEW_SOURCE',
      { source: 'a/b.ts' },
      ['/w/a/b.ts'],
      ['/w/a'],
    ],
    [
      'a list of paths',
      { open_all: { as: 'read', pathKeys: ['files'] } },
      'open_all',
      { files: ['a/x.ts', 'b/y.ts', 'a/x.ts'] },
      ['/w/a/x.ts', '/w/b/y.ts'],
      ['/w/a', '/w/b'],
    ],
    ['a list tool', { tree: { as: 'list', pathKeys: ['root'] } }, 'tree', { root: 'pkg' }, [], ['/w/pkg']],
    ['a search tool', { find: { as: 'search', pathKeys: ['in'] } }, 'find', { in: 'pkg' }, [], ['/w/pkg']],
    [
      'default keys for a file tool',
      { open: { as: 'read' } },
      'open',
      { filePath: 'a/b.ts' },
      ['/w/a/b.ts'],
      ['/w/a'],
    ],
    ['default keys for a list tool', { tree: { as: 'list' } }, 'tree', { dir_path: 'a' }, [], ['/w/a']],
    ['overriding a built-in', { read: { as: 'shell' } }, 'read', { file_path: 'a/b.ts' }, [], []],
    [
      'the built-ins stay',
      { tree: { as: 'list' } },
      'Read',
      { file_path: 'a/b.ts' },
      ['/w/a/b.ts'],
      ['/w/a'],
    ],
    // A name not in the table is tried in snake_case.
    ['a camelCase name', {}, 'readFile', { path: 'a/b.ts' }, ['/w/a/b.ts'], ['/w/a']],
    ['a kebab-case name', {}, 'list-dir', { path: 'a' }, [], ['/w/a']],
    [
      'a configured camelCase name',
      { open_source: { as: 'read' } },
      'OpenSource',
      { path: 'a/b.ts' },
      ['/w/a/b.ts'],
      ['/w/a'],
    ],
    ['the filename key of file tools', {}, 'read_file', { filename: 'a/b.ts' }, ['/w/a/b.ts'], ['/w/a']],
    // OpenAI Agents hands tools their arguments as JSON text.
    ['an input as JSON text', {}, 'read_file', '{"path":"a/b.ts"}', ['/w/a/b.ts'], ['/w/a']],
    [
      'a patch input as JSON text',
      {},
      'apply_patch',
      '{"input":"*** Begin Patch\\n*** Add File: a/n.ts\\n*** End Patch"}',
      ['/w/a/n.ts'],
      ['/w/a'],
    ],
    ['text that is not JSON, for a file tool', {}, 'read_file', 'a/b.ts', [], []],
  ])('%s', (_name, configured, tool, input, files, directories) => {
    const touched = touchedPaths({ tool, input: input as never, ok: true }, W, toolTable(configured));
    expect(touched.files).toEqual(files);
    expect(touched.directories).toEqual(directories);
  });

  test('a session uses the configured names, and a malformed patch injects nothing', async () => {
    const { resolver } = await memoryResolver(
      { 'AGENTS.md': 'root', 'svc/AGENTS.md': 'svc rules', 'svc/a.ts': '' },
      {
        contextPaths: ['AGENTS.md'],
        session: { tools: { view_source: { as: 'read', pathKeys: ['source'] } } },
      },
    );
    const session = await resolver.openSession();
    expect(
      await session.afterTool({
        tool: 'apply_patch',
        input: { input: '*** Begin Patch\n*** End Patch' },
        ok: true,
      }),
    ).toBe('');
    expect(session.diagnostics.map((diagnostic) => diagnostic.code)).toContain('malformed-patch');
    expect(await session.afterTool({ tool: 'view_source', input: { source: 'svc/a.ts' }, ok: true })).toBe(
      '<system-reminder>\n# From:/w/svc/AGENTS.md\nsvc rules\n</system-reminder>',
    );
  });

  test('Codex apply_patch in a session discloses the patched directory', async () => {
    const { resolver } = await memoryResolver(
      { 'AGENTS.md': 'root', 'svc/AGENTS.md': 'svc rules' },
      { contextPaths: ['AGENTS.md'] },
    );
    const session = await resolver.openSession();
    expect(
      await session.afterTool({
        tool: 'apply_patch',
        input: { input: '*** Begin Patch\n*** Add File: svc/new.ts\n+x\n*** End Patch' },
        ok: true,
      }),
    ).toContain('# From:/w/svc/AGENTS.md');
  });

  test('session.tools is validated', async () => {
    await expect(memoryResolver({}, { session: { tools: { x: { as: 'open' } } } })).rejects.toThrow(
      /session\.tools\.x\.as/,
    );
  });
});
