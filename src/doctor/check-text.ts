import path from 'node:path';
import { isInside } from '../fs/contain.js';
import { MAX_INLINE_BYTES, readInstruction } from '../fs/read-instruction.js';
import { scanImports } from '../imports/scan-imports.js';
import type { Corpus, CorpusFile } from './corpus.js';
import { eachLine } from '../shared/each-line.js';
import { finding, type Finding } from './finding.js';
import { positionOf } from './position-of.js';

/**
 * The most names (code spans and link targets) and `npm run` lines checked per file: past them the
 * file is a list, not instructions, and checking the rest would only add findings past the cap.
 */
export const MAX_NAMES_PER_FILE = 2_000;

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
    // Loops, not push(...list): a file may hold more names than a call has room for arguments.
    if (importing.has(file.path)) for (const item of brokenImports(corpus, file, body)) findings.push(item);
    for (const item of danglingPaths(corpus, file, body)) findings.push(item);
    for (const item of missingScripts(corpus, file, body, scripts)) findings.push(item);
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
  let checked = 0;
  for (const reference of scanImports(file.text)) {
    if (reference.offset < body) continue;
    if ((checked += 1) > MAX_NAMES_PER_FILE) break;
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
    } else if (
      looksLikePath(reference.path) &&
      corpus.fs.probe(target) === null &&
      !isProse(corpus, file, reference.path)
    ) {
      findings.push(
        finding(
          'broken-import',
          at,
          `${spelled} names no file: the host leaves the text as written`,
          'fix the path (relative to this file) or remove the import',
          // Nothing is lost: a host that finds no file keeps the line as text.
          'warn',
        ),
      );
    }
  }
  return findings;
}

/**
 * `@vscode/prompt-tsx`, `@types/node`: a package name, not a path, when it has no file extension
 * and its first folder exists neither beside the file nor at the root.
 */
function isProse(corpus: Corpus, file: CorpusFile, spelled: string): boolean {
  if (hasFileExtension(spelled)) return false;
  const first = spelled.replace(/^(\.\.?\/)+/, '').split('/')[0] ?? '';
  return !besideOrAtRoot(corpus, file, spelled.slice(0, spelled.indexOf(first) + first.length));
}

function looksLikePath(spelled: string): boolean {
  return spelled.includes('/') || /\.[A-Za-z0-9]{1,8}$/.test(spelled);
}

/**
 * Paths in inline code spans and link targets outside fenced blocks that exist nowhere an agent
 * would look: beside the file, at the root, or anywhere in the repository under that name.
 */
function danglingPaths(corpus: Corpus, file: CorpusFile, body: number): Finding[] {
  const findings: Finding[] = [];
  // Past the walk's budget a name it did not see may exist: nothing is claimed.
  if (!corpus.index.complete) return findings;
  for (const { offset, text, link } of namedPaths(file.text, body)) {
    const candidate = pathOf(text);
    // A bare name in a code span is a file to create or a placeholder as often as a reference.
    if (candidate === null || (!link && !candidate.includes('/'))) continue;
    if (isToolSettings(candidate) || namesAnotherRepository(file.text, offset + text.length)) continue;
    if (exists(corpus, file, candidate)) continue;
    // `origin/main`, `plugin/no-important`, `pkg/subpath`: without a file extension, a path counts
    // only when its first folder is beside the file or at the root, so prose and package names
    // written as code are not taken for paths. The same for a first folder that is a dot-directory
    // (`.claude/settings.json`): a tool's own settings, made where it runs, not a project file.
    const first = candidate.replace(/^(\.\.?\/)+/, '').split('/')[0] ?? '';
    const prefix = candidate.slice(0, candidate.indexOf(first) + first.length);
    if ((!hasFileExtension(candidate) || first.startsWith('.')) && !besideOrAtRoot(corpus, file, prefix))
      continue;
    findings.push(
      finding(
        'dangling-path',
        { file: file.shown, ...positionOf(file.text, offset) },
        `${candidate} does not exist (beside this file, at the root, or anywhere in the repository)`,
        'fix the path or remove it: a model told to read it wastes a tool call',
      ),
    );
  }
  return findings;
}

/**
 * `.claude/settings.json`, `.continue/settings.local.json`: a tool's settings in its dot-directory,
 * which the tool or the user makes where it runs (a `.local` file is kept out of the repository).
 */
function isToolSettings(candidate: string): boolean {
  const parts = candidate.replace(/^(\.\.?\/)+/, '').split('/');
  const name = parts[parts.length - 1] ?? '';
  return (
    (parts[0] ?? '').startsWith('.') &&
    (/\.local\.[a-z]+$/i.test(name) || /^(settings|config)\.(json|jsonc|toml|ya?ml)$/i.test(name))
  );
}

