import { createRequire } from 'node:module';
import path from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, test } from 'vitest';
import { createMemoryFileSystem, type MemoryTree } from '../src/fs/memory-file-system.js';
import {
  MAX_DISCOVERY_GLOB_STATES,
  MAX_DISCOVERY_REGEX_PROGRAM,
  MAX_DISCOVERY_YAML_BYTES,
  MAX_RULE_PATTERNS,
  MAX_RULE_REGEX_PROGRAM,
} from '../src/rules/compile-budget.js';
import { discoverRules } from '../src/rules/discover-rules.js';
import { regexProgramSize } from '../src/rules/regex-program-size.js';
import { checkRuleRegex, regexCacheSize } from '../src/rules/rule-regex.js';
import { RULE_SOURCES } from '../src/rules/rule-adapters.js';
import { cli } from './helpers/cli.js';
import { tempTree } from './helpers/disk.js';

// Budgets for what is compiled from repository files (issue #35.3, docs/rules.md "Bounds"): every
// test here failed before them, when each pattern, rule and discovery could compile without end.

const W = '/w';
function discover(tree: MemoryTree) {
  const fs = createMemoryFileSystem({});
  fs.set(W, { dir: true });
  for (const [file, spec] of Object.entries(tree)) fs.set(`${W}/${file}`, spec);
  return discoverRules(fs, { workDir: W, ownerDirs: [W], sources: RULE_SOURCES, maxFileBytes: 1 << 20 });
}
const skips = (found: ReturnType<typeof discover>) =>
  found.skipped.map((rule) => `${rule.name} ${rule.reason}`);

const require = createRequire(import.meta.url);
const { RE2JS } = require('re2js') as typeof import('re2js');
const instructions = (pattern: string) =>
  (RE2JS.compile(pattern) as unknown as { re2Input: { prog: { inst: unknown[] } } }).re2Input.prog.inst
    .length;

describe('content patterns (Continue regex)', () => {
  test.each([
    'TODO|FIXME',
    String.raw`^import .* from ['"]react['"]`,
    String.raw`[A-Z]{2,10}-\d{1,6}`,
    '(a|b)*c+d?',
    '(?i)hello',
    '[]a]{3}',
    'x{2,}',
    'a'.repeat(1000),
    '((a{1,31}){1,31})',
    String.raw`(?:\w{1,100}\s){1,9}`,
    String.raw`\p{Greek}{1,300}[\x{1F600}-\x{1F64F}]`,
    Array.from({ length: 200 }, (_, index) => `w${index}`).join('|'),
  ])('the size counted before compiling bounds the program RE2 builds: %s', (pattern) => {
    expect(regexProgramSize(pattern)).toBeGreaterThanOrEqual(instructions(pattern));
  });

  test('a pattern whose program is too large is refused before it is compiled', () => {
    const pattern = String.raw`(?:\w{1,100}\s){1,9}`.repeat(3);
    expect(regexProgramSize(pattern)).toBeGreaterThan(MAX_RULE_REGEX_PROGRAM);
    expect(checkRuleRegex(pattern)).toMatch(/compiles to more than 4096 instructions/);
    const found = discover({ '.continue/rules/big.md': `---\nregex: '${pattern}'\n---\nBig.\n` });
    expect(skips(found)).toEqual(['big bad regex']);
  });

  test('one discovery compiles at most its budget of instructions; later rules are skipped with a warn', () => {
    const tree: Record<string, string> = {};
    // Each pattern is distinct and about 1,850 instructions: about 21 fit in the budget.
    for (let index = 0; index < 40; index += 1)
      tree[`.continue/rules/r${String(index).padStart(2, '0')}.md`] =
        `---\nregex: 'k${index}(?:\\w{1,100}\\s){1,9}'\n---\nRule ${index}.\n`;
    const found = discover(tree);
    const kept = found.rules.length;
    expect(kept * 1849).toBeLessThanOrEqual(MAX_DISCOVERY_REGEX_PROGRAM);
    expect(kept).toBeGreaterThan(15);
    expect(found.skipped.every((rule) => rule.reason === 'over budget')).toBe(true);
    expect(found.skipped).toHaveLength(40 - kept);
    expect(found.diagnostics.filter((d) => d.code === 'rule-budget')).toHaveLength(40 - kept);
    expect(found.diagnostics.find((d) => d.code === 'rule-budget')?.level).toBe('warn');
  });

  test('the compile cache is bounded by the size of what it holds, not by a count', () => {
    for (let index = 0; index < 60; index += 1)
      expect(checkRuleRegex(`c${index}(?:\\w{1,100}\\s){1,9}`)).toBeNull();
    expect(regexCacheSize()).toBeLessThanOrEqual(MAX_DISCOVERY_REGEX_PROGRAM);
  });
});

