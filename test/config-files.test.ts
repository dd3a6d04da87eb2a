import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { checkJson, MAX_NESTING } from '../src/config/check-json.js';
import { loadConfig } from '../src/index.js';
import { CtxfilesError } from '../src/errors.js';
import { cli, spawnBin } from './helpers/cli.js';
import { tempTree } from './helpers/disk.js';

// Config files as hostile or foreign input (issue #26 items 5, 10, 18; issue #27, "JSON configs").

async function loadError(files: Record<string, string>, thorough = false): Promise<CtxfilesError> {
  const root = tempTree(files);
  try {
    await loadConfig({ cwd: root, stopDir: root, displayCwd: root, userConfig: null, thorough });
  } catch (error) {
    if (error instanceof CtxfilesError) return error;
    throw error;
  }
  throw new Error('expected a CtxfilesError');
}

describe('JSON configs are read as JSON', () => {
  test.each([
    [
      'a trailing comma',
      '{\n  "contextPaths": ["A.md",]\n}',
      '.opencode.json:2:27: not valid JSON: a trailing comma before "]" is not JSON',
    ],
    [
      'a trailing comma in an object',
      '{"contextPaths": [],\n}',
      '.opencode.json:2:1: not valid JSON: a trailing comma before "}" is not JSON',
    ],
    [
      'a truncated file',
      '{\n  "contextPaths": ["A.md"',
      '.opencode.json:2:26: not valid JSON: the file ends too early',
    ],
    [
      'a truncated string',
      '{"contextPaths": ["A.m',
      '.opencode.json:1:19: not valid JSON: the file ends inside a string',
    ],
    [
      'a single-quoted key',
      "{'contextPaths': []}",
      '.opencode.json:1:2: not valid JSON: expected a double-quoted key',
    ],
    [
      'YAML in a .json file',
      'contextPaths: [A.md]',
      '.opencode.json:1:1: not valid JSON: expected a JSON value',
    ],
    [
      'a repeated key (#26.18)',
      '{\n  "contextPaths": ["A.md"],\n  "contextPaths": ["B.md"]\n}',
      '.opencode.json:3:3: not valid JSON: the key "contextPaths" appears twice in one object',
    ],
    [
      'a repeated nested key (#26.18)',
      '{"budget": {"maxBytes": 1, "maxBytes": 2}}',
      '.opencode.json:1:28: not valid JSON: the key "maxBytes" appears twice in one object',
    ],
  ])('%s: config-syntax naming file, line and column', async (_name, text, message) => {
    for (const thorough of [false, true]) {
      const error = await loadError({ '.opencode.json': text }, thorough);
      expect(error.code).toBe('config-syntax');
      expect(error.message).toBe(message);
    }
  });

  test('a repeated key of package.json outside "ctxfiles" is npm\'s business; inside it is an error', async () => {
    const root = tempTree({
      'package.json': '{"name": "a", "name": "b", "ctxfiles": {"contextPaths": ["A.md"]}}',
    });
    const loaded = await loadConfig({ cwd: root, stopDir: root, userConfig: null });
    expect(loaded.config.contextPaths).toEqual(['A.md']);
    const error = await loadError({ 'package.json': '{"ctxfiles": {"format": "xml", "format": "magi"}}' });
    expect(error.message).toBe(
      'package.json:1:32: not valid JSON: the key "format" appears twice in one object',
    );
  });

  test('a repeated key in a YAML config is an error with its place (#26.18)', async () => {
    const error = await loadError({ '.opencode.yaml': 'format: xml\nformat: magi\n' });
    expect(error.code).toBe('config-syntax');
    expect(error.message).toMatch(/^\.opencode\.yaml:2:1: /);
  });

  test('a .opencode.json that is a directory is skipped with a warning, and the search goes on', async () => {
    const root = tempTree({ 'ctxfiles.config.json': '{"contextPaths": ["A.md"]}' });
    fs.mkdirSync(path.join(root, '.opencode.json'));
    const loaded = await loadConfig({ cwd: root, stopDir: root, displayCwd: root, userConfig: null });
    expect(loaded.filepath).toBe(path.join(root, 'ctxfiles.config.json'));
    expect(loaded.diagnostics).toContainEqual({
      level: 'warn',
      code: 'config-not-file',
      message: '.opencode.json: skipped: a directory, not a config file',
      path: path.join(root, '.opencode.json'),
    });
  });
});

