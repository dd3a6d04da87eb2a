import type { DiagnosticCode } from '../diagnostics.js';

/** What {@link failureComment} needs to know about a reference that was not followed. */
export interface ImportFailure {
  /** The diagnostic code of the refusal (`import-outside`, `import-missing`, …). */
  readonly code: DiagnosticCode;
  /** The path as the reference spelled it. */
  readonly spelled: string;
  /** How the reference names its target; a `home` one (`@~/…`) is never commented. */
  readonly kind?: 'relative' | 'home' | 'absolute' | undefined;
  /** The absolute target, when the reference got that far. */
  readonly target?: string | undefined;
  /** The error code of a failed lookup or read (`ENOENT`, `EISDIR`, …), when there was one. */
  readonly error?: string | undefined;
}

/**
 * Why a reference was not followed, as `imports.failed` names it (docs/imports.md): `missing`, no
 * file at the path (ENOENT); `unreadable`, something there that cannot be read (a directory, a path
 * through a file, a read error); `outside`, it leaves the root or a link leads out; `repeated`, a
 * cycle or a file already placed.
 */
export type ImportFailureReason = 'missing' | 'unreadable' | 'outside' | 'repeated';

/**
 * What a reference not followed becomes in `inline` mode: `keep` (as written), `comment` (the
 * style's comment), or a choice per {@link ImportFailureReason} (a reason left out: `keep`).
 */
export type ImportFailedChoice =
  'keep' | 'comment' | Readonly<Partial<Record<ImportFailureReason, 'keep' | 'comment'>>>;

/** The reason of a refusal, or `null` for refusals no style comments (an unusable path, too deep). */
export function failureReason(failure: ImportFailure): ImportFailureReason | null {
  switch (failure.code) {
    case 'import-outside':
    case 'import-symlink':
      return 'outside';
    case 'import-cycle':
    case 'import-duplicate':
      return 'repeated';
    case 'import-missing':
      return failure.error === 'ENOENT' ? 'missing' : 'unreadable';
    case 'import-unreadable':
      return 'unreadable';
    default:
      return null;
  }
}

/** True when `failed` asks for a comment in place of this failure. */
export function commentsFailure(failed: ImportFailedChoice, failure: ImportFailure): boolean {
  if (typeof failed === 'string') return failed === 'comment';
  const reason = failureReason(failure);
  return reason !== null && failed[reason] === 'comment';
}

/**
 * The comment that takes the place of a reference not followed, with `imports.failed: "comment"`
 * (docs/imports.md, "When a reference is not followed"), in the style of the inline markers: a
 * reference that leaves the root, `<!-- Import failed: P - Path traversal attempt -->`; one already
 * placed or leading back into its chain, `<!-- File already processed: P -->`; a target that cannot
 * be read, `<!-- Import failed: P - <error> -->` with the error as Node words it. `null` for
 * refusals that leave the reference as written (an unusable path, a file too large, too deep), and
 * for every `@~/…` reference: Gemini CLI does not read `~` as the start of an import.
 * Markers from google-gemini/gemini-cli `packages/core/src/utils/memoryImportProcessor.ts`.
 */
export function failureComment(failure: ImportFailure): string | null {
  const { code, spelled } = failure;
  if (failure.kind === 'home') return null;
  switch (code) {
    case 'import-outside':
    case 'import-symlink':
      return `<!-- Import failed: ${spelled} - Path traversal attempt -->`;
    case 'import-cycle':
    case 'import-duplicate':
      return `<!-- File already processed: ${spelled} -->`;
    case 'import-missing':
    case 'import-unreadable': {
      const error =
        failure.error === undefined ? null : nodeMessage(failure.error, failure.target ?? spelled);
      return error === null ? null : `<!-- Import failed: ${spelled} - ${error} -->`;
    }
    default:
      return null;
  }
}

/**
 * Node's message for a failed `access` then `readFile` of a path: the lookup errors come from
 * `access`, the others from `open`, and a directory passes `access` and fails the `read`.
 */
function nodeMessage(error: string, target: string): string | null {
  const description = DESCRIPTIONS[error];
  if (description === undefined) return null;
  if (error === 'EISDIR') return `${error}: ${description}, read`;
  const call = LOOKUP_ERRORS.has(error) ? 'access' : 'open';
  return `${error}: ${description}, ${call} '${target}'`;
}

const LOOKUP_ERRORS: ReadonlySet<string> = new Set(['ENOENT', 'ENOTDIR', 'ELOOP', 'ENAMETOOLONG']);

/** libuv's descriptions of the errors a lookup or read of an instruction file meets. */
const DESCRIPTIONS: Readonly<Record<string, string>> = Object.freeze({
  ENOENT: 'no such file or directory',
  ENOTDIR: 'not a directory',
  ELOOP: 'too many symbolic links encountered',
  ENAMETOOLONG: 'name too long',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EISDIR: 'illegal operation on a directory',
  EMFILE: 'too many open files',
});