/** `` `docs/x.md` in that repo ``: the text says the path is in another repository. */
function namesAnotherRepository(text: string, end: number): boolean {
  const rest = text.slice(end, end + 80);
  return /^[`)]?\s*(?:in|from|of)\s+(?:that|another|the other|their|the upstream|the [\w./-]+)\s+repo(?:sitory)?\b/i.test(
    rest,
  );
}

/** TypeScript sources are imported by the name they compile to: `index.js` names `index.ts`. */
const COMPILED_TWINS: Readonly<Record<string, readonly string[]>> = {
  js: ['ts', 'tsx'],
  jsx: ['tsx'],
  mjs: ['mts'],
  cjs: ['cts'],
};

function besideOrAtRoot(corpus: Corpus, file: CorpusFile, relative: string): boolean {
  return [path.dirname(file.path), corpus.root].some(
    (base) => corpus.fs.probe(path.resolve(base, relative)) !== null,
  );
}

function exists(corpus: Corpus, file: CorpusFile, relative: string): boolean {
  const extension = /\.([a-z]+)$/.exec(relative)?.[1] ?? '';
  const names = [
    relative,
    ...(COMPILED_TWINS[extension] ?? []).map((twin) => relative.slice(0, -extension.length) + twin),
  ];
  return names.some(
    (name) => besideOrAtRoot(corpus, file, name) || corpus.index.has(name.replace(/^(\.\.?\/)+/, '')),
  );
}

/** Code spans and link targets of the text after `body`, outside fenced code blocks. */
function namedPaths(text: string, body: number): { offset: number; text: string; link: boolean }[] {
  const found: { offset: number; text: string; link: boolean }[] = [];
  let fence: string | null = null;
  eachLine(text, { crlf: false }, (line, _index, start) => {
    if (start < body) return true;
    const marker = /^\s{0,3}(```+|~~~+)/.exec(line);
    if (marker !== null) {
      const kind = (marker[1] as string).slice(0, 3);
      if (fence === null) fence = kind;
      else if (fence === kind) fence = null;
      return true;
    }
    if (fence !== null) return true;
    if (found.length >= MAX_NAMES_PER_FILE) return false;
    for (const match of line.matchAll(/`([^`\n]+)`|\]\(([^)\s]+)\)/g)) {
      const inner = match[1] ?? match[2] ?? '';
      if (found.length >= MAX_NAMES_PER_FILE) break;
      const link = match[1] === undefined;
      found.push({ offset: start + (match.index ?? 0) + (link ? 2 : 1), text: inner, link });
    }
    return true;
  });
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
  corpus: Corpus,
  file: CorpusFile,
  body: number,
  scripts: (dir: string) => ReadonlySet<string> | null,
): Finding[] {
  const findings: Finding[] = [];
  const text = file.text.slice(body);
  let checked = 0;
  for (const match of text.matchAll(/\b(npm|pnpm|yarn) run(?:-script)? ([A-Za-z0-9:_.-]*[A-Za-z0-9_])/g)) {
    if ((checked += 1) > MAX_NAMES_PER_FILE) break;
    // The command as written: `pnpm run x` is quoted as pnpm, not npm.
    const tool = match[1] as string;
    const name = match[2] as string;
    const at = match.index ?? 0;
    // `cd core && npm run vitest` runs in core: the line's last `cd X &&` before the command.
    const before = text.slice(text.lastIndexOf('\n', at) + 1, at);
    const moved = /\bcd\s+([^\s&;|`'"]+)\s*&&\s*$/.exec(before)?.[1];
    const dir = moved === undefined ? path.dirname(file.path) : movedTo(corpus, file, moved);
    const known = dir === null ? null : scripts(dir);
    if (known === null || known.has(name)) continue;
    findings.push(
      finding(
        'missing-script',
        { file: file.shown, ...positionOf(file.text, body + at) },
        `${tool} run ${name}: the nearest package.json${moved === undefined ? '' : ` of ${moved}`} has no script "${name}"`,
        'name a script package.json defines, or add it',
      ),
    );
  }
  return findings;
}

/** Where `cd X` leads from the file's directory, else from the root; null when X is neither. */
function movedTo(corpus: Corpus, file: CorpusFile, target: string): string | null {
  for (const base of [path.dirname(file.path), corpus.root]) {
    const dir = path.resolve(base, target);
    if ((dir === corpus.root || isInside(corpus.root, dir)) && corpus.fs.probe(dir)?.kind === 'directory')
      return dir;
  }
  return null;
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
