import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { createMemoryFileSystem, type MemoryTree } from '../src/fs/memory-file-system.js';
import { discoverRules, type DiscoverRulesOptions } from '../src/rules/discover-rules.js';
import { memoryResolver } from './helpers/memory.js';

/*
 * What Roo Code reads from `.roo/rules/` and `.roo/rules-<mode>/`: RooCodeInc/Roo-Code 3.52.1
 * (commit cb836567180a3ff1da6d082f3178b90c3bd22a70), src/core/prompts/sections/custom-instructions.ts:
 * `readTextFilesFromDirectory` lists a folder recursively and keeps every file (symlinks followed),
 * whatever its extension and dot files included, except the names `shouldIncludeRuleFile` passes
 * over (cache and system files); it sorts them by file name, lower-cased, with `localeCompare`, and
 * sends each file's text as written (trimmed), frontmatter and all. `addCustomInstructions` puts the
 * mode's folder before `.roo/rules/`. The expectations below are what that code printed for the same
 * tree (`addCustomInstructions('', '', cwd, 'code')`, run against the source at that commit).
 */

const W = '/w';

/** The tree the expectations were taken from. */
const ROO_TREE: MemoryTree = {
  '.roo/rules/rules.md': 'rules md',
  '.roo/rules/b/a.xml': '<a/>',
  '.roo/rules/A.txt': 'A txt',
  '.roo/rules/B.md': 'B md',
  '.roo/rules/10_x.xml': 'ten',
  '.roo/rules/1_y.xml': 'one',
  '.roo/rules/.hidden-rule': 'hidden',
  '.roo/rules/notes': 'notes',
  '.roo/rules/.config/deep.md': 'deep',
  // Passed over by Roo Code as cache and system files.
  '.roo/rules/cache.log': 'LOG',
  '.roo/rules/x.md.swp': 'SWP',
  '.roo/rules/Thumbs.db': 'THUMBS',
  '.roo/rules/.DS_Store': 'DS',
  '.roo/rules/fm.md': '---\nglobs: "*.ts"\n---\nbody\n',
  '.roo/rules/open.md': '---\nno close\n',
  '.roo/rules-code/z.xml': '<z/>',
  '.roo/rules-code/a.md': 'code a',
};

/** The texts Roo Code 3.52.1 sends for {@link ROO_TREE} in mode `code`, in its order. */
const ROO_CODE_MODE = [
  'code a',
  '<z/>',
  'hidden',
  'one',
  'ten',
  'A txt',
  '<a/>',
  'B md',
  'deep',
  '---\nglobs: "*.ts"\n---\nbody',
  'notes',
  '---\nno close',
  'rules md',
];

function discover(
  tree: MemoryTree,
  options: Partial<DiscoverRulesOptions> = {},
  listOrder?: (names: readonly string[]) => readonly string[],
) {
  const fs = createMemoryFileSystem({}, listOrder === undefined ? {} : { listOrder });
  fs.set(W, { dir: true });
  for (const [file, spec] of Object.entries(tree)) fs.set(`${W}/${file}`, spec);
  return discoverRules(fs, { workDir: W, ownerDirs: [W], sources: ['roo'], maxFileBytes: 1024, ...options });
}

