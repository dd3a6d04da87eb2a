import type { RuleAdapter, RuleLocation } from '../rule-adapter.js';

/**
 * The names Roo Code passes over in a rules folder as cache and system files
 * (RooCodeInc/Roo-Code 3.52.1, src/core/prompts/sections/custom-instructions.ts,
 * `shouldIncludeRuleFile`): a name ending with one of these, or `Thumbs.db`.
 */
const ROO_SKIPPED_SUFFIXES = [
  '.DS_Store',
  '.bak',
  '.cache',
  '.crdownload',
  '.db',
  '.dmp',
  '.dump',
  '.eslintcache',
  '.lock',
  '.log',
  '.old',
  '.part',
  '.partial',
  '.pyc',
  '.pyo',
  '.stackdump',
  '.swo',
  '.swp',
  '.temp',
  '.tmp',
];

/**
 * How Roo Code reads one of its rules folders (same file, `readTextFilesFromDirectory`): every file
 * below it, whatever its extension and dot files included, but the cache and system files above;
 * ordered by file name ignoring case, collated, subfolders interleaved.
 */
const ROO_FOLDER = {
  extensions: 'any',
  dotEntries: true,
  skip: { suffixes: ROO_SKIPPED_SUFFIXES, names: ['Thumbs.db'] },
  order: 'file-name',
} as const satisfies Partial<RuleLocation>;

/**
 * Roo Code: `.roo/rules/` (every mode) and `.roo/rules-<mode>/` (one mode: an agent-scoped rule),
 * in the project and, with `rules.userFolders`, in `~/.roo/`. Every file is always on, for its mode,
 * and its text is sent as written, frontmatter and all. Sources: docs/rules.md.
 */
export const rooAdapter: RuleAdapter = {
  source: 'roo',
  locations: [
    { type: 'folder', path: '.roo/rules', ...ROO_FOLDER },
    { type: 'folder', path: '.roo', agentPrefix: 'rules-', ...ROO_FOLDER },
  ],
  userLocations: [
    { type: 'folder', path: '.roo/rules', ...ROO_FOLDER },
    { type: 'folder', path: '.roo', agentPrefix: 'rules-', ...ROO_FOLDER },
  ],
  keys: [],
  globs: { basename: false, anywhere: false, nocase: false, negation: false },
  frontmatter: 'verbatim',
  classify: () => ({ ok: true, kind: 'always', globs: [], description: '' }),
};

/**
 * Kilo Code (a Roo Code fork): `.kilocode/rules/**\/*.{md,txt}` and `.kilocode/rules-<mode>/`. Every
 * file is always on, for its mode; frontmatter, if any, is stripped and not read. Sources:
 * docs/rules.md.
 */
export const kiloAdapter: RuleAdapter = {
  source: 'kilo',
  locations: [
    { type: 'folder', path: '.kilocode/rules', extensions: ['.md', '.txt'] },
    { type: 'folder', path: '.kilocode', extensions: ['.md', '.txt'], agentPrefix: 'rules-' },
  ],
  keys: [],
  globs: { basename: false, anywhere: false, nocase: false, negation: false },
  classify: () => ({ ok: true, kind: 'always', globs: [], description: '' }),
};
