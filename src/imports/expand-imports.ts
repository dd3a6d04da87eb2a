import path from 'node:path';
import type { Diagnostic } from '../errors.js';
import type { FileInfo, FileSystem } from '../fs/file-system.js';
import { defineSha256, digestOf, readInstruction, type InstructionRead } from '../fs/read-instruction.js';
import type { HiddenCharacter } from '../fs/hidden-unicode.js';
import { containImport, type SymlinkPolicy } from './contain-import.js';
import { commentsFailure, type ImportFailedChoice, type ImportFailure } from './failure-comment.js';
import { COMMENT_STYLE, type ImportStyle } from './import-style.js';
import { locateImport, type ImportRefusal } from './locate-import.js';
import { scanFileReferences, scanImports, type ImportReference } from './scan-imports.js';
import { createDiagnostics } from '../diagnostics.js';

/** How imported files are placed (docs/imports.md). */
export type ImportMode = 'entries' | 'inline';

export type { SymlinkPolicy } from './contain-import.js';

/** The file whose references are expanded. */
export interface ImportingFile {
  /** Absolute path as its source spelled it; relative references resolve against its directory. */
  readonly path: string;
  /** Canonical path of the file. */
  readonly realPath: string;
  /** Identity of the file, so a reference back to it is a cycle. */
  readonly info: Pick<FileInfo, 'dev' | 'ino'>;
  /** Its decoded text. */
  readonly text: string;
  /** The containment root of its source (the work dir, or the chain's start for chain files). */
  readonly root: string;
  /**
   * Set for a file whose `#[[file:path]]` references are followed too (a Kiro steering file): the
   * directory those paths are relative to. Only the file's own references: not those of its imports.
   */
  readonly fileReferencesFrom?: string;
}

/** Options of {@link expandImports}. */
export interface ImportOptions {
  /** Deepest import followed: 1 = the importer's own references. Default {@link DEFAULT_IMPORT_DEPTH}. */
  readonly maxDepth?: number;
  /** Default `entries`. */
  readonly mode?: ImportMode;
  /**
   * `inline` mode: `comment` replaces a reference that is not followed by a comment saying why
   * ({@link failureComment}); default `keep`: it stays as written; an object chooses per reason.
   */
  readonly failed?: ImportFailedChoice;
  /**
   * `inline` mode: the markers around an imported file and its failure comments
   * (src/imports/import-style.ts). Default ctxfiles' own, {@link COMMENT_STYLE}.
   */
  readonly style?: ImportStyle;
  /** `keep`: trailing punctuation is part of a reference's path ({@link scanImports}). Default `cut`. */
  readonly punctuation?: 'cut' | 'keep';
  /** Default `inside`: a link is followed when its real target stays inside the root. */
  readonly symlinks?: SymlinkPolicy;
  /**
   * True when the config that enabled imports is trusted: then targets outside the root (`@~/…`,
   * `@/…`, `@../…` above the root) are read. Default false: they are refused with a `warn` before
   * any filesystem access.
   */
  readonly trustOutside?: boolean;
  /** Where `@~/` points. Required to resolve `home` references. */
  readonly homeDir?: string;
  /** Read cap of each imported file, as for any instruction file. */
  readonly maxBytes: number;
  /**
   * Identities ({@link identityKey}) of files already placed by the caller (earlier chain files,
   * layers, imports of earlier files): a reference to one of them places nothing.
   */
  readonly placed?: ReadonlySet<string>;
}

/** The default of {@link ImportOptions.maxDepth}: Claude Code and Gemini CLI both stop at 5 hops. */
export const DEFAULT_IMPORT_DEPTH = 5;

/** One file brought in by a reference, with its provenance. */
export interface ImportedFile {
  /** Absolute path as resolved from the reference. */
  readonly path: string;
  readonly realPath: string;
  readonly info: FileInfo;
  /** Its own text, as read (its references not expanded, in both modes). */
  readonly text: string;
  readonly sha256: string;
  readonly bytes: number;
  readonly invalidUtf8: boolean;
  readonly hidden: readonly HiddenCharacter[];
  /** Path of the file whose reference brought it in. */
  readonly importedBy: string;
  /** The reference as written, without `@` and fragment. */
  readonly reference: string;
  /** 1 for a reference of the top importer, 2 for one of its imports, … */
  readonly depth: number;
  /** Paths from the top importer down to this file. */
  readonly chain: readonly string[];
}

