import path from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, test } from 'vitest';
import { createResolver } from '../src/index.js';
import { createMcpConnection } from '../src/mcp/mcp-connection.js';
import { createNodeFileSystem } from '../src/fs/node-file-system.js';
import { cli } from './helpers/cli.js';
import { tempTree, type DiskTree } from './helpers/disk.js';
import { ALONE, TWINS, pydanticShaped } from './helpers/pydantic-shaped.js';
import { HOST_REGISTRY } from '../src/hosts/index.js';

/** How many times `needle` occurs in `text`. */
function count(text: string, needle: string): number {
  return text.split(needle).length - 1;
}

/** Runs `ctxfiles hook <host>` on one event; returns the added context (empty when none). */
function hookOf(root: string, host: string, stateDir: string) {
  return async (event: Record<string, unknown>): Promise<string> => {
    const result = await cli(['hook', host], {
      cwd: root,
      env: { CTXFILES_STATE_DIR: stateDir, HOME: root },
      stdin: Readable.from([JSON.stringify({ session_id: 's1', cwd: root, ...event })]),
    });
    expect(result.stderr).toBe('');
    if (result.stdout === '' || result.stdout === '{}\n') return '';
    const parsed = JSON.parse(result.stdout) as {
      hookSpecificOutput?: { additionalContext?: string };
      systemMessage?: string;
    };
    return parsed.hookSpecificOutput?.additionalContext ?? '';
  };
}

describe('one copy per identity (DESIGN §13): a pydantic-ai shaped project', () => {
  test('resolve and the manifest list each file once: the twin that is no link', async () => {
    const root = tempTree(pydanticShaped());
    const resolver = await createResolver({ workDir: root, homeDir: root, config: {} });
    const result = await resolver.resolve();
    expect(count(result.text, 'ROOT-TEXT')).toBe(1);
    const nested = result.nested.map((file) => file.relativePath).sort();
    expect(nested).toHaveLength(TWINS.length + ALONE.length);
    expect(nested.every((file) => file.endsWith('AGENTS.md'))).toBe(true);
    expect(result.manifest).not.toContain('CLAUDE.md');
  });

  test('a session injects a twin once, and a rule source reading the same file adds nothing', async () => {
    const root = tempTree(pydanticShaped());
    const resolver = await createResolver({ workDir: root, homeDir: root, config: {} });
    const session = await resolver.openSession();
    const first = await session.afterTool({
      tool: 'read',
      input: { file_path: path.join(root, 'tests/models/x.py') },
      ok: true,
    });
    expect(count(first, 'TWIN-TEXT-tests:')).toBe(1);
    expect(count(first, 'ALONE-TEXT-tests/models:')).toBe(1);
    const again = await session.afterTool({
      tool: 'read',
      input: { file_path: path.join(root, 'tests/src/x.py') },
      ok: true,
    });
    expect(again).toBe('');
  });

  test('MCP instructions_for_path returns each file once', async () => {
    const root = tempTree(pydanticShaped());
    const resolver = await createResolver({ workDir: root, homeDir: root, config: {} });
    const connection = createMcpConnection({
      resolver,
      formats: HOST_REGISTRY.format,
      fs: createNodeFileSystem(),
      homeDir: root,
    });
    const answer = await connection.callTool('instructions_for_path', { path: 'tests/models/x.py' });
    const text = answer.content.map((part) => part.text).join('\n');
    expect(count(text, 'ROOT-TEXT')).toBe(1);
    expect(count(text, 'TWIN-TEXT-tests:')).toBe(1);
    expect(count(text, 'ALONE-TEXT-tests/models:')).toBe(1);
  });
});

describe('wanted − already in view: the hooks as `init` writes them', () => {
  test('Claude Code: the start repeats nothing it loads; a read adds only AGENTS.md-only directories', async () => {
    const root = tempTree(pydanticShaped());
    const hook = hookOf(root, 'claude-code', path.join(tempTree(), 'sessions'));
    const start = await hook({ hook_event_name: 'SessionStart', source: 'startup' });
    // Claude Code loads the root AGENTS.md itself, through its CLAUDE.md link.
    expect(count(start, 'ROOT-TEXT')).toBe(0);
    expect(start).toContain('# Nested Context Files');
    // A read in a twin directory: Claude Code attaches tests/CLAUDE.md itself; tests/models has an
    // AGENTS.md only, which Claude Code never loads in a project with a CLAUDE.md.
    const read = (file: string) =>
      hook({
        hook_event_name: 'PostToolUse',
        tool_name: 'Read',
        tool_input: { file_path: path.join(root, file) },
        tool_response: {},
      });
    const nested = await read('tests/models/x.py');
    expect(count(nested, 'TWIN-TEXT-tests:')).toBe(0);
    expect(count(nested, 'ALONE-TEXT-tests/models:')).toBe(1);
    expect(await read('tests/models/x.py')).toBe('');
    expect(await read('docs/src/x.py')).toBe('');
  });

  test('Gemini CLI with context.fileName AGENTS.md: a nested AGENTS.md is its own, never repeated', async () => {
    const root = tempTree({
      ...pydanticShaped(),
      '.gemini/settings.json': '{"context": {"fileName": ["AGENTS.md", "GEMINI.md"]}}',
    });
    const hook = hookOf(root, 'gemini-cli', path.join(tempTree(), 'sessions'));
    const start = await hook({ hook_event_name: 'SessionStart', source: 'startup' });
    expect(count(start, 'ROOT-TEXT')).toBe(0);
    const nested = await hook({
      hook_event_name: 'AfterTool',
      tool_name: 'read_file',
      tool_input: { file_path: 'tests/models/x.py' },
      tool_response: { llmContent: 'x = 1' },
    });
    expect(nested).toBe('');
  });

  test('Codex (no nested loading of its own): each nested file once, named as on disk', async () => {
    const root = tempTree(pydanticShaped());
    const hook = hookOf(root, 'codex', path.join(tempTree(), 'sessions'));
    const start = await hook({ hook_event_name: 'SessionStart', source: 'startup' });
    expect(count(start, 'ROOT-TEXT')).toBe(0);
    const patch = `*** Begin Patch\n*** Update File: ${path.join(root, 'tests/models/x.py')}\n@@\n-x = 1\n+x = 2\n*** End Patch\n`;
    const nested = await hook({
      hook_event_name: 'PostToolUse',
      tool_name: 'apply_patch',
      tool_input: { command: patch },
      tool_response: {},
    });
    expect(count(nested, 'TWIN-TEXT-tests:')).toBe(1);
    expect(count(nested, 'ALONE-TEXT-tests/models:')).toBe(1);
    expect(nested).not.toContain('CLAUDE.md');
  });
});

