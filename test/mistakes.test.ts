import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { describe, expect, test } from 'vitest';
import { run } from '../src/cli/run.js';
import { BIN, cli } from './helpers/cli.js';
import { tempTree } from './helpers/disk.js';

// The mistakes a new user made in issue 27, each with the message it now gets (and where that
// message points) and the exit code. `<root>` stands for the temp work dir.

type Tree = Record<string, string>;

interface Mistake {
  /** What the user did. */
  readonly name: string;
  readonly tree: Tree;
  readonly argv: readonly string[];
  readonly code: number;
  /** Every line expected on stderr, in order (a substring each). */
  readonly stderr: readonly string[];
  /** What stdout holds, exactly, when it matters. */
  readonly stdout?: string;
}

const MISTAKES: readonly Mistake[] = [
  {
    name: 'resolve in an empty project',
    tree: {},
    argv: ['resolve'],
    code: 0,
    stdout: '',
    stderr: [
      'ctxfiles: nothing to print: no instruction file applies here (looked for AGENTS.md, AGENTS.local.md, CLAUDE.md, CLAUDE.local.md, … (12 names), and the rule folders of cursor, claude, copilot, windsurf, cline, kiro, continue, roo, kilo, junie, zed, augment, qwen)',
    ],
  },
  {
    name: 'resolve in a repository of GEMINI.md files',
    tree: { '.git/HEAD': 'x', 'GEMINI.md': 'root', 'a/GEMINI.md': 'a', 'b/c/GEMINI.md': 'c' },
    argv: ['resolve'],
    code: 0,
    stdout: '',
    stderr: ['; 3 GEMINI.md files here: try `--preset gemini-cli`'],
  },
  {
    // Gemini CLI reads AGENTS.md once its settings name it: that is the fix, not another tool's preset.
    name: 'resolve --preset gemini-cli in a repository of AGENTS.md files',
    tree: { '.git/HEAD': 'x', 'AGENTS.md': 'root', 'sub/AGENTS.md': 'sub' },
    argv: ['resolve', '--preset', 'gemini-cli'],
    code: 0,
    stdout: '',
    stderr: [
      'ctxfiles: nothing to print: no instruction file applies here (looked for GEMINI.md from the project down); 2 AGENTS.md files here: Gemini CLI reads them when .gemini/settings.json sets "context": { "fileName": ["AGENTS.md","GEMINI.md"] } (the preset reads that setting too)',
    ],
  },
  {
    name: 'manifest in a repository of GEMINI.md files',
    tree: { '.git/HEAD': 'x', 'a/GEMINI.md': 'a', 'b/GEMINI.md': 'b' },
    argv: ['manifest'],
    code: 0,
    stdout: '',
    stderr: [
      'ctxfiles: nothing to print: no nested instruction file below the work dir (looked for AGENTS.md, AGENTS.local.md, CLAUDE.md, CLAUDE.local.md, … (12 names)) and no rule on request; 2 GEMINI.md files here: try `--preset gemini-cli`',
    ],
  },
  {
    name: 'an entry with an unset variable',
    tree: { '.opencode.json': '{"contextPaths": ["${env.NOPE}/AGENTS.md"]}' },
    argv: ['resolve'],
    code: 0,
    stdout: '',
    stderr: ['"${env.NOPE}/AGENTS.md" is skipped: the environment variable NOPE is not set (or is empty)'],
  },
  {
    name: 'only glob rules here',
    tree: { '.cursor/rules/ts.mdc': '---\nglobs: "*.ts"\n---\nTypes.' },
    argv: ['resolve'],
    code: 0,
    stdout: '',
    stderr: ['; 1 glob rule applies only to matching paths (--paths P)'],
  },
  {
    name: 'a budget too small for any file',
    tree: {
      'AGENTS.md': 'hello there world, this is long',
      '.opencode.json': '{"budget": {"maxTokens": 3}}',
    },
    argv: ['resolve'],
    code: 0,
    stdout: '',
    stderr: [
      'ctxfiles: warning: <root>/AGENTS.md is left out to fit the budget [budget-dropped]',
      'ctxfiles: nothing to print: the budget (budget.maxBytes or budget.maxTokens) leaves every file out',
    ],
  },
  {
    name: '--rule nope',
    tree: { 'AGENTS.md': 'a' },
    argv: ['resolve', '--rule', 'nope'],
    code: 0,
    stderr: [
      'ctxfiles: warning: no rule is named "nope"; see `ctxfiles explain` for the rules found [unknown-rule]',
    ],
  },
  {
    name: '--rule nope with rules off',
    tree: { 'AGENTS.md': 'a', '.opencode.json': '{"rules": {"sources": []}}' },
    argv: ['resolve', '--rule', 'nope'],
    code: 0,
    stderr: [
      'ctxfiles: warning: rule names given (nope) change nothing: rules.sources is [] in the config, so no rule is read [rules-off]',
    ],
  },
  {
    name: '--paths outside the work dir',
    tree: { 'AGENTS.md': 'a' },
    argv: ['resolve', '--paths', '../../etc/passwd'],
    code: 0,
    stderr: [
      'ctxfiles: warning: paths: ../../etc/passwd is outside the work dir <root>; no rule can match it [outside-workdir]',
    ],
  },
  {
    name: 'flow step keys misspelled (agnet, contxt)',
    tree: {
      '.ctxfiles/flows/f.yaml': 'steps:\n  - id: a\n    agnet: coder\n    contxt: {paths: [A.md]}\n',
    },
    argv: ['validate'],
    code: 1,
    stderr: [
      'ctxfiles: error: .ctxfiles/flows/f.yaml:3:5: steps[0].agnet: unknown key "agnet". Did you mean "agent"?',
      'ctxfiles: error: .ctxfiles/flows/f.yaml:4:5: steps[0].contxt: unknown key "contxt". Did you mean "context"?',
    ],
  },
  {
    name: 'a template key misspelled in an included file',
    tree: {
      '.ctxfiles/flows/f.yaml': 'include: [../t.yml]\nsteps:\n  - id: a\n',
      '.ctxfiles/t.yml': 'templates:\n  base:\n    extend: other\n',
    },
    argv: ['validate'],
    code: 1,
    stderr: ['.ctxfiles/t.yml:3:5: templates.base.extend: unknown key "extend". Did you mean "extends"?'],
  },
  {
    name: 'flow file key misspelled (stpes)',
    tree: { '.ctxfiles/flows/f.yaml': 'stpes:\n  - id: a\n' },
    argv: ['validate'],
    code: 1,
    stderr: ['.ctxfiles/flows/f.yaml:1:1: stpes: unknown key "stpes". Did you mean "steps"?'],
  },
  {
    name: 'a step names an agent the config does not declare: validate',
    tree: {
      '.opencode.json': '{"agents": {"coder": {}}}',
      '.ctxfiles/flows/f.yaml': 'steps:\n  - id: a\n    agent: codr\n',
    },
    argv: ['validate'],
    code: 1,
    stderr: [
      'ctxfiles: error: .ctxfiles/flows/f.yaml:3:12: steps[0].agent: unknown agent "codr" in flow "f", step "a". Known agents: coder.',
    ],
  },
  {
    name: 'a step names an agent the config does not declare: resolve',
    tree: {
      '.opencode.json': '{"agents": {"coder": {}}}',
      '.ctxfiles/flows/f.yaml': 'steps:\n  - id: a\n    agent: codr\n',
    },
    argv: ['resolve', '--flow', 'f', '--step', 'a'],
    code: 1,
    stderr: [
      'ctxfiles: error: .ctxfiles/flows/f.yaml:3:12: steps[0].agent: unknown agent "codr". Known agents: coder.',
    ],
  },
  {
    name: 'extra step keys far from any ctxfiles key pass through',
    tree: { '.ctxfiles/flows/f.yaml': 'steps:\n  - id: a\n    prompt: Plan it.\n    model: m\n' },
    argv: ['validate'],
    code: 0,
    stderr: [],
    stdout: 'ok no config file found; defaults apply (1 flow)\n',
  },
  {
    name: 'a misspelled flag: every line of the usage error has the prefix',
    tree: {},
    argv: ['resolve', '--agnet', 'coder'],
    code: 2,
    stderr: [
      "ctxfiles: error: unknown option '--agnet'",
      'ctxfiles: (Did you mean --agent?)',
      'ctxfiles: run ctxfiles --help for usage',
    ],
  },
  {
    name: 'manifest --format xml',
    tree: { 'a/AGENTS.md': 'a' },
    argv: ['manifest', '--format', 'xml'],
    code: 0,
    stderr: ['ctxfiles: warning: --format xml changes nothing here: the manifest has one form'],
  },
  {
    name: 'ctxfiles help hook',
    tree: {},
    argv: ['help', 'hook'],
    code: 0,
    stderr: [],
  },
  {
    name: 'mcp --user-config is an option of mcp',
    tree: {},
    argv: ['mcp', '--help'],
    code: 0,
    stderr: [],
  },
  {
    name: 'list flags take repeated, spaced and comma-separated values alike',
    tree: { 'AGENTS.md': 'a' },
    argv: ['explain', '--tools', 'read,edit', '--tools', 'grep', '--json'],
    code: 0,
    stderr: [],
  },
  {
    name: 'mode: "prepend" on an agent',
    tree: {
      'AGENTS.md': 'a',
      '.opencode.json': '{"agents": {"coder": {"context": {"paths": ["A.md"], "mode": "prepend"}}}}',
    },
    argv: ['resolve', '--agent', 'coder'],
    code: 0,
    stderr: [
      'ctxfiles: warning: <root>/.opencode.json:1:62: agents.coder.context.mode: unknown mode "prepend" on the agent layer acts as "append" (known modes: replace, append) [unknown-mode]',
    ],
  },
  {
    name: 'an entry outside the work dir',
    tree: { 'AGENTS.md': 'a', '.opencode.json': '{"contextPaths": ["AGENTS.md", "../x.md"]}' },
    argv: ['resolve'],
    code: 0,
    stderr: [
      'ctxfiles: warning: <root>/.opencode.json:1:32: contextPaths[1]: "../x.md" is skipped: the entry climbs out of the work dir [outside-workdir]',
    ],
  },
  {
    name: 'a missing include names the file that includes it',
    tree: { '.ctxfiles/flows/a.yaml': 'id: rel\ninclude: [nope.yaml]\nsteps:\n  - id: a\n' },
    argv: ['validate'],
    code: 1,
    stderr: [
      'ctxfiles: error: .ctxfiles/flows/a.yaml:2:11: include[0]: the include "nope.yaml" names .ctxfiles/flows/nope.yaml, which does not exist',
    ],
  },
  {
    name: 'a duplicate flow id names both lines',
    tree: {
      '.ctxfiles/flows/a.yaml': 'id: rel\nsteps:\n  - id: a\n',
      '.ctxfiles/flows/b.yaml': '# the same id\nid: rel\nsteps:\n  - id: a\n',
    },
    argv: ['validate'],
    code: 1,
    stderr: [
      'ctxfiles: error: .ctxfiles/flows/b.yaml:2:5: id: flow id "rel" is already defined in .ctxfiles/flows/a.yaml:1:5',
    ],
  },
];