/** The outcome of {@link expandImports}. */
export interface ImportExpansion {
  /**
   * `entries`: the importer's text unchanged. `inline`: every followed reference framed by the
   * {@link ImportOptions.style}: by default replaced by the imported text between
   * `<!-- Imported from: P -->` and `<!-- End of import from: P -->` markers, recursively;
   * references not followed stay as written.
   */
  readonly text: string;
  /**
   * True when `text` is escaped by the style (`inline` mode with a style that escapes, such as
   * `copilot`): a format that escapes the same tags leaves it as it is, frames included.
   */
  readonly escaped: boolean;
  /** Imported files, parent before children, depth first in reference order; each once. */
  readonly files: readonly ImportedFile[];
  readonly diagnostics: readonly Diagnostic[];
}

/** The identity key of a file: device and inode, the same for every spelling and link. */
export function identityKey(info: Pick<FileInfo, 'dev' | 'ino'>): string {
  return `${info.dev}:${info.ino}`;
}

/**
 * Expands the `@path` references of one file (found by {@link scanImports}). Each target passes
 * the containment of the importer's source before it is touched: a relative reference resolves
 * against the importer's directory and must stay inside `root`; a `home` or `absolute` one too,
 * unless `trustOutside`; then the symlink policy applies to its real path. Cycles and references
 * deeper than `maxDepth` are `warn` diagnostics naming the chain; a file already placed (by the
 * caller or earlier in this expansion) places nothing. Never throws.
 */
export function expandImports(fs: FileSystem, file: ImportingFile, options: ImportOptions): ImportExpansion {
  const expansion: Expansion = {
    fs,
    root: file.root,
    settings: {
      maxDepth: options.maxDepth ?? DEFAULT_IMPORT_DEPTH,
      mode: options.mode ?? 'entries',
      failed: options.failed ?? 'keep',
      style: options.style ?? COMMENT_STYLE,
      punctuation: options.punctuation ?? 'cut',
      symlinks: options.symlinks ?? 'inside',
      trustOutside: options.trustOutside ?? false,
      homeDir: options.homeDir,
      maxBytes: options.maxBytes,
    },
    files: [],
    diagnostics: createDiagnostics(),
    earlier: options.placed ?? new Set(),
    placed: new Set([identityKey(file.info)]),
    fileReferencesFrom: file.fileReferencesFrom,
  };
  const text = expand(expansion, { path: file.path, text: file.text }, [
    { key: identityKey(file.info), path: file.path },
  ]);
  const escaped = expansion.settings.mode === 'inline' && expansion.settings.style.escapes;
  return { text, escaped, files: expansion.files, diagnostics: expansion.diagnostics };
}

/** The state of one {@link expandImports} call, shared by its recursive steps. */
interface Expansion {
  readonly fs: FileSystem;
  /** The containment root of the top importer's source. */
  readonly root: string;
  readonly settings: ImportSettings;
  readonly files: ImportedFile[];
  readonly diagnostics: Diagnostic[];
  /** Identities the caller placed before: read, never copied or changed. */
  readonly earlier: ReadonlySet<string>;
  /** Identities this expansion placed: its importer and what it imported. */
  readonly placed: Set<string>;
  /** {@link ImportingFile.fileReferencesFrom} of the top importer. */
  readonly fileReferencesFrom: string | undefined;
}

/** The options of {@link expandImports} with their defaults applied. */
interface ImportSettings {
  readonly maxDepth: number;
  readonly mode: ImportMode;
  readonly failed: ImportFailedChoice;
  readonly style: ImportStyle;
  readonly punctuation: 'cut' | 'keep';
  readonly symlinks: SymlinkPolicy;
  readonly trustOutside: boolean;
  readonly homeDir: string | undefined;
  readonly maxBytes: number;
}

/** A file on the import stack: its identity and path. */
type StackEntry = { key: string; path: string };

/**
 * Follows the references of one file; in `inline` mode returns its text (escaped by the style)
 * with each followed reference framed. `stack` holds the identities of the files being expanded,
 * so a reference back to one is a cycle.
 */
