import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { createResolver } from '../src/index.js';
import { formatExplain } from '../src/prompt/explain.js';
import { isUtf8Locale } from '../src/cli/prompt-command.js';
import { BIN, cli } from './helpers/cli.js';
import { tempTree, writeTree } from './helpers/disk.js';

// Issue 14: no mistake a person can make prints a stack trace, and nothing fails silently.

describe('mistakes are reported like config errors: exit 1, file, key path, no stack', () => {
  const tree = {
    'AGENTS.md': '# Rules\n',
    'tools5.json': '{"tools": 5}',
    'subagents.json': '{\n  "subagents": "x"\n}',
    'mcp-object.json': '{"a": 1}',
    'mcp-null.json': '[null]',
  };
  test.each([
    [['prompt', '--base', 'missing.txt'], 'ctxfiles: error: --base missing.txt: the file does not exist\n'],
    [['prompt', '--base', '.'], /^ctxfiles: error: --base \/.*: a directory, not a file\n$/],
    [
      ['prompt', '--input', 'tools5.json'],
      'ctxfiles: error: --input tools5.json:1:11: tools: wrong type. Expected an array, received 5.\n',
    ],
    [
      ['prompt', '--input', 'subagents.json'],
      'ctxfiles: error: --input subagents.json:2:16: subagents: wrong type. Expected an array, received "x".\n',
    ],
    [
      ['prompt', '--input', '{"tools": 5}'],
      'ctxfiles: error: --input:1:11: tools: wrong type. Expected an array, received 5.\n',
    ],
    [
      ['prompt', '--input', '{"tool": []}'],
      'ctxfiles: error: --input:1:2: tool: unknown key "tool". Did you mean "tools"?\n',
    ],
    [
      ['explain', '--mcp', 'mcp-object.json'],
      'ctxfiles: error: --mcp mcp-object.json:1:1: wrong type. Expected an array, received an object.\n',
    ],
    [
      ['prompt', '--mcp', 'mcp-null.json'],
      'ctxfiles: error: --mcp mcp-null.json:1:2: [0]: wrong type. Expected an object, received null.\n',
    ],
    [['prompt', '--fragments', 'nowhere'], 'ctxfiles: error: --fragments nowhere: does not exist\n'],
    [
      ['schema', '--out', '/nonexistent/x.json'],
      'ctxfiles: error: --out /nonexistent/x.json: cannot write the file (its directory does not exist)\n',
    ],
    [['resolve', '--config', '.'], /^ctxfiles: error: [^/\n]+: a directory, not a file\n$/],
    [['resolve', '--config', '/dev/null'], 'ctxfiles: error: /dev/null: not a regular file\n'],
    [['resolve', '--config', 'none.json'], 'ctxfiles: error: none.json: the config file does not exist\n'],
    [['resolve', '--user-config', '.'], /^ctxfiles: error: [^/\n]+: a directory, not a file\n$/],
    [['resolve', '--user-config', '/dev/null'], 'ctxfiles: error: /dev/null: not a regular file\n'],
    [
      ['resolve', '--user-config', 'none.json'],
      'ctxfiles: error: none.json: the user config file does not exist\n',
    ],
  ])('%j', async (argv, stderr) => {
    const root = tempTree(tree);
    const result = await cli(argv, { cwd: root });
    expect(result.code).toBe(1);
    if (typeof stderr === 'string') expect(result.stderr).toBe(stderr);
    else expect(result.stderr).toMatch(stderr);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  test('an unexpected exception is one line; CTXFILES_DEBUG=1 adds the stack', async () => {
    const root = tempTree({ 'AGENTS.md': 'x' });
    const failing = { write: () => true };
    const run = async (env: Record<string, string>) => {
      let stderr = '';
      const { run: runCli } = await import('../src/cli/run.js');
      const stdout = {
        write: () => {
          throw new TypeError('boom');
        },
      };
      const code = await runCli(['resolve'], {
        stdout,
        stderr: { write: (text: string) => ((stderr += text), failing.write()) },
        env,
        cwd: root,
      });
      return { code, stderr };
    };
    const plain = await run({});
    expect(plain).toEqual({
      code: 1,
      stderr:
        'ctxfiles: internal error: TypeError: boom (set CTXFILES_DEBUG=1 for the stack; please report it)\n',
    });
    const debug = await run({ CTXFILES_DEBUG: '1' });
    expect(debug.code).toBe(1);
    expect(debug.stderr).toMatch(/^ctxfiles: internal error: TypeError: boom\n\s+at /);
  });

  test('--json on failure prints the error object on stdout too', async () => {
    const root = tempTree({});
    const missing = await cli(['resolve', '--json', '--config', 'nope.json'], { cwd: root });
    expect(missing.code).toBe(1);
    expect(JSON.parse(missing.stdout)).toEqual({
      error: {
        code: 'config-not-found',
        message: 'nope.json: the config file does not exist',
        problems: [{ message: 'nope.json: the config file does not exist', file: 'nope.json' }],
      },
    });
    const usage = await cli(['resolve', '--json', '--bogus'], { cwd: root });
    expect(usage.code).toBe(2);
    expect(JSON.parse(usage.stdout)).toEqual({
      error: { code: 'usage', message: "unknown option '--bogus'" },
    });
    expect(usage.stderr).toBe("ctxfiles: error: unknown option '--bogus'\n");
  });
});

describe('the API normalizes a partial config like a file', () => {
  test('createResolver({ config: { contextPaths } }) applies the defaults', async () => {
    const root = tempTree({ 'RULES.md': '# Rules\n' });
    const resolver = await createResolver({ workDir: root, config: { contextPaths: ['RULES.md'] }, env: {} });
    expect(resolver.config.budget.maxTokens).toBeNull();
    expect(resolver.config.contextDiscovery.maxFiles).toBe(100);
    expect((await resolver.resolve()).files.map((file) => path.basename(file.path))).toEqual(['RULES.md']);
  });

  test('a wrong partial config is a config error naming the key', async () => {
    const root = tempTree({});
    await expect(
      createResolver({ workDir: root, config: { contextPaths: 'AGENTS.md' } as never }),
    ).rejects.toMatchObject({
      code: 'config-invalid',
      message: '<config>: contextPaths: wrong type. Expected an array, received "AGENTS.md".',
    });
  });

  test('options of the wrong type are named', async () => {
    await expect(createResolver({ workDir: 5 as never })).rejects.toMatchObject({
      code: 'usage',
      message: 'createResolver: options.workDir must be a string',
    });
  });
});

describe('silent or misleading failures', () => {
  test('a package.json whose ctxfiles key is malformed is an error naming it', async () => {
    const root = tempTree({ 'package.json': '{"name": "a",\n "ctxfiles": {\n' });
    const result = await cli(['resolve', '--cwd', '.'], { cwd: root });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^ctxfiles: error: package\.json:\d+:\d+: /);
    // A malformed package.json that only depends on ctxfiles holds no config: it is passed over.
    writeTree(root, { 'package.json': '{"name": "a",\n "dependencies": {"ctxfiles": "^0.1.0"},\n' });
    const passed = await cli(['resolve', '--cwd', '.'], { cwd: root });
    // No error: only the line that says why nothing is printed in an empty project.
    expect(passed).toMatchObject({ code: 0, stdout: '' });
    expect(passed.stderr).toMatch(/^ctxfiles: nothing to print: [^\n]*\n$/);
  });

  test('relative --config is relative to the shell for every command', async () => {
    const root = tempTree({
      'cfg/ctx.json': '{"contextPaths": ["RULES.md"]}',
      'work/RULES.md': 'rules',
    });
    for (const command of ['resolve', 'manifest', 'validate', 'explain', 'prompt']) {
      const result = await cli([command, '--cwd', 'work', '--config', 'cfg/ctx.json'], { cwd: root });
      // The manifest is empty (RULES.md is in the block) and says why on its one line.
      const stderr =
        command === 'manifest' ? expect.stringMatching(/^ctxfiles: nothing to print: no nested/) : '';
      expect([command, result.code, result.stderr]).toEqual([command, 0, stderr]);
    }
  });

  test('validate recognizes a config file by its shape', async () => {
    const root = tempTree({ 'cfg.json': '{"contextPaths": ["AGENTS.md"]}', 'AGENTS.md': 'x' });
    expect(await cli(['validate', 'cfg.json'], { cwd: root })).toEqual({
      code: 0,
      stdout: 'ok cfg.json (0 flows)\n',
      stderr: '',
    });
  });

  test('an unrelated flows/ folder and no config: resolve, prompt and validate succeed', async () => {
    const root = tempTree({ 'AGENTS.md': '# Rules\n', 'flows/ci.yaml': 'on: push\njobs: {a: [' });
    for (const argv of [['resolve', '--agent', 'coder'], ['prompt'], ['validate']]) {
      const result = await cli(argv, { cwd: root });
      expect([argv, result.code, result.stderr]).toEqual([argv, 0, '']);
    }
  });

  test('validate warns about flow globs that match nothing and glob-looking entries', async () => {
    const root = tempTree({
      'ctxfiles.config.json': JSON.stringify({
        contextPaths: ['.github/instructions/*.instructions.md'],
        flows: ['pipelines/*.yaml'],
      }),
    });
    const result = await cli(['validate'], { cwd: root });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe(
      'ctxfiles: warning: ctxfiles.config.json:1:18: contextPaths[0]: ".github/instructions/*.instructions.md" looks like a glob, but entries are matched literally, so it names nothing; list the files or name their directory with a trailing "/" [glob-entry]\n' +
        'ctxfiles: warning: ctxfiles.config.json:1:68: flows: the globs "pipelines/*.yaml" match no file (they are relative to the config file) [flows-unmatched]\n',
    );
  });

  test('glob-entry flags *, ? and {a,b}, not the brackets and parentheses of real directory names', async () => {
    const entries = [
      'src/**/AGENTS.md',
      'docs/{api,cli}.md',
      'a?.md',
      'app/[id]/AGENTS.md',
      'app/(shop)/[...slug]/AGENTS.md',
      'x{1}.md',
    ];
    const root = tempTree({ 'ctxfiles.config.json': JSON.stringify({ contextPaths: entries }) });
    const result = await cli(['validate'], { cwd: root });
    expect(result.code).toBe(0);
    const flagged = [...result.stderr.matchAll(/contextPaths\[\d+\]: "([^"]+)" looks like a glob/g)].map(
      (match) => match[1],
    );
    expect(flagged).toEqual(['src/**/AGENTS.md', 'docs/{api,cli}.md', 'a?.md']);
  });

  test('the {"state": …} line session prints is accepted back by --state', async () => {
    const root = tempTree({ 'AGENTS.md': 'root', 'pkg/AGENTS.md': 'nested' });
    const { Readable } = await import('node:stream');
    const first = await cli(['session'], {
      cwd: root,
      stdin: Readable.from(['{"tool":"read","input":{"file_path":"pkg/a.ts"},"ok":true}\n{"op":"state"}\n']),
    });
    const stateLine = first.stdout.trim().split('\n')[1] as string;
    expect(JSON.parse(stateLine)).toHaveProperty('state.version', 1);
    fs.writeFileSync(path.join(root, 'saved.json'), stateLine);
    const second = await cli(['session', '--state', 'saved.json'], {
      cwd: root,
      stdin: Readable.from(['{"tool":"read","input":{"file_path":"pkg/b.ts"},"ok":true}\n']),
    });
    expect(second).toEqual({ code: 0, stdout: '{"inject":""}\n', stderr: '' });
  });

  test('prompt and session report the diagnostics of what they resolved', async () => {
    const root = tempTree({ 'ctxfiles.config.json': '{"contextPaths": ["AGENTS.md", "../x.md"]}' });
    const warning = /^ctxfiles: warning: .*\.\.\/x\.md.* \[outside-workdir\]$/m;
    expect((await cli(['resolve'], { cwd: root })).stderr).toMatch(warning);
    expect((await cli(['prompt'], { cwd: root })).stderr).toMatch(warning);
    expect((await cli(['session'], { cwd: root })).stderr).toMatch(warning);
    const json = JSON.parse((await cli(['prompt', '--json'], { cwd: root })).stdout) as {
      diagnostics: Array<{ code: string }>;
    };
    expect(json.diagnostics.map((diagnostic) => diagnostic.code)).toContain('outside-workdir');
  });
});

