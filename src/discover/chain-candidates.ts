import { checkRelativeEntry, describeRefusal, hasControlCharacter } from '../fs/contain.js';

/** `instructions.select`: how many existing candidates of one directory the chain takes. */
export type CandidateSelect = 'first' | 'all';

/** Why a chain candidate is not acceptable (a config error naming the candidate). */
export type CandidateRefusal =
  | 'empty'
  | 'control-character'
  | 'absolute'
  | 'backslash'
  | 'colon'
  | 'dot-segment'
  | 'empty-segment'
  | 'trailing-slash'
  | 'device-name';

/**
 * Checks one `instructions.candidates` entry: a file name or a relative sub-path below the
 * directory being walked (`CLAUDE.md`, `.claude/CLAUDE.md`), written plainly: no `.` or `..`
 * segment, no empty segment, no trailing `/`, no backslash, `:` or control character, not
 * absolute, not a reserved device name. Returns `null` when it is acceptable. The `@rules`
 * placeholder is not a path and is left to the caller.
 */
export function checkCandidate(candidate: string): CandidateRefusal | null {
  if (candidate === '') return 'empty';
  if (hasControlCharacter(candidate)) return 'control-character';
  if (candidate.endsWith('/')) return 'trailing-slash';
  for (const segment of candidate.split('/')) {
    if (segment === '.' || segment === '..') return 'dot-segment';
  }
  if (candidate.split('/').includes('') && !candidate.startsWith('/')) return 'empty-segment';
  const refusal = checkRelativeEntry(candidate);
  switch (refusal) {
    case null:
      return null;
    case 'absolute':
    case 'drive':
    case 'unc':
      return 'absolute';
    case 'backslash':
      return 'backslash';
    case 'colon':
      return 'colon';
    case 'device-name':
      return 'device-name';
    case 'nul':
      return 'control-character';
    case 'empty':
      return 'empty';
    case 'climbs-out':
      return 'dot-segment';
  }
}

/** Human wording of a {@link CandidateRefusal}, for the config error. */
export function describeCandidateRefusal(refusal: CandidateRefusal): string {
  switch (refusal) {
    case 'empty':
      return 'a candidate cannot be empty';
    case 'control-character':
      return 'a candidate cannot hold control characters';
    case 'dot-segment':
      return 'a candidate cannot hold "." or ".." segments';
    case 'empty-segment':
      return 'a candidate cannot hold an empty segment ("//")';
    case 'trailing-slash':
      return 'a candidate names a file, not a directory (no trailing "/")';
    case 'absolute':
    case 'backslash':
    case 'colon':
    case 'device-name':
      return describeRefusal(refusal);
  }
}

/**
 * Splits the candidates that exist in one directory (in candidate order) into the ones the chain
 * takes and the ones it leaves: `first` takes the first, `all` takes every one.
 */
export function selectCandidates<T>(
  existing: readonly T[],
  select: CandidateSelect,
): { readonly chosen: readonly T[]; readonly shadowed: readonly T[] } {
  if (select === 'all') return { chosen: existing, shadowed: [] };
  return { chosen: existing.slice(0, 1), shadowed: existing.slice(1) };
}

/**
 * True when `text` holds nothing but whitespace (an empty file included): such a chain file is
 * skipped with an `info` rather than framed with a header and no content. Codex does the same
 * after it picked a directory's file, without trying the next name (`read_project_docs` in
 * openai/codex, codex-rs/core/src/project_doc.rs). Whitespace is what `String.prototype.trim`
 * removes: Unicode spaces, line terminators and a byte-order mark.
 */
export function isBlankText(text: string): boolean {
  return text.trim() === '';
}