function expand(
  expansion: Expansion,
  current: { path: string; text: string },
  stack: readonly StackEntry[],
): string {
  const { style } = expansion.settings;
  const inline = expansion.settings.mode === 'inline';
  const references = referencesOf(expansion, current, stack.length === 1);
  if (references.length === 0) return inline ? style.escape(current.text) : current.text;
  const chain = stack.map((entry) => entry.path);
  const placements: Placement[] = [];
  const lineEnd = lineEnds(current.text);
  // A reference written again in the same file leads where the first did, which is placed or
  // refused by then. The second copy is followed (it reports the duplicate or the same refusal);
  // later ones are not, so 100,000 copies cost a lookup each, not a walk of the filesystem and a
  // warning each (docs/security.md, "Bounds").
  const seen = new Map<string, { copies: number; failed: string | null }>();
  for (const reference of references) {
    const earlier = seen.get(reference.spelled);
    const outcome =
      earlier !== undefined && earlier.copies >= 2
        ? { failed: earlier.failed }
        : follow(expansion, reference, current.path, stack, chain);
    const failed = 'failed' in outcome ? outcome.failed : null;
    seen.set(reference.spelled, { copies: (earlier?.copies ?? 0) + 1, failed });
    const text = 'text' in outcome ? outcome.text : failed;
    if (inline && text !== null) placements.push(placement(style, lineEnd, reference, text));
  }
  return inline ? place(current.text, placements, style) : current.text;
}

/** Text the expansion writes into a file: `text` replaces `[start, end)` of it. */
interface Placement {
  readonly start: number;
  readonly end: number;
  readonly text: string;
  /** Set at the end of a text without a final line break: one goes before the first such placement. */
  readonly lineBreak?: true;
}

/** Where a reference's frame (or failure comment) goes in its file, by the style. */
function placement(
  style: ImportStyle,
  lineEnd: (from: number) => { at: number; lineBreak: boolean },
  reference: ImportReference,
  framed: string,
): Placement {
  const end = reference.offset + reference.length;
  if (style.at === 'reference') return { start: reference.offset, end, text: framed };
  const { at, lineBreak } = lineEnd(end);
  return { start: at, end: at, text: framed, ...(lineBreak ? { lineBreak: true as const } : {}) };
}

/**
 * For a file's text: where the line holding an offset ends, past its line break, or the text's end
 * with `lineBreak` when no line break follows. The first line break at or after an offset is kept
 * for the next, larger offsets, so 100,000 references on one line cost one scan of it.
 */
function lineEnds(text: string): (from: number) => { at: number; lineBreak: boolean } {
  let asked = -1;
  let found = -1;
  return (from) => {
    if (asked === -1 || from < asked || (found !== -1 && from > found)) found = text.indexOf('\n', from);
    asked = from;
    return found === -1 ? { at: text.length, lineBreak: true } : { at: found + 1, lineBreak: false };
  };
}

/** The file's text with the placements (in text order) written in; the rest escaped by the style. */
function place(text: string, placements: readonly Placement[], style: ImportStyle): string {
  let output = '';
  let last = 0;
  for (const { start, end, text: framed, lineBreak } of placements) {
    output += style.escape(text.slice(last, start));
    // A reference on the last line, with no line break after it, gets one before its frame.
    if (lineBreak === true && !output.endsWith('\n')) output += '\n';
    output += framed;
    last = end;
  }
  return output + style.escape(text.slice(last));
}

/**
 * The references of a file in text order: its `@path` imports and, for the top importer of a file
 * with {@link ImportingFile.fileReferencesFrom}, its `#[[file:path]]` references, turned into
 * relative references to the same target so that they pass the same containment.
 */
function referencesOf(
  expansion: Expansion,
  current: { path: string; text: string },
  top: boolean,
): ImportReference[] {
  const references = scanImports(current.text, { punctuation: expansion.settings.punctuation });
  const from = expansion.fileReferencesFrom;
  if (!top || from === undefined) return references;
  const dir = path.dirname(current.path);
  const files = scanFileReferences(current.text).map((found) => ({
    offset: found.offset,
    length: found.length,
    spelled: found.path,
    path: path.relative(dir, path.resolve(from, found.path)).split(path.sep).join('/'),
    kind: 'relative' as const,
    written: current.text.slice(found.offset, found.offset + found.length),
  }));
  if (files.length === 0) return references;
  return [...references, ...files].sort((a, b) => a.offset - b.offset);
}

/**
 * Places one reference's target; in `inline` mode returns its framed text. A reference not
 * followed gives what takes its place: a comment with `failed: comment`, else `null` (as written).
 */
