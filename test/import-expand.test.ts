import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { isInside } from '../src/fs/contain.js';
import {
  createMemoryFileSystem,
  type MemoryFileSystem,
  type MemoryTree,
} from '../src/fs/memory-file-system.js';
import {
  expandImports,
  identityKey,
  type ImportExpansion,
  type ImportOptions,
} from '../src/imports/expand-imports.js';
import { placeImports } from '../src/imports/place-imports.js';
import { copilotImportStyle } from '../src/hosts/copilot/import-style.js';

const ROOT = '/w';
const HOME = '/home/u';

/** An in-memory filesystem holding `tree` (keys relative to `/w`, or absolute). */
function setup(tree: MemoryTree): MemoryFileSystem {
  const fs = createMemoryFileSystem({}, { root: ROOT });
  fs.set(ROOT, { dir: true });
  for (const [file, spec] of Object.entries(tree)) fs.set(file, spec);
  return fs;
}

function expand(
  fs: MemoryFileSystem,
  importer: string,
  options: Partial<ImportOptions> = {},
  root = ROOT,
): ImportExpansion {
  const path = importer.startsWith('/') ? importer : `${ROOT}/${importer}`;
  const info = fs.stat(path);
  const text = new TextDecoder().decode(fs.readFile(path, { maxBytes: 1 << 20 }).bytes);
  const realPath = fs.realpath(path);
  fs.calls.length = 0;
  return expandImports(
    fs,
    { path, realPath, info, text, root },
    { maxBytes: 4096, homeDir: HOME, ...options },
  );
}

const codes = (result: ImportExpansion) => result.diagnostics.map((d) => `${d.level} ${d.code}`);

