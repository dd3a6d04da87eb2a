/**
 * Finds `@path` import references in instruction text (docs/imports.md). Pure and linear in the
 * length of the text: one pass over lines for fenced code blocks, one pass over backtick runs for
 * code spans, one pass for references. No regular expression here can backtrack.
 */

/** How a reference names its target. */
export type ImportKind = 'relative' | 'home' | 'absolute';

/** One `@path` reference found in a text. */
export interface ImportReference {
  /** Offset of the `@` in the text (UTF-16 code units). */
  readonly offset: number;
  /** Length of the reference as written: `@`, the path, an optional `#fragment`; no trailing punctuation unless kept. */
  readonly length: number;
  /** The path as written after `@`, without the fragment (escaped spaces still escaped). */
  readonly spelled: string;
  /** The path to resolve: `spelled` with `\ ` unescaped to a space. */
  readonly path: string;
  /** `home` for `~/…`, `absolute` for `/…`, else `relative` (to the importing file's directory). */
  readonly kind: ImportKind;
  /** How the reference is shown in messages when it is not `@` and the path (`#[[file:x]]`). */
  readonly written?: string;
}

/** One `#[[file:path]]` reference of a Kiro steering file: where it is and the path as written. */
export interface FileReference {
  readonly offset: number;
  readonly length: number;
  /** The path between `file:` and `]]`, trimmed: relative to the workspace. */
  readonly path: string;
}

const FILE_REFERENCE = '#[[file:';

/**
 * Every `#[[file:path]]` reference of `text` outside fenced code blocks and inline code spans, in
 * text order (Kiro steering files, docs/rules.md). The reference closes at the first `]]` on its line;
 * one without it, with an empty path, or with an absolute path (`/…`, `~…`, `C:…`) is not a reference.
 * Linear in the length of the text.
 */
export function scanFileReferences(text: string): FileReference[] {
  if (!text.includes(FILE_REFERENCE)) return [];
  const code = findCodeRegions(text);
  const references: FileReference[] = [];
  let region = 0;
  for (let at = text.indexOf(FILE_REFERENCE); at !== -1; at = text.indexOf(FILE_REFERENCE, at + 1)) {
    while (region < code.length && (code[region] as CodeRegion).end <= at) region += 1;
    const current = code[region];
    if (current !== undefined && current.start <= at) {
      at = current.end - 1;
      continue;
    }
    const lineEnd = text.indexOf('\n', at);
    const close = text.indexOf(']]', at + FILE_REFERENCE.length);
    if (close === -1 || (lineEnd !== -1 && close > lineEnd)) continue;
    const written = text.slice(at + FILE_REFERENCE.length, close).trim();
    if (written === '' || /^(?:[/\\~]|[A-Za-z]:)/.test(written)) continue;
    references.push({ offset: at, length: close + 2 - at, path: written });
    at = close + 1;
  }
  return references;
}

/** Characters that end a sentence or a bracket and are cut from the end of a reference. */
const TRAILING = new Set(['.', ',', ';', ':', '!', '?', ')', ']', '}', '"', "'", '*', '_', '>']);

/**
 * Returns every `@path` reference of `text` that lies outside fenced code blocks and inline code
 * spans, in text order. A reference starts with `@` at the start of the text or after whitespace
 * (so `me@example.com` and `\@x` are not references), runs to the next whitespace (`\ ` escapes a
 * space), drops a `#fragment`, and loses trailing sentence punctuation (`@AGENTS.md.` names
 * `AGENTS.md`). Its path must start with `~/`, `/` followed by a name, or a letter, digit, `.`,
 * `_` or `-`; a URL-like path (`@https://…`) is not a reference. With `punctuation: 'keep'` the
 * punctuation stays part of the path (`@AGENTS.md.` names `AGENTS.md.`), as Gemini CLI's
 * `findImports` reads a reference (packages/core/src/utils/memoryImportProcessor.ts).
 */
