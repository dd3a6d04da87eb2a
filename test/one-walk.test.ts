import fs from 'node:fs';
import fc from 'fast-check';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { createResolver } from '../src/index.js';
import type { ConfigInput } from '../src/config/schema.js';
import { normalizeConfig } from '../src/config/normalize-config.js';
import { walkNested, type WalkLimits, type WalkOptions } from '../src/discover/nested-walk.js';
import { keepUsable, shareListings } from '../src/discover/shared-listings.js';
import type { SymlinkPolicy } from '../src/fs/contain.js';
import type { FileSystem } from '../src/fs/file-system.js';
import {
  createMemoryFileSystem,
  type MemoryFileSystem,
  type MemoryTree,
} from '../src/fs/memory-file-system.js';
import { createNodeFileSystem } from '../src/fs/node-file-system.js';
import { discoverRules } from '../src/rules/discover-rules.js';
import { RULE_SOURCES, ruleEntryNames } from '../src/rules/rule-adapters.js';

/**
 * One walk of the tree per request (docs/performance.md, "One walk"): the rule-folder search keeps
 * the listings it reads for the nested walk, and a walk-marked owner is looked up only for the
 * locations its listing holds. Every answer must be the one the two separate walks gave.
 */

const W = '/w';
const MARKERS = ruleEntryNames(RULE_SOURCES);
const NAMES = new Set(['AGENTS.md', 'CLAUDE.md']);
const UNCAPPED = Number.MAX_SAFE_INTEGER;
/** What the resolver passes as instruction names: an AGENTS.md is then no Windsurf rule. */
const instructionNames = new Set(['AGENTS.md', 'agents.md', 'CLAUDE.md']);

/** A tree with rule folders and nested files in ignored, deep, linked and unreadable places. */
const TREE: MemoryTree = {
  'AGENTS.md': 'root',
  'a/AGENTS.md': '# a',
  'a/.cursor/rules/a.mdc': '---\nalwaysApply: true\n---\na rule',
  'b/c/CLAUDE.md': '# c',
  'b/c/.claude/rules/c.md': 'c rule',
  'gen/AGENTS.md': '# ignored',
  'gen/.cursor/rules/gen.mdc': '---\nalwaysApply: true\n---\nrule in an ignored dir',
  'd1/d2/d3/AGENTS.md': '# too deep',
  'd1/d2/d3/.cursor/rules/deep.mdc': 'too deep',
  'e/AGENTS.md': '# e',
  'f/AGENTS.md': { symlink: '/w/real/f.md' },
  'real/f.md': '# real f',
  'g/AGENTS.md': { symlink: '/outside/g.md' },
  '/outside/g.md': '# outside',
  'h/.cursor': { symlink: '/w/real/cursor' },
  'real/cursor/rules/h.mdc': '---\nalwaysApply: true\n---\nlinked rule folder',
  'h/AGENTS.md': '# h',
  linked: { symlink: '/w/a' },
  'node_modules/x/AGENTS.md': '# pruned',
  'node_modules/x/.cursor/rules/x.mdc': 'pruned',
  'u/v/AGENTS.md': '# unreadable parent',
  'u/.cursor/rules/u.mdc': 'unreadable',
};

function memoryTree(): MemoryFileSystem {
  const memory = createMemoryFileSystem({}, { root: W });
  memory.set(W, { dir: true });
  for (const [file, spec] of Object.entries(TREE))
    memory.set(file.startsWith('/') ? file : `${W}/${file}`, spec);
  memory.fail(`${W}/u`, 'readdir', 'EACCES');
  return memory;
}

/** The readdir calls made on the memory tree since `from`, by path. */
function listingsSince(memory: MemoryFileSystem, from: number): Map<string, number> {
  const counts = new Map<string, number>();
  for (const call of memory.calls.slice(from))
    if (call.op === 'readdir') counts.set(call.path, (counts.get(call.path) ?? 0) + 1);
  return counts;
}