describe('entries mode', () => {
  test('imported files follow their importer depth first, in reference order; the text is unchanged', () => {
    const fs = setup({
      'CLAUDE.md': '@AGENTS.md\n',
      'AGENTS.md': 'Use pnpm.\n@docs/a.md then @docs/c.md\n',
      'docs/a.md': 'A\n@b.md\n',
      'docs/b.md': 'B\n',
      'docs/c.md': 'C\n',
    });
    const result = expand(fs, 'CLAUDE.md');
    expect(result.text).toBe('@AGENTS.md\n');
    expect(result.files.map((file) => [file.path, file.importedBy, file.reference, file.depth])).toEqual([
      ['/w/AGENTS.md', '/w/CLAUDE.md', 'AGENTS.md', 1],
      ['/w/docs/a.md', '/w/AGENTS.md', 'docs/a.md', 2],
      ['/w/docs/b.md', '/w/docs/a.md', 'b.md', 3],
      ['/w/docs/c.md', '/w/AGENTS.md', 'docs/c.md', 2],
    ]);
    expect(result.files[2]?.chain).toEqual(['/w/CLAUDE.md', '/w/AGENTS.md', '/w/docs/a.md', '/w/docs/b.md']);
    expect(result.files[0]?.text).toBe('Use pnpm.\n@docs/a.md then @docs/c.md\n');
    expect(result.files[0]?.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(result.diagnostics).toEqual([]);
  });

  test('references in code are not followed', () => {
    const fs = setup({ 'AGENTS.md': '```\n@a.md\n```\n`@a.md`\n', 'a.md': 'A' });
    const result = expand(fs, 'AGENTS.md');
    expect(result.files).toEqual([]);
    expect(fs.calls).toEqual([]);
  });
});

describe('inline mode', () => {
  test('each reference becomes the framed, recursively expanded text (exact bytes)', () => {
    const fs = setup({
      'CLAUDE.md': 'Intro.\n@AGENTS.md\nSee @./docs/a.md, then stop.\n',
      'AGENTS.md': 'Use pnpm.\n',
      'docs/a.md': 'A1\n@b.md',
      'docs/b.md': 'B1',
    });
    const result = expand(fs, 'CLAUDE.md', { mode: 'inline' });
    expect(result.text).toBe(
      'Intro.\n' +
        '<!-- Imported from: AGENTS.md -->\nUse pnpm.\n\n<!-- End of import from: AGENTS.md -->\n' +
        'See <!-- Imported from: ./docs/a.md -->\n' +
        'A1\n<!-- Imported from: b.md -->\nB1\n<!-- End of import from: b.md -->' +
        '\n<!-- End of import from: ./docs/a.md -->, then stop.\n',
    );
    // The files are listed in inline mode too (change tracking needs their digests).
    expect(result.files.map((file) => file.path)).toEqual(['/w/AGENTS.md', '/w/docs/a.md', '/w/docs/b.md']);
    expect(result.files[1]?.text).toBe('A1\n@b.md');
  });

  test('references that are not followed stay as written', () => {
    const fs = setup({ 'AGENTS.md': 'Ask @alice or @missing.md.\nMail a@b.c\n' });
    const result = expand(fs, 'AGENTS.md', { mode: 'inline' });
    expect(result.text).toBe('Ask @alice or @missing.md.\nMail a@b.c\n');
    expect(codes(result)).toEqual(['debug import-missing', 'debug import-missing']);
  });

  test('a file imported twice is framed once; the second reference stays as written', () => {
    const fs = setup({ 'AGENTS.md': '@a.md @a.md', 'a.md': 'A' });
    const result = expand(fs, 'AGENTS.md', { mode: 'inline' });
    expect(result.text).toBe('<!-- Imported from: a.md -->\nA\n<!-- End of import from: a.md --> @a.md');
    expect(codes(result)).toEqual(['debug import-duplicate']);
  });
});

describe('inline mode, failed: comment', () => {
  // google-gemini/gemini-cli packages/core/src/utils/memoryImportProcessor.ts writes these comments.
  test('a reference outside the root, a missing file and a cycle each become a comment (exact bytes)', () => {
    const fs = setup({
      'AGENTS.md': 'Main.\n@../up.md\n@missing.md\n@a.md\n',
      'a.md': 'A.\n@b.md\n',
      'b.md': 'B.\n@a.md\n',
      '/up.md': 'Up.\n',
    });
    const result = expand(fs, 'AGENTS.md', { mode: 'inline', failed: 'comment' });
    expect(result.text).toBe(
      'Main.\n<!-- Import failed: ../up.md - Path traversal attempt -->\n' +
        "<!-- Import failed: missing.md - ENOENT: no such file or directory, access '/w/missing.md' -->\n" +
        '<!-- Imported from: a.md -->\nA.\n<!-- Imported from: b.md -->\nB.\n' +
        '<!-- File already processed: a.md -->\n\n<!-- End of import from: b.md -->\n\n' +
        '<!-- End of import from: a.md -->\n',
    );
    // The diagnostics are those of the default.
    expect(codes(result)).toEqual(['warn import-outside', 'debug import-missing', 'warn import-cycle']);
  });

  test('a directory, a repeat and its later copies; an unusable path stays as written', () => {
    const fs = setup({ 'AGENTS.md': '@dir @a.md @a.md @a.md @x\u0001y', 'dir/x.md': 'x', 'a.md': 'A' });
    const result = expand(fs, 'AGENTS.md', { mode: 'inline', failed: 'comment' });
    expect(result.text).toBe(
      '<!-- Import failed: dir - EISDIR: illegal operation on a directory, read --> ' +
        '<!-- Imported from: a.md -->\nA\n<!-- End of import from: a.md --> ' +
        '<!-- File already processed: a.md --> <!-- File already processed: a.md --> @x\u0001y',
    );
  });

  // Gemini CLI's findImports takes a path starting with `.`, `/` or a letter: `@~/x` is text.
  test('a refused @~/ reference stays as written', () => {
    const fs = setup({ 'AGENTS.md': 'Main.\n@~/notes.md\n', '/home/u/notes.md': 'N' });
    expect(expand(fs, 'AGENTS.md', { mode: 'inline', failed: 'comment' }).text).toBe('Main.\n@~/notes.md\n');
  });

  // `imports.failed` as an object: one choice per reason, a reason left out keeps the reference.
  describe('one choice per reason', () => {
    const fs = () =>
      setup({
        'AGENTS.md': '@../up.md @missing.md @AGENTS.md @dir @a.md/x.md',
        'dir/x.md': 'x',
        'a.md': 'A',
        '/up.md': 'Up.\n',
      });
    // reference → [reason, its comment]
    const refused: ReadonlyArray<[string, string, string]> = [
      ['@../up.md', 'outside', '<!-- Import failed: ../up.md - Path traversal attempt -->'],
      [
        '@missing.md',
        'missing',
        "<!-- Import failed: missing.md - ENOENT: no such file or directory, access '/w/missing.md' -->",
      ],
      ['@AGENTS.md', 'repeated', '<!-- File already processed: AGENTS.md -->'],
      ['@dir', 'unreadable', '<!-- Import failed: dir - EISDIR: illegal operation on a directory, read -->'],
      [
        '@a.md/x.md',
        'unreadable',
        "<!-- Import failed: a.md/x.md - ENOTDIR: not a directory, access '/w/a.md/x.md' -->",
      ],
    ];
    const text = (commented: readonly string[]) =>
      refused.map(([written, reason, comment]) => (commented.includes(reason) ? comment : written)).join(' ');

    test.each([
      // failed, the reasons that become comments
      [{}, []],
      [{ missing: 'comment' }, ['missing']],
      [{ unreadable: 'comment' }, ['unreadable']],
      [{ outside: 'comment' }, ['outside']],
      [{ repeated: 'comment' }, ['repeated']],
      [{ outside: 'comment', repeated: 'keep' }, ['outside']],
      // Qwen Code: a missing file stays as written, every other failure is a comment.
      [
        { missing: 'keep', unreadable: 'comment', outside: 'comment', repeated: 'comment' },
        ['unreadable', 'outside', 'repeated'],
      ],
      ['comment', ['missing', 'unreadable', 'outside', 'repeated']],
      ['keep', []],
    ] as const)('failed %j comments %j', (failed, commented) => {
      expect(expand(fs(), 'AGENTS.md', { mode: 'inline', failed }).text).toBe(text(commented));
    });
  });

  test('entries mode keeps the text as written whatever `failed` says', () => {
    const fs = setup({ 'AGENTS.md': '@missing.md\n' });
    expect(expand(fs, 'AGENTS.md', { failed: 'comment' }).text).toBe('@missing.md\n');
  });
});

describe('cycles, depth and dedupe', () => {
  test('a cycle stops with a warn naming the whole chain', () => {
    const fs = setup({ 'a.md': '@b.md', 'b.md': '@c.md', 'c.md': '@a.md' });
    const result = expand(fs, 'a.md');
    expect(result.files.map((file) => file.path)).toEqual(['/w/b.md', '/w/c.md']);
    expect(result.diagnostics).toEqual([
      {
        level: 'warn',
        code: 'import-cycle',
        message: 'import cycle: /w/a.md → /w/b.md → /w/c.md → /w/a.md; the repeated import is not followed',
        entry: '@a.md',
        path: '/w/a.md',
      },
    ]);
  });

  test('a file importing itself, under another spelling, is a cycle', () => {
    const fs = setup({ 'a.md': '@./x/../a.md' });
    expect(codes(expand(fs, 'a.md'))).toEqual(['warn import-cycle']);
  });

  test.each([
    // maxDepth, files placed, diagnostics
    [1, ['/w/f1.md'], ['warn import-depth']],
    [3, ['/w/f1.md', '/w/f2.md', '/w/f3.md'], ['warn import-depth']],
    [5, ['/w/f1.md', '/w/f2.md', '/w/f3.md', '/w/f4.md', '/w/f5.md'], []],
    [0, [], ['warn import-depth']],
  ])('maxDepth %i', (maxDepth, placed, diagnostics) => {
    const fs = setup({
      'f0.md': '@f1.md',
      'f1.md': '@f2.md',
      'f2.md': '@f3.md',
      'f3.md': '@f4.md',
      'f4.md': '@f5.md',
      'f5.md': 'end',
    });
    const result = expand(fs, 'f0.md', { maxDepth });
    expect(result.files.map((file) => file.path)).toEqual(placed);
    expect(codes(result)).toEqual(diagnostics);
  });

  test('the depth warning names the chain down to the refused file', () => {
    const fs = setup({ 'f0.md': '@f1.md', 'f1.md': '@f2.md', 'f2.md': 'end' });
    expect(expand(fs, 'f0.md', { maxDepth: 1 }).diagnostics[0]?.message).toBe(
      '/w/f0.md → /w/f1.md → /w/f2.md: imports deeper than 1 are not followed',
    );
  });

  test('the default depth is 5 hops, as in Claude Code and Gemini CLI', () => {
    const tree: Record<string, string> = {};
    for (let index = 0; index < 8; index += 1) tree[`f${index}.md`] = `@f${index + 1}.md`;
    tree['f8.md'] = 'end';
    expect(expand(setup(tree), 'f0.md').files).toHaveLength(5);
  });

  test('a file reached twice is placed once, where it was first reached', () => {
    const fs = setup({ 'a.md': '@b.md @c.md', 'b.md': '@d.md', 'c.md': '@d.md', 'd.md': 'D' });
    const result = expand(fs, 'a.md');
    expect(result.files.map((file) => [file.path, file.importedBy])).toEqual([
      ['/w/b.md', '/w/a.md'],
      ['/w/d.md', '/w/b.md'],
      ['/w/c.md', '/w/a.md'],
    ]);
    expect(codes(result)).toEqual(['debug import-duplicate']);
  });

  test('identity, not spelling, decides: a symlink to a placed file places nothing', () => {
    const fs = setup({ 'a.md': '@b.md @link.md', 'b.md': 'B', 'link.md': { symlink: 'b.md' } });
    expect(expand(fs, 'a.md').files.map((file) => file.path)).toEqual(['/w/b.md']);
  });

  test('files the caller already placed are not placed again', () => {
    const fs = setup({ 'CLAUDE.md': '@AGENTS.md\n@x.md', 'AGENTS.md': 'A', 'x.md': 'X' });
    const placed = new Set([identityKey(fs.stat('/w/AGENTS.md'))]);
    const result = expand(fs, 'CLAUDE.md', { placed });
    expect(result.files.map((file) => file.path)).toEqual(['/w/x.md']);
    expect(codes(result)).toEqual(['debug import-duplicate']);
    expect(placed.size).toBe(1);
  });
});

describe('containment of every import form', () => {
  const tree: MemoryTree = {
    'pkg/AGENTS.md': '',
    'pkg/in.md': 'IN',
    'pkg/sub/deep.md': 'DEEP',
    'pkg/link-in.md': { symlink: 'in.md' },
    'pkg/link-out.md': { symlink: '/w/top.md' },
    'pkg/dir-link': { symlink: '/w/outdir' },
    'pkg/folder': { dir: true },
    'top.md': 'TOP',
    'outdir/x.md': 'X',
    '/home/u/me.md': 'ME',
    '/etc/team.md': 'TEAM',
  };
  // The importer is /w/pkg/AGENTS.md, contained in /w/pkg.
  test.each([
    // reference, options, placed paths, diagnostics
    ['@in.md', {}, ['/w/pkg/in.md'], []],
    ['@./sub/deep.md', {}, ['/w/pkg/sub/deep.md'], []],
    ['@sub/../in.md', {}, ['/w/pkg/in.md'], []],
    ['@/w/pkg/in.md', {}, ['/w/pkg/in.md'], []],
    ['@../top.md', {}, [], ['warn import-outside']],
    ['@../pkg/in.md', {}, ['/w/pkg/in.md'], []],
    ['@sub/../../top.md', {}, [], ['warn import-outside']],
    ['@/w/top.md', {}, [], ['warn import-outside']],
    ['@/etc/team.md', {}, [], ['warn import-outside']],
    ['@~/me.md', {}, [], ['warn import-outside']],
    ['@../top.md', { trustOutside: true }, ['/w/top.md'], []],
    ['@/etc/team.md', { trustOutside: true }, ['/etc/team.md'], []],
    ['@~/me.md', { trustOutside: true }, ['/home/u/me.md'], []],
    ['@~/me.md', { trustOutside: true, homeDir: undefined }, [], ['warn import-outside']],
    // symlinks: inside (default), reject, follow
    ['@link-in.md', {}, ['/w/pkg/link-in.md'], []],
    ['@link-in.md', { symlinks: 'reject' }, [], ['warn import-symlink']],
    ['@link-out.md', {}, [], ['warn import-symlink']],
    ['@link-out.md', { symlinks: 'reject' }, [], ['warn import-symlink']],
    ['@link-out.md', { symlinks: 'follow' }, ['/w/pkg/link-out.md'], []],
    ['@dir-link/x.md', {}, [], ['warn import-symlink']],
    ['@dir-link/x.md', { symlinks: 'follow' }, ['/w/pkg/dir-link/x.md'], []],
    // not a usable file
    ['@folder', {}, [], ['debug import-missing']],
    ['@nope.md', {}, [], ['debug import-missing']],
    ['@a\\b.md', {}, [], ['debug import-invalid']],
    ['@a\u001bb.md', {}, [], ['debug import-invalid']],
  ] as const)('%s %j', (reference, options, placed, diagnostics) => {
    const fs = setup({ ...tree, 'pkg/AGENTS.md': `${reference}\n` });
    const result = expand(fs, 'pkg/AGENTS.md', options as Partial<ImportOptions>, '/w/pkg');
    expect(result.files.map((file) => file.path)).toEqual(placed);
    expect(codes(result)).toEqual(diagnostics);
    if (!('trustOutside' in options) && !('symlinks' in options && options.symlinks === 'follow')) {
      expect(fs.calls.filter((call) => !isInside('/w/pkg', call.path))).toEqual([]);
    }
  });

  test('a refused outside reference names the target and the root', () => {
    const fs = setup({ ...tree, 'pkg/AGENTS.md': '@../top.md' });
    expect(expand(fs, 'pkg/AGENTS.md', {}, '/w/pkg').diagnostics[0]?.message).toBe(
      '@../top.md in /w/pkg/AGENTS.md is not followed: /w/top.md is outside /w/pkg (imports outside the project need a trusted config)',
    );
  });

  test('a symlink that leaves the root is named with its target', () => {
    const fs = setup({ ...tree, 'pkg/AGENTS.md': '@link-out.md' });
    expect(expand(fs, 'pkg/AGENTS.md', {}, '/w/pkg').diagnostics[0]?.message).toBe(
      '/w/pkg/link-out.md is a symlink to /w/top.md, outside /w/pkg; it is not followed',
    );
  });

  test('an imported file keeps the containment of the first importer', () => {
    const fs = setup({ ...tree, 'pkg/AGENTS.md': '@in.md', 'pkg/in.md': '@../top.md' });
    const result = expand(fs, 'pkg/AGENTS.md', {}, '/w/pkg');
    expect(result.files.map((file) => file.path)).toEqual(['/w/pkg/in.md']);
    expect(codes(result)).toEqual(['warn import-outside']);
  });
});

describe('read faults', () => {
  test.each([
    ['too large', 'x'.repeat(5000), 'it is larger than 4096 bytes'],
    ['binary', new Uint8Array([0, 1, 2, 0]), 'it is not text'],
  ])('%s', (_name, body, why) => {
    const fs = setup({ 'AGENTS.md': '@big.md', 'big.md': body });
    const result = expand(fs, 'AGENTS.md', { mode: 'inline' });
    expect(result.text).toBe('@big.md');
    expect(result.diagnostics).toEqual([
      {
        level: 'warn',
        code: 'import-unreadable',
        message: `/w/big.md (imported by /w/AGENTS.md) is skipped: ${why}`,
        entry: '@big.md',
        path: '/w/big.md',
      },
    ]);
  });

  test('a filesystem fault is a warn, never an exception', () => {
    const fs = setup({ 'AGENTS.md': '@a.md', 'a.md': 'A' });
    fs.fail('/w/a.md', 'realpath', 'EACCES');
    expect(codes(expand(fs, 'AGENTS.md'))).toEqual(['warn import-unreadable']);
  });
});

test('property: imports never touch the filesystem outside the root, whatever the spelling', () => {
  const segment = fc.constantFrom(
    '..',
    '.',
    'in.md',
    'sub',
    'out',
    'link',
    'dlink',
    '~',
    'w',
    'pkg',
    'top.md',
    '',
  );
  const spelling = fc.tuple(
    fc.constantFrom('', './', '../', '/', '~/', '/w/', '/w/pkg/'),
    fc.array(segment, { maxLength: 5 }),
  );
  fc.assert(
    fc.property(
      fc.array(spelling, { minLength: 1, maxLength: 6 }),
      fc.constantFrom('inside', 'reject'),
      fc.constantFrom('entries', 'inline'),
      (references, symlinks, mode) => {
        const text = references.map(([prefix, parts]) => `@${prefix}${parts.join('/')}`).join('\n');
        const fs = setup({
          'pkg/AGENTS.md': text,
          'pkg/in.md': text,
          'pkg/sub/in.md': text,
          'pkg/link': { symlink: '/w/top.md' },
          'pkg/dlink': { symlink: '/w/out' },
          'pkg/sub/link': { symlink: '../in.md' },
          'top.md': text,
          'out/in.md': text,
          '/home/u/in.md': text,
        });
        const result = expand(fs, 'pkg/AGENTS.md', { symlinks, mode }, '/w/pkg');
        expect(fs.calls.filter((call) => !isInside('/w/pkg', call.path))).toEqual([]);
        for (const file of result.files) expect(isInside('/w/pkg', file.realPath)).toBe(true);
      },
    ),
  );
});

describe("placeImports over a resolution's ordered files", () => {
  function importing(fs: MemoryFileSystem, path: string) {
    return {
      path,
      realPath: path,
      info: fs.stat(path),
      text: new TextDecoder().decode(fs.readFile(path, { maxBytes: 4096 }).bytes),
      root: ROOT,
    };
  }

  test('a file imported by an earlier one is placed once, as an import', () => {
    const fs = setup({
      'CLAUDE.md': '@AGENTS.md @b.md',
      'AGENTS.md': 'A',
      'b.md': '@c.md',
      'c.md': 'C',
      'z.md': '@c.md',
    });
    const files = ['/w/CLAUDE.md', '/w/z.md', '/w/AGENTS.md'].map((file) => importing(fs, file));
    const result = placeImports(fs, files, { maxBytes: 4096 });
    expect(result.expansions.map((expansion) => expansion?.files.map((file) => file.path) ?? null)).toEqual([
      ['/w/AGENTS.md', '/w/b.md', '/w/c.md'],
      [],
      null,
    ]);
    expect(result.expansions[1]?.diagnostics.map((d) => d.code)).toEqual(['import-duplicate']);
    expect(result.placed.size).toBe(5);
  });

  test('a later file is not pre-placed: an earlier import takes its place', () => {
    const fs = setup({ 'a.md': 'A', 'b.md': '@a.md' });
    const result = placeImports(fs, [importing(fs, '/w/b.md'), importing(fs, '/w/a.md')], {
      maxBytes: 4096,
      mode: 'inline',
    });
    expect(result.expansions[0]?.text).toBe(
      '<!-- Imported from: a.md -->\nA\n<!-- End of import from: a.md -->',
    );
    expect(result.expansions[1]).toBeNull();
  });

  test('identities placed elsewhere are honoured', () => {
    const fs = setup({ 'a.md': '@b.md', 'b.md': 'B' });
    const result = placeImports(fs, [importing(fs, '/w/a.md')], {
      maxBytes: 4096,
      placed: new Set([identityKey(fs.stat('/w/b.md'))]),
    });
    expect(result.expansions[0]?.files).toEqual([]);
  });
});

test('property: entries mode never changes the text; inline mode changes it only where a file was placed', () => {
  const piece = fc.constantFrom(
    '@a.md',
    '@b.md',
    '@none.md',
    ' ',
    '\n',
    '`',
    '```\n',
    'x',
    '.',
    '@',
    'm@a.md',
  );
  fc.assert(
    fc.property(fc.array(piece, { maxLength: 30 }), fc.constantFrom('entries', 'inline'), (pieces, mode) => {
      const text = pieces.join('');
      const fs = setup({ 'AGENTS.md': text, 'a.md': 'A', 'b.md': '@a.md' });
      const result = expand(fs, 'AGENTS.md', { mode });
      if (mode === 'entries' || result.files.length === 0) expect(result.text).toBe(text);
      else expect(result.text).toContain('<!-- Imported from: ');
    }),
  );
});

describe('inline mode, copilot style', () => {
  const copilot = { mode: 'inline', style: copilotImportStyle, failed: 'comment' } as const;

  test('the reference line stays; the file follows it in imported_custom_instruction tags (exact bytes)', () => {
    const fs = setup({ 'AGENTS.md': 'Main.\n@docs/extra.md\nEnd.\n', 'docs/extra.md': 'Extra text.\n' });
    const result = expand(fs, 'AGENTS.md', copilot);
    expect(result.text).toBe(
      'Main.\n@docs/extra.md\n\n<imported_custom_instruction source="/w/docs/extra.md">\nExtra text.\n' +
        '</imported_custom_instruction>\nEnd.\n',
    );
    expect(result.escaped).toBe(true);
  });

  test('a chain nests; a file back on the chain is marked skipped="already-loaded" (exact bytes)', () => {
    const fs = setup({ 'AGENTS.md': 'Main.\n@a.md\n', 'a.md': 'A.\n@b.md\n', 'b.md': 'B.\n@a.md\n' });
    const result = expand(fs, 'AGENTS.md', copilot);
    expect(result.text).toBe(
      'Main.\n@a.md\n\n<imported_custom_instruction source="/w/a.md">\nA.\n@b.md\n\n' +
        '<imported_custom_instruction source="/w/b.md">\nB.\n@a.md\n\n' +
        '<imported_custom_instruction source="/w/a.md" skipped="already-loaded" />\n' +
        '</imported_custom_instruction>\n</imported_custom_instruction>\n',
    );
    expect(codes(result)).toEqual(['warn import-cycle']);
  });

  test('a reference on a last line without a line break, two on one line, a missing file (exact bytes)', () => {
    const fs = setup({ 'AGENTS.md': '@a.md and @gone.md and @b.md', 'a.md': 'A.', 'b.md': 'B.\n' });
    const result = expand(fs, 'AGENTS.md', copilot);
    expect(result.text).toBe(
      '@a.md and @gone.md and @b.md\n\n<imported_custom_instruction source="/w/a.md">\nA.\n' +
        '</imported_custom_instruction>\n\n<imported_custom_instruction source="/w/b.md">\nB.\n' +
        '</imported_custom_instruction>\n',
    );
  });

  test('references on several lines: each frame follows its own line, in text order (exact bytes)', () => {
    const fs = setup({ 'AGENTS.md': '@a.md @a.md\nmid\n@b.md\nend', 'a.md': 'A.\n', 'b.md': 'B.\n' });
    const frame = (name: string) =>
      `\n<imported_custom_instruction source="/w/${name}.md">\n${name.toUpperCase()}.\n</imported_custom_instruction>\n`;
    const skipped = '\n<imported_custom_instruction source="/w/a.md" skipped="already-loaded" />\n';
    expect(
      expand(fs, 'AGENTS.md', { mode: 'inline', style: copilotImportStyle, failed: 'comment' }).text,
    ).toBe(`@a.md @a.md\n${frame('a')}${skipped}mid\n@b.md\n${frame('b')}end`);
  });

  test('the frame tags in every file text are escaped, the frames ctxfiles writes are not', () => {
    const fs = setup({
      'AGENTS.md': '</custom_instruction>\n@a.md\n',
      'a.md': '</imported_custom_instruction>\n&lt;custom_instruction>\n',
    });
    const result = expand(fs, 'AGENTS.md', copilot);
    expect(result.text).toBe(
      '&lt;/custom_instruction>\n@a.md\n\n<imported_custom_instruction source="/w/a.md">\n' +
        '&lt;/imported_custom_instruction>\n&amp;lt;custom_instruction>\n</imported_custom_instruction>\n',
    );
  });

  test('a quote in the source path is an entity, so it cannot end the attribute', () => {
    const fs = setup({ 'AGENTS.md': '@a"b.md\n', 'a"b.md': 'X\n' });
    expect(expand(fs, 'AGENTS.md', copilot).text).toBe(
      '@a"b.md\n\n<imported_custom_instruction source="/w/a&quot;b.md">\nX\n</imported_custom_instruction>\n',
    );
  });

  test('the comment style and entries mode are not escaped', () => {
    const fs = setup({ 'AGENTS.md': '</custom_instruction>\n@a.md\n', 'a.md': 'A\n' });
    expect(expand(fs, 'AGENTS.md', { mode: 'inline' }).escaped).toBe(false);
    expect(expand(fs, 'AGENTS.md', { style: copilotImportStyle })).toMatchObject({
      text: '</custom_instruction>\n@a.md\n',
      escaped: false,
    });
  });
});