describe('roo: the files Roo Code reads, in its order (Roo-Code 3.52.1 custom-instructions.ts)', () => {
  test('every extension, dot files, cache files passed over; mode folder first; names drop the last extension', () => {
    const found = discover(ROO_TREE);
    expect(found.rules.map((rule) => [rule.relativePath, rule.name, rule.agents.only])).toEqual([
      ['.roo/rules-code/a.md', 'a', ['code']],
      ['.roo/rules-code/z.xml', 'z', ['code']],
      ['.roo/rules/.hidden-rule', '.hidden-rule', []],
      // Collated: `_` before digits (code units would put 10_x first).
      ['.roo/rules/1_y.xml', '1_y', []],
      ['.roo/rules/10_x.xml', '10_x', []],
      // Case ignored (code units would put B.md before a.xml); subfolders interleaved by file name.
      ['.roo/rules/A.txt', 'A', []],
      ['.roo/rules/b/a.xml', 'b/a', []],
      ['.roo/rules/B.md', 'B', []],
      ['.roo/rules/.config/deep.md', '.config/deep', []],
      ['.roo/rules/fm.md', 'fm', []],
      ['.roo/rules/notes', 'notes', []],
      ['.roo/rules/open.md', 'open', []],
      ['.roo/rules/rules.md', 'rules', []],
    ]);
    expect(found.rules.every((rule) => rule.kind === 'always')).toBe(true);
    expect(found.skipped).toEqual([]);
    expect(found.diagnostics).toEqual([]);
  });

  test('the text is sent as written: frontmatter is neither read nor left out, an open fence is no fault', () => {
    const found = discover(ROO_TREE);
    const text = (name: string) => found.rules.find((rule) => rule.name === name)?.text;
    expect(text('fm')).toBe('---\nglobs: "*.ts"\n---\nbody\n');
    expect(found.rules.find((rule) => rule.name === 'fm')?.globs).toEqual([]);
    expect(text('open')).toBe('---\nno close\n');
  });

  test('through resolve --agent code: the rules layer in Roo Code’s order', async () => {
    const tree = Object.fromEntries(Object.entries(ROO_TREE).map(([file, text]) => [`${W}/${file}`, text]));
    const { resolver } = await memoryResolver(tree, { rules: { sources: ['roo'] } });
    const result = await resolver.resolve({ agent: 'code', manifest: false });
    const layer = result.files.filter((file) => file.layer === 'rules').map((file) => file.text.trim());
    expect(layer).toEqual(ROO_CODE_MODE);
    // Without a mode, the mode folder's files are left out, as Roo Code leaves out other modes'.
    const none = await resolver.resolve({ manifest: false });
    const plain = none.files.filter((file) => file.layer === 'rules').map((file) => file.text.trim());
    expect(plain).toEqual(ROO_CODE_MODE.slice(2));
  });

  test('the order does not depend on the order the filesystem lists entries in', () => {
    const expected = discover(ROO_TREE).rules.map((rule) => rule.relativePath);
    fc.assert(
      fc.property(fc.integer(), (seed) => {
        const shuffle = (names: readonly string[]) =>
          [...names].sort((a, b) => hash(`${seed}${a}`) - hash(`${seed}${b}`));
        expect(discover(ROO_TREE, {}, shuffle).rules.map((rule) => rule.relativePath)).toEqual(expected);
      }),
      { numRuns: 50 },
    );
  });

  test('files whose lower-cased names are equal keep a fixed order: by path in code units', () => {
    const found = discover({ '.roo/rules/b/x.md': 'b', '.roo/rules/a/X.md': 'a', '.roo/rules/X.md': 'top' });
    expect(found.rules.map((rule) => rule.relativePath)).toEqual([
      '.roo/rules/X.md',
      '.roo/rules/a/X.md',
      '.roo/rules/b/x.md',
    ]);
  });

  test('the RooCodeInc/Roo-Code repository’s own rule folders: all 39 files, the 32 XML ones included', () => {
    // The paths (not the contents) of `.roo/` in RooCodeInc/Roo-Code at commit cb836567.
    const modes: Record<string, string[]> = {
      code: ['use-safeWriteJson.md'],
      debug: ['cli.md'],
      'docs-extractor': ['1_extraction_workflow.xml', '2_verification_workflow.xml', '3_output_format.xml'],
      'issue-fixer': [
        '1_Workflow.xml',
        '2_best_practices.xml',
        '3_common_patterns.xml',
        '4_github_cli_usage.xml',
        '5_pull_request_workflow.xml',
        '6_testing_guidelines.xml',
        '7_communication_style.xml',
        '8_github_communication_guidelines.xml',
        '9_pr_template.xml',
      ],
      'issue-investigator': [
        '1_workflow.xml',
        '2_best_practices.xml',
        '3_common_patterns.xml',
        '4_tool_usage.xml',
        '5_examples.xml',
        '6_communication.xml',
      ],
      'issue-writer': [
        '1_workflow.xml',
        '3_best_practices.xml',
        '4_common_mistakes_to_avoid.xml',
        '5_examples.xml',
      ],
      'merge-resolver': [
        '1_workflow.xml',
        '2_best_practices.xml',
        '3_tool_usage.xml',
        '4_complete_example.xml',
        '5_communication.xml',
      ],
      'pr-fixer': [
        '1_workflow.xml',
        '2_best_practices.xml',
        '3_common_patterns.xml',
        '4_tool_usage.xml',
        '5_examples.xml',
      ],
      translate: [
        '001-general-rules.md',
        'instructions-de.md',
        'instructions-zh-cn.md',
        'instructions-zh-tw.md',
      ],
    };
    const tree: Record<string, string> = {
      '.roo/rules/rules.md': 'x',
      '.roo/commands/commit.md': 'not a rule',
      '.roo/guidance/roo-translator.md': 'not a rule',
      '.roo/skills/evals-context/SKILL.md': 'not a rule',
      '.roo/roomotes.yml': 'not a rule',
    };
    for (const [mode, files] of Object.entries(modes))
      for (const file of files) tree[`.roo/rules-${mode}/${file}`] = 'x';
    const found = discover(tree);
    expect(found.rules).toHaveLength(39);
    expect(found.rules.filter((rule) => rule.relativePath.endsWith('.xml'))).toHaveLength(32);
    expect(
      found.rules.filter((rule) => rule.agents.only[0] === 'issue-fixer').map((rule) => rule.name),
    ).toEqual(modes['issue-fixer']?.map((file) => file.slice(0, -'.xml'.length)));
    expect(found.rules.some((rule) => /commands|guidance|skills|roomotes/.test(rule.relativePath))).toBe(
      false,
    );
  });

  test('what ctxfiles does not read and Roo Code does is a warn, never silent', () => {
    const found = discover(
      { '.roo/rules/ok.md': 'ok', '.roo/rules/bell\u0007.md': 'x', '.roo/rules/1/2/3/deep.xml': 'deep' },
      { maxDepth: 2 },
    );
    expect(found.rules.map((rule) => rule.name)).toEqual(['ok']);
    expect(found.diagnostics.map((d) => [d.level, d.code, d.message])).toEqual([
      [
        'warn',
        'unsafe-name',
        '"/w/.roo/rules/bell\\u0007.md" holds control characters; it is not read for roo rules',
      ],
      [
        'warn',
        'rule-limit',
        '"/w/.roo/rules/1/2/3" is more than 2 folders deep; it is not read for roo rules',
      ],
    ]);
  });

  test('a binary file is a warn, as for every rule', () => {
    const found = discover({ '.roo/rules/logo.png': new Uint8Array([0x89, 0x50, 0, 0x47]) });
    expect(found.rules).toEqual([]);
    expect(found.diagnostics.map((d) => d.code)).toEqual(['binary']);
  });

  test('rules.userFolders: ~/.roo/rules/ and ~/.roo/rules-<mode>/ before the project, as Roo Code reads them', () => {
    const fs = createMemoryFileSystem({});
    fs.set(W, { dir: true });
    fs.set(`${W}/.roo/rules/project.md`, 'project');
    fs.set('/home/u/.roo/rules/global.xml', 'global');
    fs.set('/home/u/.roo/rules-code/global-code.md', 'global code');
    const withHome = discoverRules(fs, {
      workDir: W,
      ownerDirs: [W],
      sources: ['roo'],
      maxFileBytes: 1024,
      userDir: '/home/u',
      root: '/',
    });
    expect(withHome.rules.map((rule) => [rule.path, rule.agents.only])).toEqual([
      ['/home/u/.roo/rules-code/global-code.md', ['code']],
      ['/home/u/.roo/rules/global.xml', []],
      ['/w/.roo/rules/project.md', []],
    ]);
  });

  test('kilo keeps its own reading: .md and .txt only', () => {
    const found = discover(
      { '.kilocode/rules/a.md': 'a', '.kilocode/rules/b.xml': 'b', '.kilocode/rules/.c.md': 'c' },
      { sources: ['kilo'] },
    );
    expect(found.rules.map((rule) => rule.relativePath)).toEqual(['.kilocode/rules/a.md']);
  });
});

function hash(text: string): number {
  let value = 0;
  for (let index = 0; index < text.length; index += 1) value = (value * 31 + text.charCodeAt(index)) | 0;
  return value;
}