describe('the mistakes of issue 27', () => {
  test.each(MISTAKES)('$name', async (mistake) => {
    const root = tempTree(mistake.tree);
    const result = await cli(mistake.argv, { cwd: root });
    expect(result.code).toBe(mistake.code);
    if (mistake.stdout !== undefined) expect(result.stdout).toBe(mistake.stdout);
    const lines = result.stderr.replaceAll(root, '<root>').split('\n');
    let at = 0;
    for (const expected of mistake.stderr) {
      const found = lines.findIndex((line, index) => index >= at && line.includes(expected));
      expect(found, `${expected}\nin\n${result.stderr}`).toBeGreaterThanOrEqual(0);
      at = found + 1;
    }
  });
});

test('the help of hook and mcp names --user-config; prompt got every tool', async () => {
  const root = tempTree({ 'AGENTS.md': 'a' });
  expect((await cli(['help', 'hook'], { cwd: root })).stdout).toContain('--user-config <file>');
  expect((await cli(['mcp', '--help'], { cwd: root })).stdout).toContain('--user-config <file>');
  const prompt = await cli(['prompt', '--tools', 'read,edit', '--tools', 'grep'], { cwd: root });
  expect(prompt.stdout).toContain('["read","edit","grep"]');
});

describe('output', () => {
  test('warnings come before the output, so a reader that stops early cannot lose them', async () => {
    const root = tempTree({
      'AGENTS.md': 'a',
      '.opencode.json': '{"contextPaths": ["AGENTS.md", "../x.md"]}',
    });
    const order: string[] = [];
    await run(['resolve'], {
      stdout: { write: (text: string) => order.push(`out:${text.slice(0, 9)}`) },
      stderr: { write: (text: string) => order.push(`err:${text.slice(0, 17)}`) },
      env: {},
      cwd: root,
    });
    expect(order).toEqual(['err:ctxfiles: warning', 'out:# Project']);
  });

  test('a full disk: one line on stderr, exit 1', () => {
    if (!fs.existsSync('/dev/full')) return;
    const root = tempTree({ 'AGENTS.md': 'a' });
    const out = fs.openSync('/dev/full', 'w');
    try {
      const result = spawnSync(process.execPath, [BIN, 'resolve'], {
        cwd: root,
        stdio: ['ignore', out, 'pipe'],
        encoding: 'utf8',
        timeout: 20_000,
      });
      expect(result.status).toBe(1);
      expect(result.stderr).toBe('ctxfiles: error: cannot write the output to stdout (ENOSPC)\n');
    } finally {
      fs.closeSync(out);
    }
  });

  test('stdout closed before the run (`>&-`): Node opens /dev/null there, as for stdio ignore: exit 0', () => {
    if (process.platform !== 'linux') return;
    const root = tempTree({ 'AGENTS.md': 'a' });
    // Node cannot tell this from `stdio: 'ignore'` (test/stdio-ignore.test.ts): both leave /dev/null
    // open read-write on fd 1, where every write succeeds.
    const result = spawnSync('/bin/sh', ['-c', `"${process.execPath}" "${BIN}" resolve >&-`], {
      cwd: root,
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect([result.status, result.stderr]).toEqual([0, '']);
    // `> /dev/null` is a choice, not a fault.
    const discarded = spawnSync('/bin/sh', ['-c', `"${process.execPath}" "${BIN}" resolve >/dev/null`], {
      cwd: root,
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect([discarded.status, discarded.stderr]).toEqual([0, '']);
  });
});