export function scanImports(
  text: string,
  { punctuation = 'cut' }: { readonly punctuation?: 'cut' | 'keep' } = {},
): ImportReference[] {
  const code = findCodeRegions(text);
  const references: ImportReference[] = [];
  let region = 0;
  for (let at = text.indexOf('@'); at !== -1; at = text.indexOf('@', at + 1)) {
    while (region < code.length && (code[region] as CodeRegion).end <= at) region += 1;
    const current = code[region];
    if (current !== undefined && current.start <= at) {
      at = current.end - 1;
      continue;
    }
    // A byte-order mark at the very start counts as the start of the text.
    if (at > 0 && !isWhitespace(text.charCodeAt(at - 1)) && !(at === 1 && text.charCodeAt(0) === 0xfeff))
      continue;
    const reference = readReference(text, at, current?.start ?? text.length, punctuation === 'cut');
    if (reference === null) continue;
    references.push(reference);
    at += reference.length - 1;
  }
  return references;
}

/** A half-open range `[start, end)` of the text that is code. */
export interface CodeRegion {
  readonly start: number;
  readonly end: number;
}

/**
 * Fenced code blocks and inline code spans of `text`, sorted and disjoint. Fences: a line whose
 * first characters after any indentation (spaces, tabs) and blockquote markers (`>`) are three or
 * more backticks or tildes opens a block; a backtick fence's info string holds no backtick. The
 * block ends at a line holding the same character at least as many times and nothing else but
 * whitespace, or at the end of the text. Any indentation is accepted (fences inside list items);
 * indented code blocks are not recognised. Code spans follow CommonMark: a run of N backticks
 * (not escaped by a backslash) opens a span that the next run of exactly N backticks closes,
 * within one paragraph (no blank line between); without a closer the run is literal text.
 */
export function findCodeRegions(text: string): CodeRegion[] {
  const regions: CodeRegion[] = [];
  let fence: { char: number; length: number; start: number } | null = null;
  let paragraphStart = -1;
  let lineStart = 0;
  while (lineStart <= text.length) {
    let lineEnd = text.indexOf('\n', lineStart);
    if (lineEnd === -1) lineEnd = text.length;
    const marker = fenceMarker(text, lineStart, lineEnd);
    if (fence !== null) {
      if (
        marker !== null &&
        marker.char === fence.char &&
        marker.length >= fence.length &&
        isBlank(text, marker.end, lineEnd)
      ) {
        regions.push({ start: fence.start, end: lineEnd });
        fence = null;
      }
    } else if (marker !== null && (marker.char === TILDE || !hasBacktick(text, marker.end, lineEnd))) {
      if (paragraphStart !== -1) spans(text, paragraphStart, lineStart, regions);
      paragraphStart = -1;
      fence = { char: marker.char, length: marker.length, start: lineStart };
    } else if (isBlank(text, lineStart, lineEnd)) {
      if (paragraphStart !== -1) spans(text, paragraphStart, lineStart, regions);
      paragraphStart = -1;
    } else if (paragraphStart === -1) {
      paragraphStart = lineStart;
    }
    lineStart = lineEnd + 1;
  }
  if (fence !== null) regions.push({ start: fence.start, end: text.length });
  else if (paragraphStart !== -1) spans(text, paragraphStart, text.length, regions);
  return regions;
}

const BACKTICK = 96;
const TILDE = 126;
const BACKSLASH = 92;

function fenceMarker(
  text: string,
  start: number,
  end: number,
): { char: number; length: number; end: number } | null {
  let at = start;
  while (at < end) {
    const c = text.charCodeAt(at);
    if (c !== 32 && c !== 9 && c !== 62 /* > */) break;
    at += 1;
  }
  const char = text.charCodeAt(at);
  if (char !== BACKTICK && char !== TILDE) return null;
  let run = at;
  while (run < end && text.charCodeAt(run) === char) run += 1;
  return run - at >= 3 ? { char, length: run - at, end: run } : null;
}