/** The rule-folder search and the nested walk, through `ports` (separate walks: the plain port twice). */
function bothWalks(
  ports: { rules: FileSystem; nested: FileSystem },
  limits: WalkLimits,
  options: WalkOptions,
) {
  const rules = walkNested(
    ports.rules,
    W,
    new Set(),
    { maxDepth: limits.maxDepth, maxFiles: UNCAPPED },
    {
      markers: MARKERS,
    },
  );
  const nested = walkNested(ports.nested, W, NAMES, limits, { symlinks: 'inside', ...options });
  return { rules, nested };
}

const CASES: ReadonlyArray<[string, WalkLimits, WalkOptions]> = [
  ['no caps', { maxDepth: 8, maxFiles: 100 }, {}],
  [
    'an ignored dir the rule search still enters',
    { maxDepth: 8, maxFiles: 100 },
    { ignores: (p) => p === 'gen' },
  ],
  ['the depth cap', { maxDepth: 2, maxFiles: 100 }, {}],
  ['the file cap', { maxDepth: 8, maxFiles: 2 }, {}],
  [
    'a held file left out before the file cap',
    { maxDepth: 8, maxFiles: 2 },
    { holds: (p) => p === `${W}/a/AGENTS.md` },
  ],
  ['symlinks rejected', { maxDepth: 8, maxFiles: 100 }, { symlinks: 'reject' }],
];

describe('shared listings', () => {
  test.each(CASES)(
    '%s: the walks find what the separate walks find, listing each directory once',
    (_, limits, options) => {
      const memory = memoryTree();
      const separate = bothWalks({ rules: memory, nested: memory }, limits, options);
      const start = memory.calls.length;
      const shared = shareListings(NAMES, {
        symlinks: options.symlinks ?? 'inside',
        ignores: options.ignores !== undefined,
      });
      const through = (): FileSystem => memory;
      const rules = shared.walkMarkers(through, W, MARKERS, limits.maxDepth);
      const listed = listingsSince(memory, start);
      const nested = shared.walkFiles(memory, W, NAMES, limits, { symlinks: 'inside', ...options });
      expect({ rules, nested }).toEqual(separate);
      // The same answers, from one listing of every directory (the unreadable one fails each time).
      const counts = listingsSince(memory, start);
      for (const [dir, count] of counts) if (dir !== `${W}/u`) expect([dir, count]).toEqual([dir, 1]);
      expect(counts.size).toBeGreaterThan(8);
      // Without ignores, the nested walk lists nothing: the search found its files.
      if (options.ignores === undefined) expect(counts).toEqual(listed);
      expect(separate.rules.marked).toEqual(expect.arrayContaining(['a', 'b/c', 'gen', 'h']));
      // Past the file cap the walk stops before the unreadable directory.
      const unreadable = separate.nested.diagnostics.some((d) => d.code === 'unreadable');
      expect(unreadable).toBe(!separate.nested.truncated);
    },
  );

  test('a nested walk the search cannot answer lists through its port', () => {
    const memory = memoryTree();
    const limits = { maxDepth: 8, maxFiles: 100 };
    for (const [names, walkLimits, options] of [
      [new Set(['CLAUDE.md']), limits, {}],
      [NAMES, { maxDepth: 2, maxFiles: 100 }, {}],
      [NAMES, limits, { symlinks: 'reject' }],
    ] as const) {
      const shared = shareListings(['AGENTS.md', 'CLAUDE.md'], { symlinks: 'inside', ignores: false });
      shared.walkMarkers(() => memory, W, MARKERS, 8);
      const start = memory.calls.length;
      const found = shared.walkFiles(memory, W, names, walkLimits, { symlinks: 'inside', ...options });
      expect(listingsSince(memory, start).get(W)).toBe(1);
      expect(found).toEqual(walkNested(memory, W, names, walkLimits, { symlinks: 'inside', ...options }));
    }
  });

  test('a later walk for a name the first walk did not keep lists through the port', () => {
    const memory = memoryTree();
    const shared = shareListings(['AGENTS.md'], { symlinks: 'inside', ignores: true });
    shared.walkMarkers(() => memory, W, MARKERS, 8);
    const start = memory.calls.length;
    const names = new Set(['CLAUDE.md']);
    const found = shared.walkFiles(memory, W, names, { maxDepth: 8, maxFiles: 100 });
    expect(found.files.map((file) => file.relativePath)).toEqual(['b/c/CLAUDE.md']);
    expect(listingsSince(memory, start).get(W)).toBe(1);
  });
});

