import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { BIN } from './helpers/cli.js';

// Every shell block of README.md and docs/ either runs here or says why it cannot (issue 41;
// CONTRIBUTING.md, "Commands in the docs"). A block whose info string is `sh runnable` (optionally
// `cwd=DIR`) runs with `sh -e` in a temp copy of examples/, where `npx ctxfiles`, `ctxfiles` and
// `node dist/bin/ctxfiles.cjs` are the built bin; it must exit 0 and print no error. Any other
// `sh` block must follow an HTML comment `<!-- not run: <reason> -->`.

interface Block {
  readonly page: string;
  readonly line: number;
  readonly info: string;
  readonly text: string;
  /** The HTML comment on the line before the fence, if any. */
  readonly before: string;
}

function pages(): string[] {
  const docs = (dir: string): string[] =>
    fs
      .readdirSync(dir, { withFileTypes: true })
      .flatMap((entry) =>
        entry.isDirectory()
          ? docs(path.join(dir, entry.name))
          : entry.name.endsWith('.md')
            ? [path.join(dir, entry.name)]
            : [],
      );
  // docs/conformance.md is written by the lab run (scripts/conformance.mjs), and its commands run the lab.
  return [
    'README.md',
    'CONTRIBUTING.md',
    ...docs('docs').filter((page) => page !== path.join('docs', 'conformance.md')),
  ];
}

/** The fenced blocks of a page whose language is a shell (a fence closes with as many backticks). */
function shellBlocks(page: string): Block[] {
  const lines = fs.readFileSync(page, 'utf8').split('\n');
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i += 1) {
    const open = /^(`{3,})(.*)$/.exec(lines[i] as string);
    if (open === null) continue;
    const [, fence = '', info = ''] = open;
    const start = i;
    const body: string[] = [];
    while (i + 1 < lines.length && !(lines[++i] as string).startsWith(fence)) body.push(lines[i] as string);
    if (/^(?:sh|bash|shell|console)\b/.test(info))
      blocks.push({
        page,
        line: start + 1,
        info: info.trim(),
        text: body.join('\n'),
        before: (lines[start - 1] ?? '').trim(),
      });
  }
  return blocks;
}

const BLOCKS = pages().flatMap(shellBlocks);
const RUNNABLE = BLOCKS.filter((block) => /^sh runnable(?:\s|$)/.test(block.info));

let root = '';
let env: Record<string, string> = {};

beforeAll(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'ctxfiles-docs-')));
  fs.cpSync('examples', path.join(root, 'examples'), { recursive: true });
  fs.symlinkSync(path.resolve('dist'), path.join(root, 'dist'), 'dir');
  const shims = path.join(root, '.shims');
  fs.mkdirSync(shims);
  const node = JSON.stringify(process.execPath);
  // `npx ctxfiles …` and `npx -y ctxfiles …` run the built bin, as npx runs an installed one.
  fs.writeFileSync(
    path.join(shims, 'npx'),
    `#!/bin/sh\nwhile [ "$1" = -y ] || [ "$1" = --yes ]; do shift; done\n[ "$1" = ctxfiles ] || { echo "npx: only ctxfiles here" >&2; exit 127; }\nshift\nexec ${node} ${JSON.stringify(BIN)} "$@"\n`,
    { mode: 0o755 },
  );
  fs.writeFileSync(path.join(shims, 'ctxfiles'), `#!/bin/sh\nexec ${node} ${JSON.stringify(BIN)} "$@"\n`, {
    mode: 0o755,
  });
  env = {
    PATH: `${shims}${path.delimiter}${path.dirname(process.execPath)}${path.delimiter}${process.env['PATH'] ?? ''}`,
    HOME: path.join(root, 'home'),
    XDG_CONFIG_HOME: path.join(root, 'home', '.config'),
    XDG_STATE_HOME: path.join(root, 'home', '.local', 'state'),
    XDG_CACHE_HOME: process.env['XDG_CACHE_HOME'] ?? path.join(root, 'cache'),
  };
  fs.mkdirSync(env['HOME'] as string);
});

afterAll(() => {
  if (root !== '') fs.rmSync(root, { recursive: true, force: true });
});

describe('the shell blocks of README.md and docs/', () => {
  test('each is runnable or says why not', () => {
    const unmarked = BLOCKS.filter(
      (block) => !RUNNABLE.includes(block) && !/^<!-- not run: .+ -->$/.test(block.before),
    ).map((block) => `${block.page}:${block.line}`);
    expect(unmarked).toEqual([]);
    expect(RUNNABLE.length).toBeGreaterThanOrEqual(5);
    expect(RUNNABLE.map((block) => block.page)).toContain('README.md');
  });

  test.each(RUNNABLE.map((block) => [`${block.page}:${block.line}`, block] as const))(
    '%s runs',
    (_name, block) => {
      const cwd = /\bcwd=(\S+)/.exec(block.info)?.[1] ?? '.';
      const result = spawnSync('/bin/sh', ['-e', '-c', block.text], {
        cwd: path.join(root, cwd),
        env,
        encoding: 'utf8',
        timeout: 120_000,
      });
      expect(result.stderr).not.toMatch(/ctxfiles: (?:internal )?error|not found|No such file/);
      expect(result.status).toBe(0);
      expect(result.stdout.length).toBeGreaterThan(0);
    },
    180_000,
  );
});