// Both loops stop at `end`: `indexOf` would scan past it, and a text of many short lines would
// then cost quadratic time.
function hasBacktick(text: string, start: number, end: number): boolean {
  for (let at = start; at < end; at += 1) if (text.charCodeAt(at) === BACKTICK) return true;
  return false;
}

function isBlank(text: string, start: number, end: number): boolean {
  for (let at = start; at < end; at += 1) if (!isWhitespace(text.charCodeAt(at))) return false;
  return true;
}

/**
 * Code spans of one paragraph `[start, end)`, appended to `out`. Runs are listed once; for each
 * length a cursor moves forward only, so finding every closer costs O(runs) in total.
 */
function spans(text: string, start: number, end: number, out: CodeRegion[]): void {
  const runs: { start: number; length: number }[] = [];
  for (let at = start; at < end; at += 1) {
    if (text.charCodeAt(at) !== BACKTICK) continue;
    let stop = at;
    while (stop < end && text.charCodeAt(stop) === BACKTICK) stop += 1;
    runs.push({ start: at, length: stop - at });
    at = stop;
  }
  if (runs.length < 2) return;
  const byLength = new Map<number, number[]>();
  runs.forEach((run, index) => {
    const list = byLength.get(run.length);
    if (list === undefined) byLength.set(run.length, [index]);
    else list.push(index);
  });
  const cursor = new Map<number, number>();
  for (let index = 0; index < runs.length; index += 1) {
    const run = runs[index] as { start: number; length: number };
    let openStart = run.start;
    let openLength = run.length;
    // Outside a span, a backslash escapes the first backtick of a run (CommonMark).
    if (escaped(text, run.start, start)) {
      openStart += 1;
      openLength -= 1;
      if (openLength === 0) continue;
    }
    const list = byLength.get(openLength);
    if (list === undefined) continue;
    let position = cursor.get(openLength) ?? 0;
    while (position < list.length && (list[position] as number) <= index) position += 1;
    cursor.set(openLength, position);
    if (position === list.length) continue;
    const closer = list[position] as number;
    const close = runs[closer] as { start: number; length: number };
    out.push({ start: openStart, end: close.start + close.length });
    index = closer;
  }
}

/** True when an odd number of backslashes precede `at` (not looking before `floor`). */
function escaped(text: string, at: number, floor: number): boolean {
  let count = 0;
  for (let back = at - 1; back >= floor && text.charCodeAt(back) === BACKSLASH; back -= 1) count += 1;
  return count % 2 === 1;
}

function readReference(text: string, at: number, limit: number, cut: boolean): ImportReference | null {
  let end = at + 1;
  while (end < limit) {
    const c = text.charCodeAt(end);
    if (c === BACKSLASH && end + 1 < limit && text.charCodeAt(end + 1) === 32) {
      end += 2;
      continue;
    }
    if (isWhitespace(c)) break;
    end += 1;
  }
  // Trailing punctuation is not part of the path; an escaped space is never cut.
  while (cut && end > at + 1 && TRAILING.has(text.charAt(end - 1))) end -= 1;
  const written = text.slice(at + 1, end);
  const hash = written.indexOf('#');
  const spelled = hash === -1 ? written : written.slice(0, hash);
  if (!startsLikePath(spelled)) return null;
  const kind: ImportKind = spelled.startsWith('~/')
    ? 'home'
    : spelled.startsWith('/')
      ? 'absolute'
      : 'relative';
  return { offset: at, length: end - at, spelled, path: spelled.split('\\ ').join(' '), kind };
}

function startsLikePath(spelled: string): boolean {
  if (spelled === '' || spelled === '.' || spelled === '..') return false;
  if (spelled.startsWith('~/')) return spelled.length > 2;
  if (spelled.startsWith('/')) return spelled.length > 1 && spelled.charCodeAt(1) !== 47;
  if (!/^[A-Za-z0-9._-]/.test(spelled)) return false;
  // `https://…`, `mailto:…`: a scheme is not a path.
  return !/^[A-Za-z][A-Za-z0-9+.-]*:/.test(spelled);
}

function isWhitespace(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13 || c === 12 || c === 11;
}