describe('the CLI feels finished', () => {
  test.each(['resolve', 'manifest', 'session', 'prompt', 'explain', 'validate', 'schema', 'mcp'])(
    '%s --help ends with examples',
    async (command) => {
      const result = await cli([command, '--help'], { cwd: process.cwd() });
      expect(result.code).toBe(0);
      const examples = result.stdout.slice(result.stdout.indexOf('\nExamples:\n'));
      expect(examples.match(/^ {2}\$ .*ctxfiles /gm)?.length).toBeGreaterThanOrEqual(2);
      expect(result.stdout.endsWith(examples)).toBe(true);
    },
  );

  test('explain draws ASCII bars unless the locale is UTF-8', () => {
    expect(isUtf8Locale({ LANG: 'en_US.UTF-8' })).toBe(true);
    expect(isUtf8Locale({ LC_ALL: 'C', LANG: 'en_US.UTF-8' })).toBe(false);
    expect(isUtf8Locale({ LC_CTYPE: 'C.utf8' })).toBe(true);
    expect(isUtf8Locale({})).toBe(false);
    const report = {
      total: { bytes: 10, tokens: 2 },
      sections: [{ name: 'identity', bytes: 10, tokens: 2, share: 0.5 }],
      files: [],
      diagnostics: [],
    } as unknown as Parameters<typeof formatExplain>[0];
    expect(formatExplain(report, '/w', { width: 4, ascii: true })).toContain(' ##.. ');
    expect(formatExplain(report, '/w', { width: 4 })).toContain(' ██░░ ');
    expect(formatExplain(report, '/w', 4)).toContain(' ██░░ ');
  });

  test('commander usage errors carry the prefix', async () => {
    const result = await cli(['resolve', '--bogus'], { cwd: process.cwd() });
    expect(result.stderr.split('\n').filter((line) => line !== '')).toEqual([
      "ctxfiles: error: unknown option '--bogus'",
      'ctxfiles: run ctxfiles --help for usage',
    ]);
  });

  test('the JSON Schema: $id, closed top level, a description everywhere, defaults', () => {
    const schema = JSON.parse(fs.readFileSync('schema/config.schema.json', 'utf8')) as Record<
      string,
      unknown
    >;
    expect(schema['$id']).toMatch(/^https:\/\/.*config\.schema\.json$/);
    expect(schema['additionalProperties']).toBe(false);
    // Properties without a natural default: their absence means "not set" (or OpenCode decides).
    const noDefault = new Set([
      '.$schema',
      '.preset',
      '.agents.*.context',
      '.agents.*.context.paths',
      '.session.tools.*.as',
      '.session.tools.*.pathKeys',
      // A mode names both, always: there is nothing to default to.
      '.modes.*.flow',
      '.modes.*.step',
      ...[
        'data',
        'wd',
        'mcpServers',
        'providers',
        'lsp',
        'debug',
        'debugLSP',
        'tui',
        'shell',
        'autoCompact',
      ].map((key) => `.${key}`),
    ]);
    const missing: string[] = [];
    const walk = (node: Record<string, unknown>, at: string) => {
      for (const [key, child] of Object.entries(
        (node['properties'] ?? {}) as Record<string, Record<string, unknown>>,
      )) {
        if (typeof child['description'] !== 'string') missing.push(`${at}.${key}: description`);
        if (!('default' in child) && !noDefault.has(`${at}.${key}`)) missing.push(`${at}.${key}: default`);
        walk(child, `${at}.${key}`);
      }
      const extra = node['additionalProperties'];
      if (typeof extra === 'object' && extra !== null) walk(extra as Record<string, unknown>, `${at}.*`);
    };
    walk(schema, '');
    expect(missing).toEqual([]);
    const wording = (schema['properties'] as Record<string, { properties: Record<string, unknown> }>)[
      'wording'
    ];
    expect(Object.keys(wording?.properties ?? {}).length).toBeGreaterThan(5);
  });

  test('a closed stdout (EPIPE) ends the bin quietly with status 141', async () => {
    const root = tempTree({ 'AGENTS.md': `# Big\n${'line of text\n'.repeat(70_000)}` });
    const child = spawn(process.execPath, [BIN, 'resolve'], {
      cwd: root,
      env: { PATH: process.env['PATH'] ?? '' },
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdout.once('data', () => child.stdout.destroy());
    const code = await new Promise<number | null>((resolve) =>
      child.on('close', (status) => resolve(status)),
    );
    expect(stderr).toBe('');
    expect(code).toBe(141);
  });
});

test('the library serves the committed schema without zod, byte for byte', async () => {
  const { configJsonSchemaText, configJsonSchema } = await import('../src/config/json-schema.js');
  expect(configJsonSchemaText()).toBe(fs.readFileSync('schema/config.schema.json', 'utf8'));
  expect(configJsonSchema()).not.toBe(configJsonSchema());
});