describe('the MCP server inside a host', () => {
  test('any preset (continue): every rule that applies at the path, glob rules too, and no note in the answer', async () => {
    const root = tempTree({
      '.git/HEAD': 'ref: refs/heads/main\n',
      'AGENTS.md': 'ROOT-TEXT\n',
      '.continue/rules/always.md': '---\nname: always\n---\nALWAYS-RULE\n',
      '.continue/rules/gui.md': '---\nname: gui\nglobs: gui/**\n---\nGUI-RULE\n',
      'gui/src/components/Foo.tsx': 'export {};\n',
    });
    const { loadConfig } = await import('../src/index.js');
    const config = await loadConfig({ cwd: root, preset: 'continue', userConfig: null, hostSettings: false });
    const resolver = await createResolver({ workDir: root, homeDir: root, config });
    const notes: string[] = [];
    const connection = createMcpConnection({
      resolver,
      formats: HOST_REGISTRY.format,
      fs: createNodeFileSystem(),
      homeDir: root,
      onNote: (line) => notes.push(line),
    });
    const answer = await connection.callTool('instructions_for_path', { path: 'gui/src/components/Foo.tsx' });
    const text = answer.content.map((part) => part.text).join('\n');
    expect(count(text, 'GUI-RULE')).toBe(1);
    expect(count(text, 'ALWAYS-RULE')).toBe(1);
    expect(text).not.toContain('tool-input-unread');
    expect(text).not.toContain('ctxfiles notes');
    // Project-wide files: "everywhere", never a folder or an absolute path.
    expect(text).not.toContain('These apply to work under');
    expect(text).not.toContain(root);
  });

  test('with --host, the server and the hook share one once-only state', async () => {
    const root = tempTree(pydanticShaped());
    const stateDir = path.join(tempTree(), 'sessions');
    const hook = hookOf(root, 'claude-code', stateDir);
    const read = (file: string) =>
      hook({
        hook_event_name: 'PostToolUse',
        tool_name: 'Read',
        tool_input: { file_path: path.join(root, file) },
        tool_response: {},
      });
    await hook({ hook_event_name: 'SessionStart', source: 'startup' });
    expect(count(await read('tests/models/x.py'), 'ALONE-TEXT-tests/models:')).toBe(1);
    const [{ hookHostView }, { sharedSession }] = await Promise.all([
      import('../src/hooks/host-view.js'),
      import('../src/hooks/shared-session.js'),
    ]);
    const resolver = await createResolver({ workDir: root, homeDir: root, config: {} });
    const view = await hookHostView(HOST_REGISTRY.host('claude-code')!, HOST_REGISTRY, resolver, {}, root);
    const connection = createMcpConnection({
      resolver,
      formats: HOST_REGISTRY.format,
      fs: createNodeFileSystem(),
      homeDir: root,
      ...(view === undefined ? {} : { view }),
      shared: sharedSession('claude-code', root, stateDir, Date.now()),
    });
    const ask = async (file: string) =>
      (await connection.callTool('instructions_for_path', { path: file })).content
        .map((part) => part.text)
        .join('\n');
    // What the hook delivered, and what Claude Code shows itself (the root AGENTS.md, a twin), is not returned.
    const first = await ask('tests/models/x.py');
    expect(count(first, 'ALONE-TEXT-tests/models:')).toBe(0);
    expect(count(first, 'ROOT-TEXT')).toBe(0);
    expect(count(first, 'TWIN-TEXT-tests:')).toBe(0);
    // What the server returns, the hook does not deliver again.
    expect(count(await ask('docs/api/x.py'), 'ALONE-TEXT-docs/api:')).toBe(1);
    expect(await read('docs/api/x.py')).toBe('');
  });
});
