import path from 'node:path';
import { isInside } from '../fs/contain.js';
import type { FileSystem } from '../fs/file-system.js';
import { MAX_INLINE_BYTES, readInstruction } from '../fs/read-instruction.js';
import type { RuleExplanation } from '../rules/explain-rules.js';
import type { SiteOutcome } from './matrix.js';
import type { RepoIndex } from './repo-index.js';

/** The most bytes of instruction files doctor reads for its checks; files past it are not checked. */
export const MAX_CORPUS_BYTES = 8 * 1024 * 1024;

/** One instruction file of the project that some host reads, as it is on disk. */
export interface CorpusFile {
  /** Absolute, as the resolution spelled it. */
  readonly path: string;
  /** Relative to the repository root, `/` separators. */
  readonly shown: string;
  /** The whole file, frontmatter included. */
  readonly text: string;
  readonly mtimeMs: number;
  /** Set when the file is a rule of some host. */
  readonly rule?: RuleExplanation;
}

/** A set of files one host loads together at one site. */
export interface LoadSet {
  readonly host: string;
  readonly site: string;
  /** Absolute paths, in load order. */
  readonly files: readonly string[];
  /** True when the host expands `@path` imports. */
  readonly imports: boolean;
}

/** What the checks read: the project's instruction files and what each host loads together. */
export interface Corpus {
  readonly fs: FileSystem;
  /** The project root: the nearest ancestor of the work dir holding `.git`, else the work dir. */
  readonly root: string;
  readonly workDir: string;
  readonly files: ReadonlyMap<string, CorpusFile>;
  readonly loads: readonly LoadSet[];
  readonly show: (absolute: string) => string;
  /** The repository's entries, for names a file mentions. */
  readonly index: RepoIndex;
  /** True when something exists at the absolute path (asked once per path). */
  readonly exists: (absolute: string) => boolean;
}

/**
 * Gathers every file inside the project that some host loads or knows as a rule, read once as raw
 * text (bounded; a file that cannot be read is left out: the resolution already said why).
 */
export function gatherCorpus(
  fs: FileSystem,
  root: string,
  workDir: string,
  outcomes: readonly SiteOutcome[],
  show: (absolute: string) => string,
  index: RepoIndex,
): Corpus {
  let budget = MAX_CORPUS_BYTES;
  const files = new Map<string, CorpusFile>();
  // A rule file some host inlines raw is still a rule: its explanation is attached whoever reads it first.
  const rules = new Map<string, RuleExplanation>();
  for (const { hosts } of outcomes)
    for (const outcome of hosts) for (const rule of outcome.rules) rules.set(rule.path, rule);
  const add = (file: string) => {
    if (files.has(file) || budget <= 0 || !(file === root || isInside(root, file))) return;
    const rule = rules.get(file);
    const read = readInstruction(fs, file, { maxBytes: Math.min(MAX_INLINE_BYTES, budget) });
    if (!read.ok) return;
    budget -= read.text.length;
    files.set(file, {
      path: file,
      shown: show(file),
      text: read.text,
      mtimeMs: read.mtimeMs,
      ...(rule === undefined ? {} : { rule }),
    });
  };
  const loads: LoadSet[] = [];
  for (const { site, hosts } of outcomes) {
    for (const { host, files: loaded, rules: known, imports } of hosts) {
      for (const rule of known) add(rule.path);
      for (const file of loaded) add(file);
      loads.push({ host, site: site.path, files: loaded, imports });
    }
  }
  const probed = new Map<string, boolean>();
  const exists = (absolute: string) => {
    let found = probed.get(absolute);
    if (found === undefined) {
      found = fs.probe(absolute) !== null;
      probed.set(absolute, found);
    }
    return found;
  };
  return { fs, root, workDir, files, loads, show, index, exists };
}

/** The nearest ancestor of the work dir holding `.git`, else the work dir. */
export function projectRoot(fs: FileSystem, workDir: string): string {
  for (let dir = workDir; ; dir = path.dirname(dir)) {
    if (fs.probe(path.join(dir, '.git')) !== null) return dir;
    if (path.dirname(dir) === dir) return workDir;
  }
}