describe('globs', () => {
  test('a rule glob has its own state cap, below the one of a config glob', () => {
    // `{1..1500}` alone is about 5,400 states: accepted before, over the rule cap now.
    const found = discover({ '.cursor/rules/r.mdc': '---\nglobs: "src/{1..1500}/*.ts"\n---\nR.\n' });
    expect(skips(found)).toEqual(['r bad glob']);
    expect(found.diagnostics[0]?.message).toMatch(/too many values/);
  });

  test('a rule with more patterns than one rule may have is skipped', () => {
    const globs = Array.from({ length: MAX_RULE_PATTERNS + 1 }, (_, index) => `  - "d${index}/*.ts"`);
    const found = discover({ '.cursor/rules/many.mdc': `---\nglobs:\n${globs.join('\n')}\n---\nMany.\n` });
    expect(skips(found)).toEqual(['many over budget']);
    expect(found.diagnostics[0]?.message).toContain(`more than the ${MAX_RULE_PATTERNS} one rule may have`);
  });

  test('one discovery compiles at most its budget of states; the rules past it are skipped with a warn', () => {
    const tree: Record<string, string> = {};
    const braces = `{${Array.from({ length: 150 }, (_, index) => `d${index}`).join(',')}}`;
    for (let index = 0; index < 200; index += 1)
      tree[`.cursor/rules/r${String(index).padStart(3, '0')}.mdc`] =
        `---\nglobs:\n  - "g${index}/{1..700}/${braces}/**/*.ts"\n---\nRule ${index}.\n`;
    const found = discover(tree);
    expect(found.rules.length).toBeGreaterThan(20);
    expect(found.rules.length).toBeLessThan(200);
    expect(found.rules.length * 3000).toBeLessThanOrEqual(MAX_DISCOVERY_GLOB_STATES);
    expect(new Set(found.skipped.map((rule) => rule.reason))).toEqual(new Set(['over budget']));
    // The message shows the glob cut short, not its 700 characters.
    expect(found.diagnostics.find((d) => d.code === 'rule-budget')?.message.length).toBeLessThan(300);
  });
});

test('frontmatter past the YAML budget of one discovery is not parsed; its rule is skipped', () => {
  const tree: Record<string, string> = {};
  const item = `  - "${'x'.repeat(1000)}"`;
  const block = Array.from({ length: 500 }, () => item).join('\n'); // 0.5 MB a file
  for (let index = 0; index < 6; index += 1)
    tree[`.cursor/rules/r${index}.mdc`] = `---\ndescription:\n${block}\nalwaysApply: true\n---\nR${index}.\n`;
  const found = discover(tree);
  expect(found.rules.length).toBeLessThanOrEqual(Math.floor(MAX_DISCOVERY_YAML_BYTES / block.length));
  expect(found.skipped.map((rule) => rule.reason)).toContain('over budget');
});

test('the hook answers SessionStart, exit 0, with the rules over their caps skipped and named', async () => {
  const huge = String.raw`(?:\w{1,100}\s){1,9}`.repeat(3);
  const root = tempTree({
    '.git/HEAD': 'ref: refs/heads/main\n',
    'AGENTS.md': 'agents root rules',
    '.continue/rules/tabs.md': '---\nalwaysApply: true\n---\nAlways use tabs.\n',
    ...Object.fromEntries(
      Array.from({ length: 3 }, (_, index) => [
        `.continue/rules/r${index}.md`,
        `---\nregex:\n  - '${index}${huge}'\n---\nRule ${index}.\n`,
      ]),
    ),
  });
  const home = tempTree();
  const result = await cli(['hook', 'claude-code'], {
    cwd: root,
    env: { HOME: home, CTXFILES_STATE_DIR: path.join(home, 'sessions') },
    stdin: Readable.from([
      JSON.stringify({ session_id: 's1', cwd: root, hook_event_name: 'SessionStart', source: 'startup' }),
    ]),
  });
  expect(result.code).toBe(0);
  expect(result.stdout).toContain('Always use tabs.');
  expect(result.stderr.match(/compiles to more than 4096 instructions/g)).toHaveLength(3);
});
