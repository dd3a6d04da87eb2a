import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, test } from 'vitest';
import { diskKindOf, shellPaths, splitCommand } from '../src/hooks/shell-paths.js';
import { cli } from './helpers/cli.js';
import { tempTree } from './helpers/disk.js';

describe('splitCommand: words as the shell splits them, nothing expanded', () => {
  test.each([
    ['cat a.ts', [['cat', 'a.ts']]],
    [`cat 'my file.ts' "other file.ts" x\\ y.ts`, [['cat', 'my file.ts', 'other file.ts', 'x y.ts']]],
    ['cat a|grep b;ls c&&wc d||e', [['cat', 'a'], ['grep', 'b'], ['ls', 'c'], ['wc', 'd'], ['e']]],
    ['sed -n 1,5p <in.txt >out.txt 2>&1', [['sed', '-n', '1,5p', 'in.txt', 'out.txt', '2'], ['1']]],
    ['cat src/*.ts lib/**/x.?s *.md', [['cat', 'src', 'lib', null]]],
    ['cat $HOME/x "$DIR/y" `pwd`/z ~/w a/$B', [['cat', null, null, null, null, 'a']]],
    ['cat "a\\"b" \'c"d\' "e\\$f"', [['cat', 'a"b', 'c"d', 'e$f']]],
    ['ls # a comment\ncat x', [['ls'], ['cat', 'x']]],
    ['echo a#b', [['echo', 'a#b']]],
    [
      '(cd pkg && cat x)',
      [
        ['cd', 'pkg'],
        ['cat', 'x'],
      ],
    ],
    ["cat 'unterminated", [['cat', 'unterminated']]],
    ['', []],
  ])('%j', (command, expected) => {
    expect(splitCommand(command)).toEqual(expected);
  });
});

describe('shellPaths: only words naming an existing file or directory inside the root', () => {
  const tree = {
    'AGENTS.md': 'root',
    'packages/app/AGENTS.md': 'app rules',
    'packages/app/src/index.ts': '',
    'packages/app/src/my file.ts': '',
    'docs/guide.md': '',
  };
  function setup() {
    const root = tempTree(tree);
    const outside = tempTree({ 'secret.txt': 'x' });
    fs.symlinkSync(outside, path.join(root, 'link'));
    const run = (command: string, cwd = root) => {
      const found = shellPaths(command, { cwd, root, kindOf: diskKindOf });
      const rel = (file: string) => path.relative(root, file);
      return { files: found.files.map(rel), directories: found.directories.map(rel) };
    };
    return { root, outside, run };
  }

  test.each([
    ['cat packages/app/src/index.ts', ['packages/app/src/index.ts'], []],
    ['cat "packages/app/src/my file.ts" | head -5', ['packages/app/src/my file.ts'], []],
    ["cat 'packages/app/src/my file.ts'", ['packages/app/src/my file.ts'], []],
    ['cat packages/app/src/my\\ file.ts', ['packages/app/src/my file.ts'], []],
    ['ls packages/app/src/*.ts', [], ['packages/app/src']],
    ['rg -n TODO packages/app --glob=*.ts', [], ['packages/app']],
    ['grep -r x --include=*.md docs', [], ['docs']],
    ['sed --file=docs/guide.md x', ['docs/guide.md'], []],
    ['cd packages/app && cat src/index.ts', ['packages/app/src/index.ts'], []],
    ['cd packages && cd app && ls src', [], ['packages/app/src']],
    ['cd /tmp && cat src/index.ts', [], []],
    ['cd nowhere; cat docs/guide.md', [], []],
    ['cd .. && cat docs/guide.md', [], []],
    ['cd packages/app; cd -; cat src/index.ts', [], []],
    [`cd "packages/app" && cat 'src/index.ts' | grep -c x`, ['packages/app/src/index.ts'], []],
    ["find packages -name '*.ts' | xargs cat", [], ['packages']],
    [
      'git diff -- packages/app/src/index.ts docs/guide.md',
      ['packages/app/src/index.ts', 'docs/guide.md'],
      [],
    ],
    ['cat missing.ts docs/nope.md', [], []],
    ['cat link/secret.txt ../x /etc/passwd', [], []],
    ['cat $ROOT/docs/guide.md "${X}" `find .`', [], []],
    ['echo packages docs', [], ['packages', 'docs']],
    ['./packages/app/src/index.ts --help', ['packages/app/src/index.ts'], []],
    ['packages', [], []], // a command's name without a slash is a command
    ['cat .', [], []], // the root itself is the agent's own business
  ])('%j', (command, files, directories) => {
    const { run } = setup();
    expect(run(command)).toEqual({ files, directories });
  });

  test('relative words resolve against the directory the command ran in', () => {
    const { root, run } = setup();
    expect(run('cat src/index.ts', path.join(root, 'packages/app'))).toEqual({
      files: ['packages/app/src/index.ts'],
      directories: [],
    });
    expect(run('cd / && cat docs/guide.md')).toEqual({ files: [], directories: [] });
    expect(run(`cd ${root} && cat docs/guide.md`, path.join(root, 'packages'))).toEqual({
      files: ['docs/guide.md'],
      directories: [],
    });
  });

  test('a command of 100,000 words looks up at most 64 of them', () => {
    const { root } = setup();
    let looked = 0;
    shellPaths(`cat ${'docs/guide.md '.repeat(100_000)}`, {
      cwd: root,
      root,
      kindOf: () => {
        looked += 1;
        return 'file';
      },
    });
    expect(looked).toBeLessThanOrEqual(64);
  });
});

