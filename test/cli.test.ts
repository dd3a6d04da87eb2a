import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { generateConfigJsonSchemaText } from '../src/config/generate-json-schema.js';
import { cli, spawnBin } from './helpers/cli.js';
import { tempTree } from './helpers/disk.js';

const example = path.resolve('examples/monorepo');

describe('ctxfiles resolve', () => {
  test('prints exactly the block, nothing added', async () => {
    const root = tempTree({ 'AGENTS.md': 'root rules\n' });
    const result = await cli(['resolve', '--cwd', root], { cwd: root });
    expect(result).toEqual({
      code: 0,
      stdout: `# Project-Specific Context\n Make sure to follow the instructions in the context below\n# From:${root}/AGENTS.md\nroot rules\n`,
      stderr: '',
    });
  });

  test('--json has the documented shape and every diagnostic level', async () => {
    const root = tempTree({
      'AGENTS.md': 'a',
      '.opencode.json': JSON.stringify({
        contextPaths: ['AGENTS.md', 'CLAUDE.md', '../x.md', 'A.${flow.id}.md'],
        agents: { coder: { context: { paths: ['AGENTS.md'], mode: 'apend' } } },
      }),
    });
    const result = await cli(['resolve', '--json', '--agent', 'coder'], { cwd: root });
    expect(result.code).toBe(0);
    const json = JSON.parse(result.stdout) as Record<string, unknown>;
    expect(Object.keys(json)).toEqual([
      'workDir',
      'agent',
      'flow',
      'files',
      'text',
      'manifest',
      // Rules are on by default: what each rule found did.
      'rules',
      'diagnostics',
    ]);
    expect(json).toMatchObject({
      workDir: root,
      agent: 'coder',
      flow: null,
      files: [
        {
          path: `${root}/AGENTS.md`,
          layer: 'global',
          entry: 'AGENTS.md',
          bytes: 1,
          sha256: 'ca978112ca1bbdcafac231b39a23dc4da786eff8147c4e72b9807785afee48bb',
        },
      ],
    });
    const diagnostics = json['diagnostics'] as Array<{ level: string; code: string }>;
    expect(diagnostics.map((d) => `${d.level}:${d.code}`).sort()).toEqual([
      'debug:deduped',
      'debug:empty-token',
      'debug:missing',
      'warn:outside-workdir',
      'warn:unknown-mode',
    ]);
  });

  test('warnings go to stderr, the block to stdout', async () => {
    const root = tempTree({
      'AGENTS.md': 'a',
      '.opencode.json': '{"contextPaths": ["AGENTS.md", "../secret"]}',
    });
    const result = await cli(['resolve'], { cwd: root });
    expect(result.code).toBe(0);
    expect(result.stdout.startsWith('# Project-Specific Context')).toBe(true);
    expect(result.stderr).toBe(
      `ctxfiles: warning: ${root}/.opencode.json:1:32: contextPaths[1]: "../secret" is skipped: the entry climbs out of the work dir [outside-workdir]\n`,
    );
  });

  test.each([
    [
      ['resolve', '--agent', 'ghost'],
      1,
      'ctxfiles: error: unknown agent "ghost". Known agents: coder, planner, reviewer.\n',
    ],
    [
      ['resolve', '--flow', 'nope', '--step', 'x'],
      1,
      'ctxfiles: error: unknown flow "nope". Known flows: release.\n',
    ],
    [
      ['resolve', '--flow', 'release', '--step', 'ship'],
      1,
      'ctxfiles: error: unknown step "ship" in flow "release". Known steps: implement, plan, review.\n',
    ],
    [
      ['resolve', '--flow', 'release'],
      2,
      'ctxfiles: error: flow "release" needs a step: one of implement, plan, review\n',
    ],
  ])('%j exits %i', async (argv, code, stderr) => {
    const result = await cli([...argv, '--cwd', example], { cwd: example });
    expect(result).toEqual({ code, stdout: '', stderr });
  });

  test('an invalid config exits 1 naming file, line, column and key', async () => {
    const root = tempTree({ '.opencode.json': '{\n  "contextPaths": [true]\n}' });
    const result = await cli(['resolve'], { cwd: root });
    expect(result).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'ctxfiles: error: .opencode.json:2:20: contextPaths[0]: wrong type. Expected a string, received true.\n',
    });
  });

  test('a work dir that does not exist exits 1', async () => {
    const root = tempTree({});
    const result = await cli(['resolve', '--cwd', 'missing'], { cwd: root });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(`ctxfiles: error: the work dir ${root}/missing cannot be used (ENOENT)\n`);
  });

  const hint = 'ctxfiles: run ctxfiles --help for usage\n';
  test.each([
    [['resolve', '--bogus'], `ctxfiles: error: unknown option '--bogus'\n${hint}`],
    [['nope'], `ctxfiles: error: unknown command 'nope'\n${hint}`],
    [
      ['resolve', '--format', 'html'],
      `ctxfiles: error: option '--format <format>' argument 'html' is invalid. Allowed choices are opencode, xml, reminder, magi, opencode-cli, codex, claude-code, claude-code-2.1.197, copilot, gemini, gemini-full, continue, qwen, pi, cline.\n${hint}`,
    ],
  ])('usage error %j exits 2 and says why', async (argv, stderr) => {
    const result = await cli(argv, { cwd: example });
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(stderr);
    expect(result.stdout).toBe('');
  });

  test('no arguments: the help on stderr, exit 2', async () => {
    const result = await cli([], { cwd: example });
    expect(result.code).toBe(2);
    expect(result.stderr.split('\n')[0]).toBe('Usage: ctxfiles [options] [command]');
    for (const command of ['resolve', 'manifest', 'session', 'prompt', 'explain', 'validate', 'schema'])
      expect(result.stderr).toMatch(new RegExp(`^  ${command} `, 'm'));
    expect(result.stdout).toBe('');
  });
});

