import path from 'node:path';
import { PRUNED_DIRECTORIES } from '../discover/nested-walk.js';
import type { DirEntry } from '../fs/file-system.js';
import { compileRuleGlobs, type CompiledGlob } from '../rules/compile-rule-globs.js';
import { RULE_ADAPTERS } from '../rules/rule-adapters.js';
import type { Corpus, CorpusFile } from './corpus.js';
import { finding, type Finding } from './finding.js';
import { frontmatterKeys, type FrontmatterKey } from '../rules/frontmatter-lines.js';

/** Directories never searched for a glob's match, beside the ones the nested walk prunes. */
const PRUNED = new Set(['.git']);

/** The most directory entries one doctor run looks at to match globs. */
const MAX_ENTRIES = 500_000;

/**
 * Rule files: globs that match no file under the rule's owner (`unmatched-glob`), and frontmatter
 * the vendor's tool is known to misread (`misread-frontmatter`, from the rule adapter's `misreads`).
 */
export function checkRules(corpus: Corpus): Finding[] {
  const findings: Finding[] = [];
  const lister = createLister(corpus);
  for (const file of corpus.files.values()) {
    const rule = file.rule;
    if (rule === undefined) continue;
    const keys = frontmatterKeys(file.text);
    const adapter = RULE_ADAPTERS.get(rule.source);
    if (adapter === undefined) continue;
    // The forms the vendor's tool reads otherwise than the author meant: the adapter knows them.
    for (const misread of adapter.misreads?.(keys) ?? [])
      findings.push(
        finding(
          'misread-frontmatter',
          keyAt(file, misread.key),
          misread.problem,
          misread.fix,
          misread.lost === true ? 'error' : undefined,
        ),
      );
    const dialect = adapter.globs;
    // The adapter table says which key holds the patterns (docs/rules.md, "The vendors").
    const key = keys.find((entry) => entry.key === adapter.globKey);
    const owner = ownerOf(file);
    if (rule.kind === null) {
      const refused = absoluteRefused(rule.reason, dialect, rule.source, (glob) =>
        lister.anyMatch(owner, glob),
      );
      if (refused !== null)
        findings.push(
          finding(
            'unmatched-glob',
            { file: file.shown, ...where(key, refused) },
            `${JSON.stringify(refused)} matches no file under ${corpus.show(owner) || '.'}, read from there or as absolute, so this ${rule.source} rule never loads`,
            'fix the pattern: it is matched against paths relative to the folder that holds the rule folder',
          ),
        );
      continue;
    }
    if (rule.kind !== 'glob') continue;
    const compiled = compileRuleGlobs(rule.globs, dialect, rule.source);
    if (!compiled.ok) continue;
    for (const glob of compiled.globs) {
      if (lister.anyMatch(owner, glob)) continue;
      findings.push(
        finding(
          'unmatched-glob',
          { file: file.shown, ...where(key, glob.pattern) },
          `${JSON.stringify(glob.pattern)} matches no file under ${corpus.show(owner) || '.'}, so this ${rule.source} rule never loads`,
          'fix the pattern: it is matched against paths relative to the folder that holds the rule folder',
        ),
      );
    }
  }
  return findings;
}

/**
 * The pattern of a rule skipped for an absolute glob (a rule of continuedev/continue has `globs:` a
 * slash, then any folders, then `*.`), when it matches no file read from the project root either: a
 * host may read the leading `/` so. Other skipped rules (a climbing `../`, a pattern past what
 * ctxfiles compiles, bad frontmatter) claim nothing: a host may still match them.
 */
function absoluteRefused(
  reason: string,
  dialect: Parameters<typeof compileRuleGlobs>[1],
  source: string,
  anyMatch: (glob: CompiledGlob) => boolean,
): string | null {
  const quoted = /^bad glob: glob ("(?:[^"\\]|\\.)*"): absolute globs are not allowed/.exec(reason)?.[1];
  if (quoted === undefined) return null;
  const pattern = JSON.parse(quoted) as string;
  if (!pattern.startsWith('/')) return null;
  const rooted = compileRuleGlobs([pattern.replace(/^\/+/, '')], dialect, source);
  return rooted.ok && !rooted.globs.some(anyMatch) ? pattern : null;
}

/** The folder that holds the rule's vendor folder: globs are relative to it (docs/rules.md). */
function ownerOf(file: CorpusFile): string {
  const locations = RULE_ADAPTERS.get(file.rule?.source ?? '')?.locations ?? [];
  for (const location of locations) {
    const marker = `${path.sep}${location.path.split('/').join(path.sep)}`;
    const at = file.path.lastIndexOf(location.type === 'folder' ? `${marker}${path.sep}` : marker);
    if (at !== -1) return file.path.slice(0, at) || path.sep;
  }
  return path.dirname(file.path);
}

/** The line and column of a pattern in its key's value or items; the key itself otherwise. */
function where(key: FrontmatterKey | undefined, pattern: string): { line: number; column: number } {
  if (key === undefined) return { line: 1, column: 1 };
  const item = key.items.find((entry) => entry.value.includes(pattern));
  if (item !== undefined) return { line: item.line, column: item.column };
  return { line: key.line, column: key.column };
}

/** Where a key is written, for a finding. */
function keyAt(file: CorpusFile, key: FrontmatterKey): { file: string; line: number; column: number } {
  return { file: file.shown, line: key.line, column: key.column };
}

/**
 * Lists directories once per run and tells whether any file below a directory matches a glob. The
 * walk skips what the nested walk prunes (dependencies, build output) and `.git`, and stops at the
 * first match; paths are built as strings, relative to the owner.
 */
function createLister(corpus: Corpus) {
  const listings = new Map<string, readonly DirEntry[]>();
  let budget = MAX_ENTRIES;
  const list = (dir: string): readonly DirEntry[] => {
    let entries = listings.get(dir);
    if (entries === undefined) {
      try {
        entries = corpus.fs.readdir(dir);
      } catch {
        entries = [];
      }
      budget -= entries.length;
      listings.set(dir, entries);
    }
    return entries;
  };
  return {
    anyMatch(owner: string, glob: CompiledGlob): boolean {
      const stack: [string, string][] = [[glob.base === '' ? owner : path.join(owner, glob.base), glob.base]];
      while (stack.length > 0 && budget > 0) {
        const [dir, relative] = stack.pop() as [string, string];
        const prefix = relative === '' ? '' : `${relative}/`;
        for (const entry of list(dir)) {
          if (entry.kind === 'directory') {
            if (!PRUNED.has(entry.name) && !PRUNED_DIRECTORIES.has(entry.name))
              stack.push([`${dir}${path.sep}${entry.name}`, `${prefix}${entry.name}`]);
          } else if (entry.kind === 'file' && glob.test(`${prefix}${entry.name}`)) return true;
        }
      }
      // Past the budget nothing is claimed: a glob is reported only when the search was complete.
      return budget <= 0;
    },
  };
}