describe('ctxfiles hook codex', () => {
  const tree = {
    'AGENTS.md': 'root rules',
    'packages/app/AGENTS.md': 'app rules',
    'packages/app/src/index.ts': '',
    'packages/lib/AGENTS.md': 'lib rules',
  };
  function setup() {
    const root = tempTree(tree);
    const stateDir = path.join(tempTree(), 'sessions');
    const hook = async (event: Record<string, unknown>, ...flags: string[]) => {
      const result = await cli(['hook', 'codex', ...flags], {
        cwd: root,
        env: { CTXFILES_STATE_DIR: stateDir },
        stdin: Readable.from([JSON.stringify({ session_id: 's1', cwd: root, model: 'm', ...event })]),
      });
      return { ...result, stdout: result.stdout.split(root).join('<root>') };
    };
    const bash = (command: string) => ({
      hook_event_name: 'PostToolUse',
      tool_name: 'Bash',
      tool_use_id: 'c1',
      tool_input: { command },
      tool_response: 'ok',
    });
    return { root, hook, bash };
  }
  const contextOf = (stdout: string) =>
    (JSON.parse(stdout) as { hookSpecificOutput: { hookEventName: string; additionalContext: string } })
      .hookSpecificOutput;

  test('session start adds the manifest in the answer Codex reads', async () => {
    const { hook } = setup();
    const result = await hook({ hook_event_name: 'SessionStart', source: 'startup' });
    expect(result.stderr).toBe('');
    const output = contextOf(result.stdout);
    expect(output.hookEventName).toBe('SessionStart');
    expect(output.additionalContext).toContain('packages/app/AGENTS.md');
  });

  test('a shell command adds nothing unless --shell-paths; then the nested file, once, in Codex own frame', async () => {
    const { hook, bash } = setup();
    expect(await hook(bash('cat packages/app/src/index.ts'))).toEqual({ code: 0, stdout: '', stderr: '' });
    const first = await hook(bash('cd packages/app && sed -n 1,20p "src/index.ts" | head'), '--shell-paths');
    expect(first.stderr).toBe('');
    const output = contextOf(first.stdout);
    expect(output.hookEventName).toBe('PostToolUse');
    expect(output.additionalContext).toBe(
      '# AGENTS.md instructions for <root>/packages/app\n\n<INSTRUCTIONS>\napp rules\n</INSTRUCTIONS>',
    );
    const again = await hook(bash('cat packages/app/src/index.ts'), '--shell-paths');
    expect(again.stdout).toBe('');
  });

  test('an apply_patch body names the files it adds, updates, moves and deletes', async () => {
    const { hook } = setup();
    const patch = [
      '*** Begin Patch',
      '*** Add File: packages/lib/new.ts',
      '+export {};',
      '*** End Patch',
    ].join('\n');
    const result = await hook({
      hook_event_name: 'PostToolUse',
      tool_name: 'apply_patch',
      tool_use_id: 'c2',
      tool_input: { command: patch },
      tool_response: 'Success.',
    });
    expect(result.stderr).toBe('');
    expect(contextOf(result.stdout).additionalContext).toContain('lib rules');
  });

  // The lab cannot make Codex compact (exec mode, one short turn), so its events are checked here:
  // PreCompact re-arms what the compaction takes out of view; the SessionStart that follows with
  // source `compact` starts the session's record over.
  test('after PreCompact the nested file and the start text arrive again, once', async () => {
    const { hook, bash } = setup();
    await hook({ hook_event_name: 'SessionStart', source: 'startup' });
    const read = () => hook(bash('cat packages/app/src/index.ts'), '--shell-paths');
    expect(contextOf((await read()).stdout).additionalContext).toContain('app rules');
    expect((await read()).stdout).toBe('');
    const compact = await hook({ hook_event_name: 'PreCompact', trigger: 'auto' }, '--shell-paths');
    expect(compact.stderr).toBe('');
    const after = contextOf((await read()).stdout).additionalContext;
    expect(after.split('app rules').length - 1).toBe(1);
    expect(after).toContain('packages/app/AGENTS.md');
    expect((await read()).stdout).toBe('');
  });

  test('a SessionStart with source compact starts over; resume does not', async () => {
    const { hook, bash } = setup();
    const read = () => hook(bash('cat packages/app/src/index.ts'), '--shell-paths');
    await hook({ hook_event_name: 'SessionStart', source: 'startup' });
    expect(contextOf((await read()).stdout).additionalContext).toContain('app rules');
    await hook({ hook_event_name: 'SessionStart', source: 'resume' });
    expect((await read()).stdout).toBe('');
    await hook({ hook_event_name: 'SessionStart', source: 'compact' });
    expect(contextOf((await read()).stdout).additionalContext).toContain('app rules');
  });
});