describe('shared walks, property', () => {
  // Directories first, then a last name that is often a wanted file: most trees hold nested files.
  const dir = fc.constantFrom('a', 'b', 'c', '.cursor', 'node_modules');
  const last = fc.constantFrom('a', 'b', 'AGENTS.md', 'AGENTS.md', 'CLAUDE.md', 'x.md', '.cursor', 'dist');
  const relative = fc
    .tuple(fc.array(dir, { minLength: 1, maxLength: 3 }), last)
    .map(([dirs, name]) => [...dirs, name].join('/'));
  const spec = fc.constantFrom(
    'file',
    'file',
    'file',
    'dir',
    'symlink:AGENTS.md',
    'symlink:/w/a/AGENTS.md',
    'symlink:/o/x.md',
    'symlink:a',
  );

  test('property: the search and the nested walk of one request answer as they do on their own', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(relative, spec), { minLength: 4, maxLength: 30 }),
        fc.array(relative, { maxLength: 3 }),
        fc.subarray([...NAMES], { minLength: 1 }),
        fc.record({
          maxDepth: fc.integer({ min: 0, max: 6 }),
          maxFiles: fc.integer({ min: 0, max: 8 }),
          maxDirectories: fc.constantFrom(undefined, undefined, undefined, 3),
        }),
        fc.constantFrom<SymlinkPolicy>('inside', 'reject', 'follow'),
        fc.array(fc.boolean(), { maxLength: 30 }),
        fc.constantFrom(false, false, false, true),
        (tree, failing, names, rawLimits, symlinks, held, ignoring) => {
          const memory = createMemoryFileSystem({}, { root: W });
          memory.set(W, { dir: true });
          memory.set('/o/x.md', '# outside');
          for (const [file, kind] of tree)
            try {
              memory.set(
                `${W}/${file}`,
                kind === 'file' ? `# ${file}` : kind === 'dir' ? { dir: true } : { symlink: kind.slice(8) },
              );
            } catch {
              // A parent that is a file.
            }
          for (const dir of failing) memory.fail(`${W}/${dir}`, 'readdir', 'EACCES');
          const limits: WalkLimits = {
            maxDepth: rawLimits.maxDepth,
            maxFiles: rawLimits.maxFiles,
            ...(rawLimits.maxDirectories === undefined ? {} : { maxDirectories: rawLimits.maxDirectories }),
          };
          const basenames = new Set(names);
          // Files the block holds: some of the tree's, by the path the walk finds them at.
          const heldPaths = new Set(
            tree.filter((_, index) => held[index] === true).map(([file]) => `${W}/${file}`),
          );
          const options: WalkOptions = {
            symlinks,
            ...(heldPaths.size === 0 ? {} : { holds: (file: string) => heldPaths.has(file) }),
            ...(ignoring ? { ignores: (file: string) => file.startsWith('b') } : {}),
          };
          const markersWalk = (fs: FileSystem) =>
            walkNested(
              fs,
              W,
              new Set(),
              { maxDepth: limits.maxDepth, maxFiles: UNCAPPED },
              { markers: MARKERS },
            );
          const separate = {
            rules: markersWalk(memory),
            nested: walkNested(memory, W, basenames, limits, options),
          };
          const shared = shareListings(basenames, { symlinks, ignores: ignoring });
          const rules = shared.walkMarkers(() => memory, W, MARKERS, limits.maxDepth);
          const nested = shared.walkFiles(memory, W, basenames, limits, options);
          expect({ rules, nested }).toEqual(separate);
        },
      ),
      { numRuns: 500 },
    );
  });
});

/** A resolver over the memory tree with every rule source and the nested walk. */
async function resolverOver(memory: MemoryFileSystem, config: ConfigInput = {}) {
  return createResolver({
    workDir: W,
    config: normalizeConfig({
      contextPaths: ['AGENTS.md', 'CLAUDE.md'],
      rules: { sources: [...RULE_SOURCES] },
      contextDiscovery: { maxDepth: 8 },
      ...config,
    }),
    fs: memory,
    env: {},
    homeDir: '/home',
  });
}

