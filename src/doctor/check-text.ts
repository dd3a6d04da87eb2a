import path from 'node:path';
import { isInside } from '../fs/contain.js';
import { MAX_INLINE_BYTES, readInstruction } from '../fs/read-instruction.js';
import { scanImports } from '../imports/scan-imports.js';
import type { Corpus, CorpusFile } from './corpus.js';
import { finding, type Finding } from './finding.js';
import { positionOf } from './matrix.js';

/** Extensions that make a code span without a `/` read as a file name (`package.json`). */
const FILE_EXTENSIONS = new Set(
  'md mdc markdown txt json jsonc yaml yml toml ts tsx mts cts js jsx mjs cjs py go rs rb java kt sh css scss html sql'.split(
    ' ',
  ),
);

/**
 * What instruction text names: `@path` imports of files a host expands imports in (`broken-import`),
 * paths in code spans and links (`dangling-path`) and `npm run` scripts (`missing-script`).
 */
export function checkText(corpus: Corpus): Finding[] {
  const findings: Finding[] = [];
  const importing = new Set(corpus.loads.filter((load) => load.imports).flatMap((load) => load.files));
  const scripts = scriptsLookup(corpus);
  for (const file of corpus.files.values()) {
    const body = bodyStart(file.text);
    if (importing.has(file.path)) findings.push(...brokenImports(corpus, file, body));
    findings.push(...danglingPaths(corpus, file, body));
    findings.push(...missingScripts(file, body, scripts));
  }
  return findings;
}

/** The offset after the frontmatter block, or 0. */
function bodyStart(text: string): number {
  const match = /^\uFEFF?---\r?\n[\s\S]*?\r?\n---[ \t]*(\r?\n|$)/.exec(text);
  return match === null ? 0 : match[0].length;
}

function brokenImports(corpus: Corpus, file: CorpusFile, body: number): Finding[] {
  const findings: Finding[] = [];
  for (const reference of scanImports(file.text)) {
    if (reference.offset < body) continue;
    const spelled = `@${reference.spelled}`;
    const at = { file: file.shown, ...positionOf(file.text, reference.offset) };
    const target =
      reference.kind === 'relative'
        ? path.resolve(path.dirname(file.path), reference.path)
        : reference.kind === 'absolute'
          ? path.resolve(reference.path)
          : null;
    if (target === null || !isInside(corpus.root, target)) {
      findings.push(
        finding(
          'broken-import',
          at,
          `${spelled} leaves the project: hosts that keep imports inside it do not read it, others read a file no one else has`,
          'move the imported file into the project and import it by a relative path',
        ),
      );
    } else if (looksLikePath(reference.path) && corpus.fs.probe(target) === null) {
      findings.push(
        finding(
          'broken-import',
          at,
          `${spelled} names no file`,
          'fix the path (relative to this file) or remove the import',
        ),
      );
    }
  }
  return findings;
}

function looksLikePath(spelled: string): boolean {
  return spelled.includes('/') || /\.[A-Za-z0-9]{1,8}$/.test(spelled);
}

/** Paths in inline code spans and link targets outside fenced blocks that exist nowhere. */
function danglingPaths(corpus: Corpus, file: CorpusFile, body: number): Finding[] {
  const findings: Finding[] = [];
  for (const { offset, text } of namedPaths(file.text, body)) {
    const candidate = pathOf(text);
    if (candidate === null) continue;
    const bases = [path.dirname(file.path), corpus.root];
    const exists = (relative: string) =>
      bases.some((base) => corpus.fs.probe(path.resolve(base, relative)) !== null);
    if (exists(candidate)) continue;
    // `origin/main`, `text/plain`: without a file extension, a path counts only when its first
    // folder exists, so prose written as code is not taken for a path.
    const first = candidate.replace(/^(\.\.?\/)+/, '').split('/')[0] ?? '';
    if (!hasFileExtension(candidate) && !exists(candidate.slice(0, candidate.indexOf(first) + first.length)))
      continue;
    findings.push(
      finding(
        'dangling-path',
        { file: file.shown, ...positionOf(file.text, offset) },
        `${candidate} does not exist (relative to this file or to the project root)`,
        'fix the path or remove it: a model told to read it wastes a tool call',
      ),
    );
  }
  return findings;
}