function follow(
  expansion: Expansion,
  reference: ImportReference,
  importer: string,
  stack: readonly StackEntry[],
  chain: readonly string[],
): { readonly text: string } | { readonly failed: string | null } {
  const { fs, settings } = expansion;
  const depth = stack.length;
  const target = locateImport(reference, importer, expansion.root, settings);
  if (typeof target !== 'string') return notFollowed(expansion, reference, importer, target);
  const checked = containImport(fs, target, expansion.root, settings);
  if (!checked.ok) return notFollowed(expansion, reference, importer, checked, target, checked.error);
  const key = identityKey(checked.info);
  const refused = refusal(expansion, reference, { key, target, depth, chain, stack });
  if (refused !== null) return notFollowed(expansion, reference, importer, refused, target);
  const read = readInstruction(fs, checked.realPath, {
    maxBytes: settings.maxBytes,
    expect: { dev: checked.info.dev, ino: checked.info.ino },
  });
  if (!read.ok) {
    const why = unreadableReason(read, settings.maxBytes);
    const error = read.fault === 'unreadable' ? read.code : undefined;
    const message = `${target} (imported by ${importer}) is skipped: ${why}`;
    const unreadable: ImportRefusal = { level: 'warn', code: 'import-unreadable', message };
    return notFollowed(expansion, reference, importer, unreadable, target, error);
  }
  expansion.placed.add(key);
  expansion.files.push(
    importedFile(target, checked, read, { importedBy: importer, depth, chain, reference }),
  );
  const body = expand(expansion, { path: target, text: read.text }, [...stack, { key, path: target }]);
  return { text: settings.style.frame(reference, target, body) };
}

/**
 * A reference not followed, for the reason `why`: its diagnostic, at `target` once it is located
 * (else at the importer), and what takes its place: a comment with `failed: comment`, else `null`.
 */
function notFollowed(
  expansion: Expansion,
  reference: ImportReference,
  importer: string,
  why: ImportRefusal,
  target?: string,
  error?: string,
): { readonly failed: string | null } {
  const { level, code, message } = why;
  expansion.diagnostics.push({
    level,
    code,
    message,
    entry: reference.written ?? `@${reference.spelled}`,
    path: target ?? importer,
  });
  const failure: ImportFailure = { code, spelled: reference.spelled, kind: reference.kind, target, error };
  const { settings } = expansion;
  return { failed: commentsFailure(settings.failed, failure) ? settings.style.failed(failure) : null };
}

/** The record of a placed import; its digest stays lazy (src/fs/read-instruction.ts). */
function importedFile(
  target: string,
  checked: { readonly realPath: string; readonly info: FileInfo },
  read: Extract<InstructionRead, { ok: true }>,
  where: { importedBy: string; depth: number; chain: readonly string[]; reference: ImportReference },
): ImportedFile {
  const head = { path: target, realPath: checked.realPath, info: checked.info, text: read.text };
  return defineSha256(head, digestOf(read), {
    bytes: read.bytes,
    invalidUtf8: read.invalidUtf8,
    hidden: read.hidden,
    importedBy: where.importedBy,
    reference: where.reference.spelled,
    depth: where.depth,
    chain: [...where.chain, target],
  });
}

/** Why a contained target is not placed: a cycle, already placed, or too deep; `null` to place it. */
function refusal(
  expansion: Expansion,
  reference: ImportReference,
  at: {
    key: string;
    target: string;
    depth: number;
    chain: readonly string[];
    stack: readonly StackEntry[];
  },
): ImportRefusal | null {
  const { key, target, depth, chain, stack } = at;
  if (stack.some((entry) => entry.key === key))
    return {
      level: 'warn',
      code: 'import-cycle',
      message: `import cycle: ${spellChain([...chain, target])}; the repeated import is not followed`,
    };
  if (expansion.placed.has(key) || expansion.earlier.has(key))
    return {
      level: 'debug',
      code: 'import-duplicate',
      message: `${target} is already included; @${reference.spelled} adds nothing`,
    };
  if (depth > expansion.settings.maxDepth)
    return {
      level: 'warn',
      code: 'import-depth',
      message: `${spellChain([...chain, target])}: imports deeper than ${expansion.settings.maxDepth} are not followed`,
    };
  return null;
}

/**
 * An import chain for a message: every file when there are at most six, else the first two and
 * the last three around a count, so a warning never grows with the depth of the chain.
 */
export function spellChain(chain: readonly string[]): string {
  if (chain.length <= 6) return chain.join(' → ');
  const skipped = chain.length - 5;
  return [...chain.slice(0, 2), `… ${skipped} more …`, ...chain.slice(-3)].join(' → ');
}

/** The reason an imported file cannot be placed, for its `import-unreadable` warning. */
function unreadableReason(read: Extract<InstructionRead, { ok: false }>, maxBytes: number): string {
  if (read.fault === 'too-large') return `it is larger than ${maxBytes} bytes`;
  if (read.fault === 'binary') return 'it is not text';
  if (read.fault === 'vanished') return 'it vanished while it was read';
  return `it cannot be read (${read.code ?? 'EUNKNOWN'})`;
}