describe('owners a nested instruction file makes', () => {
  test('a directory holding only an instruction file owns no rule and costs no look-up', async () => {
    // A case-insensitive volume: Windsurf's agents.md would find each AGENTS.md again, as a rule.
    const memory = createMemoryFileSystem({}, { root: W, caseInsensitive: true });
    memory.set(W, { dir: true });
    for (const dir of ['p', 'p/q', 'r']) memory.set(`${W}/${dir}/AGENTS.md`, `# ${dir}`);
    memory.set(`${W}/s/AGENTS.md`, '# s');
    memory.set(`${W}/s/.windsurf/rules/s.md`, '---\ntrigger: always_on\n---\ns rule');
    memory.set(`${W}/t/agents.md`, '---\ntrigger: always_on\n---\nt as a Windsurf rule');
    const resolver = await resolverOver(memory);
    const start = memory.calls.length;
    const result = await resolver.resolve();
    // Each AGENTS.md reaches the model once, as a nested file; a file named as no instruction names
    // it is still a Windsurf rule, and so is a rule folder beside an AGENTS.md.
    expect(result.nested.map((file) => file.relativePath)).toEqual([
      'p/AGENTS.md',
      'p/q/AGENTS.md',
      'r/AGENTS.md',
      's/AGENTS.md',
    ]);
    expect((result.rules ?? []).map((rule) => rule.relativePath)).toEqual([
      's/.windsurf/rules/s.md',
      't/agents.md',
    ]);
    // The owners are s and t: nothing is looked up for a rule below p, p/q or r.
    const probed = memory.calls
      .slice(start)
      .filter(
        (call) =>
          call.op !== 'readdir' && /^\/w\/(p|r)\//.test(call.path) && !call.path.endsWith('/AGENTS.md'),
      );
    expect(probed).toEqual([]);
  });
});

describe('a resolution with rules and the manifest', () => {
  const configs: ReadonlyArray<[string, ConfigInput]> = [
    ['defaults', {}],
    ['gitignore respected', { contextDiscovery: { maxDepth: 8, respectGitignore: true } }],
    ['depth cap', { contextDiscovery: { maxDepth: 2 } }],
    ['file cap', { contextDiscovery: { maxDepth: 8, maxFiles: 2 } }],
    ['inline mode', { contextDiscovery: { maxDepth: 8, mode: 'inline' } }],
  ];

  test.each(configs)(
    '%s: the same answer as the rule search and the nested walk on their own',
    async (_, config) => {
      const memory = memoryTree();
      memory.set(`${W}/.gitignore`, 'gen/\n');
      // The walks of one request share listings; a resolver whose rules were found before (by
      // `rule()`) runs the nested walk on its own, as every request did before.
      const shared = await (await resolverOver(memory, config)).resolve();
      const start = memory.calls.length;
      const separate = await resolverOver(memory, config);
      await separate.rule('none');
      const alone = await separate.resolve();
      expect(JSON.stringify(shared)).toBe(JSON.stringify(alone));
      // Found alike: a rule folder behind a symlink, one in a dir the nested walk ignores.
      const ruleFiles = (shared.rules ?? []).map((rule) => rule.relativePath);
      expect(ruleFiles).toEqual(
        expect.arrayContaining(['h/.cursor/rules/h.mdc', 'gen/.cursor/rules/gen.mdc']),
      );
      // The separate walks list directories twice.
      expect([...listingsSince(memory, start).values()].some((count) => count > 1)).toBe(true);
    },
  );

  test('one request lists each directory once', async () => {
    const memory = memoryTree();
    const resolver = await resolverOver(memory);
    const start = memory.calls.length;
    const result = await resolver.resolve();
    expect(result.nested.length).toBeGreaterThan(3);
    // The unreadable directory too: the nested walk takes the search's answer, fault included.
    for (const [dir, count] of listingsSince(memory, start)) expect([dir, count]).toEqual([dir, 1]);
    expect(result.diagnostics.filter((d) => d.code === 'unreadable').map((d) => d.path)).toEqual([`${W}/u`]);
  });

  test('with ignores, one request lists each directory once but the unreadable one', async () => {
    const memory = memoryTree();
    memory.set(`${W}/.gitignore`, 'gen/\n');
    const resolver = await resolverOver(memory, {
      contextDiscovery: { maxDepth: 8, respectGitignore: true },
    });
    const start = memory.calls.length;
    const result = await resolver.resolve();
    expect(result.nested.length).toBeGreaterThan(3);
    for (const [dir, count] of listingsSince(memory, start))
      expect([dir, count]).toEqual([dir, dir === `${W}/u` ? 2 : 1]);
  });
});