/** Code spans and link targets of the text after `body`, outside fenced code blocks. */
function namedPaths(text: string, body: number): { offset: number; text: string }[] {
  const found: { offset: number; text: string }[] = [];
  let fence: string | null = null;
  let offset = 0;
  for (const line of text.split('\n')) {
    const start = offset;
    offset += line.length + 1;
    if (start < body) continue;
    const marker = /^\s{0,3}(```+|~~~+)/.exec(line);
    if (marker !== null) {
      const kind = (marker[1] as string).slice(0, 3);
      if (fence === null) fence = kind;
      else if (fence === kind) fence = null;
      continue;
    }
    if (fence !== null) continue;
    for (const match of line.matchAll(/`([^`\n]+)`|\]\(([^)\s]+)\)/g)) {
      const inner = match[1] ?? match[2] ?? '';
      found.push({ offset: start + (match.index ?? 0) + (match[1] === undefined ? 2 : 1), text: inner });
    }
  }
  return found;
}

function hasFileExtension(candidate: string): boolean {
  const extension = /\.([A-Za-z0-9]+)$/.exec(candidate)?.[1];
  return extension !== undefined && FILE_EXTENSIONS.has(extension.toLowerCase());
}

/** The path a code span or link names, or `null` when it does not read as a project path. */
function pathOf(spelled: string): string | null {
  let text = spelled.trim();
  if (/^[a-z][a-z0-9+.-]*:/i.test(text) || text.startsWith('#')) return null;
  text = text.replace(/#.*$/, '').replace(/:\d+(:\d+)?$/, '');
  if (text === '' || /[\s*?{}[\]<>$|'"`\\,;=()]/.test(text)) return null;
  if (text.startsWith('-') || text.startsWith('@') || text.startsWith('~') || path.isAbsolute(text))
    return null;
  if (text.includes('/')) return /[A-Za-z0-9]/.test(text) ? text : null;
  return hasFileExtension(text) && !text.startsWith('.') ? text : null;
}

function missingScripts(
  file: CorpusFile,
  body: number,
  scripts: (dir: string) => ReadonlySet<string> | null,
): Finding[] {
  const findings: Finding[] = [];
  const known = scripts(path.dirname(file.path));
  if (known === null) return findings;
  for (const match of file.text
    .slice(body)
    .matchAll(/\b(?:npm|pnpm|yarn) run(?:-script)? ([A-Za-z0-9:_.-]*[A-Za-z0-9_])/g)) {
    const name = match[1] as string;
    if (known.has(name)) continue;
    findings.push(
      finding(
        'missing-script',
        { file: file.shown, ...positionOf(file.text, body + (match.index ?? 0)) },
        `npm run ${name}: the nearest package.json has no script "${name}"`,
        'name a script package.json defines, or add it',
      ),
    );
  }
  return findings;
}

/** The scripts of the nearest package.json at or above a directory, inside the project; cached. */
function scriptsLookup(corpus: Corpus): (dir: string) => ReadonlySet<string> | null {
  const cache = new Map<string, ReadonlySet<string> | null>();
  const lookup = (dir: string): ReadonlySet<string> | null => {
    const cached = cache.get(dir);
    if (cached !== undefined) return cached;
    let found: ReadonlySet<string> | null = null;
    const read = readInstruction(corpus.fs, path.join(dir, 'package.json'), { maxBytes: MAX_INLINE_BYTES });
    if (read.ok) found = scriptNames(read.text);
    else if (dir !== corpus.root && isInside(corpus.root, dir)) found = lookup(path.dirname(dir));
    cache.set(dir, found);
    return found;
  };
  return lookup;
}

function scriptNames(text: string): ReadonlySet<string> | null {
  try {
    const manifest = JSON.parse(text) as { scripts?: unknown };
    const scripts = manifest.scripts;
    return new Set(typeof scripts === 'object' && scripts !== null ? Object.keys(scripts) : []);
  } catch {
    return null;
  }
}