describe('deep nesting is a clear error (#26.5)', () => {
  const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

  test.each([
    ['.opencode.json', `{"contextPaths": ${nested(5000)}}`, '.opencode.json:1:'],
    ['.opencode.json', nested(5000), '.opencode.json:1:'],
    ['.opencode.yaml', `contextPaths: ${nested(5000)}\n`, '.opencode.yaml: '],
    [
      '.opencode.yaml',
      `a:\n${Array.from({ length: 200 }, (_, i) => `${' '.repeat(i + 1)}b${i}:`).join('\n')} 1\n`,
      '.opencode.yaml: ',
    ],
  ])('%s: config-syntax, no RangeError', async (name, text, prefix) => {
    for (const thorough of [false, true]) {
      const error = await loadError({ [name]: text }, thorough);
      expect(error.code).toBe('config-syntax');
      expect(error.message.startsWith(prefix)).toBe(true);
      expect(error.message).toMatch(/nest deeper than 64 levels$/);
    }
  });

  test('resolve and mcp exit 1 with the message, not an internal error', async () => {
    const root = tempTree({ '.opencode.json': nested(5000) });
    for (const argv of [['resolve'], ['mcp']]) {
      const result = spawnBin(argv, { cwd: root });
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(
        '.opencode.json:1:65: not valid JSON: arrays and objects nest deeper than 64 levels',
      );
      expect(result.stderr).not.toMatch(/RangeError|internal error/);
    }
  });

  test(`${MAX_NESTING} levels are fine; one more is not`, () => {
    expect(checkJson(nested(MAX_NESTING))).toBeNull();
    expect(checkJson(nested(MAX_NESTING + 1))).toEqual({
      index: MAX_NESTING,
      message: `arrays and objects nest deeper than ${MAX_NESTING} levels`,
    });
  });

  test('checkJson agrees with JSON.parse on what is valid', () => {
    const valid = ['{}', '[]', '{"a": [1, -2.5e3, true, false, null, "x\\"y\\u00e9"]}', ' \n"s" ', '0'];
    const invalid = ['', '{', '[1,]', '{"a" 1}', '01', '"\t"', '{"a":1}x', 'tru', '"\\x"', '[1 2]'];
    for (const text of valid) expect([text, checkJson(text)]).toEqual([text, null]);
    for (const text of invalid) {
      expect(() => JSON.parse(text)).toThrow();
      expect(checkJson(text)).not.toBeNull();
    }
  });
});

describe("another tool's config is never ctxfiles' (#26.10)", () => {
  // Today's OpenCode writes opencode.json with keys that mean other things to ctxfiles.
  const opencode = JSON.stringify({
    $schema: 'https://opencode.ai/config.json',
    instructions: ['CONTRIBUTING.md', 'docs/*.md'],
    agent: { build: { model: 'x' } },
    mcp: { s: { type: 'local', command: ['x'] } },
    provider: { p: {} },
    model: 'anthropic/claude',
  });

  test.each([[['resolve']], [['resolve', '--preset', 'claude-code']], [['validate']]])(
    'opencode.json is not read: %s exits 0 without a warning',
    async (argv) => {
      const root = tempTree({
        'opencode.json': opencode,
        'AGENTS.md': 'rules\n',
        'CLAUDE.md': 'claude rules\n',
        '.git/HEAD': '',
      });
      const result = await cli(argv, { cwd: root });
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
    },
  );

  test("the hook is not broken by today's OpenCode file either", async () => {
    const root = tempTree({ 'opencode.json': opencode, 'AGENTS.md': 'rules\n' });
    const result = await cli(['hook', 'claude-code', '--state-dir', path.join(root, '.state')], {
      cwd: root,
      stdin: (await import('node:stream')).Readable.from([
        JSON.stringify({ hook_event_name: 'SessionStart', session_id: 's1', cwd: root }),
      ]),
    });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
  });

  test("in .opencode.json the Go opencode's top-level keys pass without a warning", async () => {
    // opencode-ai/opencode, internal/config/config.go, the Config struct.
    const goConfig = {
      data: { directory: '.opencode' },
      wd: '.',
      mcpServers: { s: { command: 'x', args: [], type: 'stdio' } },
      providers: { anthropic: { apiKey: 'k', disabled: false } },
      lsp: { go: { disabled: false, command: 'gopls' } },
      agents: { coder: { model: 'claude-3.7-sonnet', maxTokens: 5000, reasoningEffort: 'low' } },
      debug: false,
      debugLSP: false,
      contextPaths: ['AGENTS.md'],
      tui: { theme: 'opencode' },
      shell: { path: '/bin/zsh', args: ['-l'] },
      autoCompact: true,
    };
    const root = tempTree({ '.opencode.json': JSON.stringify(goConfig) });
    for (const thorough of [false, true]) {
      const loaded = await loadConfig({ cwd: root, stopDir: root, userConfig: null, thorough });
      expect(loaded.diagnostics).toEqual([]);
      expect(loaded.config.contextPaths).toEqual(['AGENTS.md']);
    }
  });
});