describe('ctxfiles validate', () => {
  test('the example is valid', async () => {
    const result = await cli(['validate', '--cwd', example], { cwd: example });
    expect(result).toEqual({ code: 0, stdout: 'ok .opencode.json (1 flow)\n', stderr: '' });
  });

  test.each([
    ['a missing work dir', (root: string) => path.join(root, 'missing'), 'ENOENT'],
    ['a file as work dir', (root: string) => path.join(root, 'file'), 'is not a directory'],
  ])('%s is an unusable work dir: exit 1', async (_name, cwd, message) => {
    const root = tempTree({ file: 'x' });
    const result = await cli(['validate', '--cwd', cwd(root)], { cwd: root });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(message);
  });

  test('lint findings are warnings, not errors', async () => {
    const root = tempTree({
      '.opencode.json':
        '{"contextPaths": ["/etc/x", "A.${agnet}.md"], "agents": {"c": {"context": {"paths": [], "mode": "apend"}}}}',
    });
    const result = await cli(['validate'], { cwd: root });
    expect(result.code).toBe(0);
    expect(result.stderr.split('\n').filter(Boolean)).toEqual([
      'ctxfiles: warning: .opencode.json:1:19: contextPaths[0]: "/etc/x" will be skipped: absolute paths are not allowed [invalid-entry]',
      'ctxfiles: warning: .opencode.json:1:29: contextPaths[1]: "A.${agnet}.md" holds the unknown token ${agnet}; the entry will always be skipped [unknown-token]',
      'ctxfiles: warning: .opencode.json:1:97: agents.c.context.mode: unknown mode "apend" acts as "append" (known modes: replace, append) [unknown-mode]',
    ]);
  });

  test('explicit files: configs and flows, every problem listed, exit 1', async () => {
    const root = tempTree({
      'bad.yaml': 'steps:\n  - id: a\n  - id: a\n',
      'good.yaml': 'steps: [{id: s}]\n',
      '.opencode.json': '{"flows": 3}',
    });
    const result = await cli(['validate', '.opencode.json', 'good.yaml', 'bad.yaml'], { cwd: root });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      'ctxfiles: error: .opencode.json:1:11: flows: wrong type. Expected an array, received 3.\n' +
        'ctxfiles: error: bad.yaml:3:9: steps[1].id: step id "a" is already used by steps[0]\n',
    );
  });
});