describe('owners the walk listed', () => {
  test('a location is looked up only when the listing holds its first segment, ignoring case', () => {
    const memory = createMemoryFileSystem({}, { caseInsensitive: true });
    memory.set(`${W}/p/AGENTS.md`, '# p');
    memory.set(
      `${W}/p/.Cursor/rules/p.mdc`,
      '---\nalwaysApply: true\n---\nfound on a case-insensitive volume',
    );
    memory.set(`${W}/q/AGENTS.md`, '# q');
    memory.set(`${W}/q/.junie/notes.md`, 'not a rule');
    const walk = walkNested(memory, W, new Set(), { maxDepth: 8, maxFiles: UNCAPPED }, { markers: MARKERS });
    const ownerDirs = [W, ...walk.marked.map((dir) => `${W}/${dir}`)];
    const options = {
      workDir: W,
      ownerDirs,
      sources: [...RULE_SOURCES],
      maxFileBytes: 65536,
      instructionNames,
    };
    const whole = discoverRules(memory, options);
    const start = memory.calls.length;
    const ownerEntries = new Map([...walk.markedBy].map(([dir, names]) => [`${W}/${dir}`, names]));
    const hinted = discoverRules(memory, { ...options, ownerEntries });
    expect(hinted).toEqual(whole);
    expect(hinted.rules.map((rule) => rule.name)).toEqual(['p']);
    // q holds no rule folder, only .junie: no other folder location is looked up there (a location
    // that is one plain file is, as a listing may lack it in another case).
    const looked = memory.calls.slice(start).filter((call) => call.path.startsWith(`${W}/q/`));
    expect(looked.some((call) => call.path.startsWith(`${W}/q/.junie/`))).toBe(true);
    const folders = ['.cursor', '.claude', '.github', '.windsurf', '.kiro', '.continue', '.roo', '.kilocode'];
    expect(
      looked.filter((call) => folders.some((folder) => call.path.startsWith(`${W}/q/${folder}`))),
    ).toEqual([]);
  });

  test('an owner holding only its AGENTS.md costs no call: no one-file location is probed', () => {
    const memory = createMemoryFileSystem({}, { root: W });
    memory.set(`${W}/p/q/AGENTS.md`, '# q');
    memory.set(`${W}/r/AGENTS.md`, '---\ntrigger: always_on\n---\nr as a Windsurf rule');
    const walk = walkNested(memory, W, new Set(), { maxDepth: 8, maxFiles: UNCAPPED }, { markers: MARKERS });
    const ownerDirs = [W, ...walk.marked.map((dir) => `${W}/${dir}`)];
    const ownerEntries = new Map([...walk.markedBy].map(([dir, entries]) => [`${W}/${dir}`, entries]));
    for (const names of [instructionNames, new Set<string>()]) {
      const options = {
        workDir: W,
        ownerDirs,
        sources: [...RULE_SOURCES],
        maxFileBytes: 65536,
        instructionNames: names,
      };
      const whole = discoverRules(memory, options);
      const start = memory.calls.length;
      const hinted = discoverRules(memory, { ...options, ownerEntries });
      expect(hinted).toEqual(whole);
      // .clinerules and the like are absent from the listing: never looked up, and no segment above
      // the owner is looked up again. Without instruction names the AGENTS.md is a Windsurf rule,
      // read as listed (its open checks it is a regular file), and agents.md, listed in another case
      // only, costs one probe (a case-insensitive volume would find it).
      const below = memory.calls
        .slice(start)
        .filter((call) => call.path.startsWith(`${W}/p/`) || call.path.startsWith(`${W}/r/`));
      expect(below).toEqual(
        names.size === 0
          ? [
              { op: 'probe', path: `${W}/p/q/agents.md` },
              { op: 'readFile', path: `${W}/p/q/AGENTS.md` },
              { op: 'probe', path: `${W}/r/agents.md` },
              { op: 'readFile', path: `${W}/r/AGENTS.md` },
            ]
          : [],
      );
      expect(hinted.rules.map((rule) => rule.relativePath)).toEqual(
        names.size === 0 ? ['p/q/AGENTS.md', 'r/AGENTS.md'] : [],
      );
    }
  });

  test('a marker file named in another case is still found on a case-insensitive volume', () => {
    const memory = createMemoryFileSystem({}, { caseInsensitive: true });
    memory.set(`${W}/p/.cursor/rules/p.mdc`, '---\nalwaysApply: true\n---\np');
    memory.set(`${W}/p/Agents.md`, '---\ntrigger: always_on\n---\nWindsurf reads agents.md');
    memory.set(`${W}/p/.ClineRules`, 'cline file in another case');
    const walk = walkNested(memory, W, new Set(), { maxDepth: 8, maxFiles: UNCAPPED }, { markers: MARKERS });
    expect(walk.marked).toEqual(['p']);
    const options = {
      workDir: W,
      ownerDirs: [W, `${W}/p`],
      sources: [...RULE_SOURCES],
      maxFileBytes: 65536,
      instructionNames: new Set(['AGENTS.md']),
    };
    const ownerEntries = new Map([...walk.markedBy].map(([dir, entries]) => [`${W}/${dir}`, entries]));
    const hinted = discoverRules(memory, { ...options, ownerEntries });
    expect(hinted).toEqual(discoverRules(memory, options));
    expect(hinted.rules.map((rule) => rule.relativePath)).toEqual([
      'p/.clinerules',
      'p/.cursor/rules/p.mdc',
      'p/agents.md',
    ]);
  });

  test('on disk, symlinked rule folders and files are found as without the listings', () => {
    const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'ctxfiles-one-walk-')));
    try {
      for (const [file, text] of Object.entries({
        'p/AGENTS.md': '# p',
        'shared/rules/s.mdc': '---\nalwaysApply: true\n---\nshared',
        'q/AGENTS.md': '# q',
        'q/.clinerules': 'cline file',
        'r/CLAUDE.md': '# r',
      })) {
        fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
        fs.writeFileSync(path.join(root, file), text);
      }
      fs.symlinkSync(path.join(root, 'shared'), path.join(root, 'p/.cursor'));
      fs.symlinkSync(path.join(root, 'q/.clinerules'), path.join(root, 'r/.clinerules'));
      const disk = createNodeFileSystem();
      const walk = walkNested(
        disk,
        root,
        new Set(),
        { maxDepth: 8, maxFiles: UNCAPPED },
        { markers: MARKERS },
      );
      expect(walk.marked).toEqual(['p', 'q', 'r']);
      const ownerDirs = [root, ...walk.marked.map((dir) => path.join(root, dir))];
      const options = {
        workDir: root,
        ownerDirs,
        sources: [...RULE_SOURCES],
        maxFileBytes: 65536,
        instructionNames,
      };
      const ownerEntries = new Map([...walk.markedBy].map(([dir, names]) => [path.join(root, dir), names]));
      const hinted = discoverRules(disk, { ...options, ownerEntries });
      expect(hinted).toEqual(discoverRules(disk, options));
      expect(hinted.rules.map((rule) => rule.relativePath)).toEqual([
        'p/.cursor/rules/s.mdc',
        'q/.clinerules',
      ]);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('the walk index keeps marker files in another case', () => {
  test('keepUsable keeps a plain file named like a wanted name ignoring case, and no other', () => {
    const listing = [
      { name: 'Agents.md', kind: 'file' as const },
      { name: 'AGENTS.md', kind: 'file' as const },
      { name: 'README.md', kind: 'file' as const },
      { name: 'src', kind: 'directory' as const },
    ];
    expect(keepUsable(listing, new Set(['AGENTS.md'])).map((entry) => entry.name)).toEqual([
      'Agents.md',
      'AGENTS.md',
      'src',
    ]);
  });
});
