import fc from 'fast-check';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { expect, test } from 'vitest';
import { run } from '../src/cli/run.js';
import { tempTree } from './helpers/disk.js';

// Random argument vectors and random --input/--mcp JSON, run in-process: the CLI never throws,
// always exits 0, 1 or 2, never prints a stack, and writes nothing in the work dir (issue 14).

const COMMANDS = [
  'resolve',
  'manifest',
  'session',
  'prompt',
  'explain',
  'validate',
  'schema',
  'mcp',
  'nope',
  '',
];
const FLAGS = [
  '--cwd',
  '--config',
  '--agent',
  '--flow',
  '--step',
  '--format',
  '--json',
  '--input',
  '--mcp',
  '--base',
  '--fragments',
  '--tools',
  '--skills-root',
  '--date',
  '--state',
  '--help',
  '--version',
  '--bogus',
  '-h',
  '--',
];
const VALUES = [
  '.',
  '..',
  'sub',
  'missing',
  'AGENTS.md',
  'ctxfiles.config.json',
  'flows/release.yaml',
  '/dev/null',
  '/nonexistent/x',
  'coder',
  'release',
  'plan',
  'xml',
  'magi',
  'html',
  '',
  '{',
  '[]',
  'read,edit',
  '2026-01-02',
];

/** Any JSON, biased towards the shapes `--input` and `--mcp` expect. */
const json = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.record(
    {
      tools: fc.oneof(fc.array(fc.oneof(fc.string(), fc.record({ name: fc.string() }))), fc.jsonValue()),
      subagents: fc.oneof(
        fc.array(fc.record({ name: fc.string(), description: fc.string() })),
        fc.jsonValue(),
      ),
      mcpServers: fc.oneof(
        fc.array(fc.record({ id: fc.string(), status: fc.string(), toolCount: fc.integer() })),
        fc.jsonValue(),
      ),
      environment: fc.oneof(fc.record({ date: fc.string() }), fc.jsonValue()),
      base: fc.oneof(fc.string(), fc.jsonValue()),
      conflictNotes: fc.jsonValue(),
    },
    { requiredKeys: [] },
  ),
  fc.array(
    fc.record({ id: fc.string(), status: fc.string(), toolCount: fc.jsonValue() }, { requiredKeys: [] }),
  ),
);

const argv = fc.tuple(
  fc.constantFrom(...COMMANDS),
  fc.array(
    fc.oneof(
      fc.constantFrom(...FLAGS),
      fc.constantFrom(...VALUES),
      fc
        .tuple(fc.constantFrom('--input', '--mcp'), json)
        .map(([flag, value]) => `${flag}=${JSON.stringify(value)}`),
      fc.string({ maxLength: 8 }),
    ),
    { maxLength: 7 },
  ),
);

function snapshot(root: string): string {
  const hash = createHash('sha256');
  const walk = (dir: string) => {
    for (const entry of fs
      .readdirSync(dir, { withFileTypes: true })
      .sort((a, b) => a.name.localeCompare(b.name))) {
      const file = path.join(dir, entry.name);
      hash.update(`${path.relative(root, file)}\0`);
      if (entry.isDirectory()) walk(file);
      else if (entry.isFile()) hash.update(fs.readFileSync(file));
    }
  };
  walk(root);
  return hash.digest('hex');
}

test('property: any argument vector exits 0, 1 or 2 without throwing, a stack, or a write', async () => {
  const root = tempTree({
    'AGENTS.md': '# Rules\n',
    'sub/AGENTS.md': '# Sub\n',
    'ctxfiles.config.json': JSON.stringify({ agents: { coder: {} }, flows: ['flows/*.yaml'] }),
    'flows/release.yaml': 'steps:\n  - id: plan\n    agent: coder\n',
  });
  const before = snapshot(root);
  const codes = new Set<number>();
  await fc.assert(
    fc.asyncProperty(argv, async ([command, rest]) => {
      let stderr = '';
      // `schema --out` is the one command that writes, to the file the user names: keep it out.
      // `mcp` serves until stdin ends and `hook` keeps state on disk: both have their own tests.
      const args = [command, ...rest].filter((arg) => !['', '--out', 'mcp', 'hook'].includes(arg));
      const code = await run(args, {
        stdout: { write: () => true },
        stderr: { write: (text: string) => ((stderr += text), true) },
        stdin: Readable.from(['{"op":"state"}\n', 'not json\n']),
        env: {},
        cwd: root,
      });
      codes.add(code);
      expect([0, 1, 2]).toContain(code);
      expect(stderr).not.toMatch(/\n\s+at |internal error/);
    }),
    { numRuns: Number(process.env['FUZZ_RUNS'] ?? 2_000) },
  );
  expect(snapshot(root)).toBe(before);
  // Every outcome is exercised.
  expect([...codes].sort()).toEqual([0, 1, 2]);
}, 240_000);