test('validate refuses a FIFO and an oversized file named like YAML without reading them', async () => {
  const root = tempTree({ 'big.yaml': `a: "${'x'.repeat(1_100_000)}"\n` });
  execFileSync('mkfifo', [path.join(root, 'pipe.yaml')]);
  // A read of the FIFO would wait for a writer forever: a separate process, which spawnBin stops.
  expect(spawnBin(['validate', 'pipe.yaml'], { cwd: root })).toMatchObject({
    code: 1,
    stderr: 'ctxfiles: error: pipe.yaml: not a regular file\n',
  });
  expect(await cli(['validate', 'big.yaml'], { cwd: root })).toMatchObject({
    code: 1,
    stderr: 'ctxfiles: error: big.yaml: the file is 1100006 bytes; at most 1048576 are accepted\n',
  });
});

describe('ctxfiles schema', () => {
  test('the committed schema matches the zod schema', () => {
    expect(fs.readFileSync('schema/config.schema.json', 'utf8')).toBe(generateConfigJsonSchemaText());
  });

  test('--out writes the file', async () => {
    const root = tempTree({});
    expect((await cli(['schema', '--out', 'schema.json'], { cwd: root })).code).toBe(0);
    expect(JSON.parse(fs.readFileSync(path.join(root, 'schema.json'), 'utf8'))).toMatchObject({
      type: 'object',
      properties: { contextPaths: { type: 'array' } },
    });
  });
});

describe('the built bin', () => {
  test('resolve on the example, plain and --json', () => {
    const plain = spawnBin(['resolve', '--agent', 'coder', '--flow', 'release', '--step', 'implement'], {
      cwd: example,
    });
    expect(plain.code).toBe(0);
    expect(plain.stderr).toBe('');
    expect(plain.stdout).toContain(`# From:${example}/docs/release-implement.md\n`);
    const json = spawnBin(['resolve', '--json', '--flow', 'release', '--step', 'review'], { cwd: example });
    expect(JSON.parse(json.stdout)).toMatchObject({
      agent: 'reviewer',
      flow: { id: 'release', step: 'review' },
    });
  });

  test.each([['validate'], ['schema'], ['resolve']])('%s --help and --version exit 0', (command) => {
    const help = spawnBin([command, '--help'], { cwd: example });
    expect(help.code).toBe(0);
    expect(help.stdout).toContain(`Usage: ctxfiles ${command}`);
    const version = spawnBin([command, '--version'], { cwd: example });
    expect(version).toMatchObject({
      code: 0,
      stdout: `${JSON.parse(fs.readFileSync('package.json', 'utf8')).version}\n`,
    });
  });

  test('exit codes 1 and 2', () => {
    expect(spawnBin(['resolve', '--agent', 'ghost'], { cwd: example }).code).toBe(1);
    expect(spawnBin(['resolve', '--nope'], { cwd: example }).code).toBe(2);
  });

  test('validate and schema', () => {
    expect(spawnBin(['validate'], { cwd: example })).toMatchObject({
      code: 0,
      stdout: 'ok .opencode.json (1 flow)\n',
    });
    expect(spawnBin(['schema'], { cwd: example }).stdout).toBe(generateConfigJsonSchemaText());
  });
});

test('validate reports duplicate keys that a run would silently resolve', async () => {
  const root = tempTree({ '.opencode.json': '{"contextPaths": ["A.md"],\n "contextPaths": ["B.md"]}' });
  const result = await cli(['validate'], { cwd: root });
  expect(result.code).toBe(1);
  expect(result.stderr).toMatch(
    /^ctxfiles: error: \.opencode\.json:2:\d+: not valid JSON: the key "contextPaths" appears twice in one object/,
  );
});

test('commands take only the options that mean something to them', async () => {
  expect((await cli(['schema', '--agent', 'coder'], { cwd: example })).code).toBe(2);
  expect((await cli(['validate', '--flow', 'release'], { cwd: example })).code).toBe(2);
  expect((await cli(['validate', '--json', '--cwd', example], { cwd: example })).code).toBe(0);
});

test('validate --config checks that file instead of searching', async () => {
  const root = tempTree({ '.opencode.json': '{"flows": 3}', 'alt/ctx.json': '{"contextPaths": ["A.md"]}' });
  expect(await cli(['validate', '--config', 'alt/ctx.json'], { cwd: root })).toEqual({
    code: 0,
    stdout: 'ok alt/ctx.json (0 flows)\n',
    stderr: '',
  });
  expect((await cli(['validate'], { cwd: root })).code).toBe(1);
});
