import type { DiagnosticCode } from '../diagnostics.js';
import { isInside } from '../fs/contain.js';
import { errorCode, isAbsent, type FileInfo, type FileSystem } from '../fs/file-system.js';
import type { Diagnostic } from '../errors.js';

/** How a symlink on the way to an imported file is treated. */
export type SymlinkPolicy = 'inside' | 'reject' | 'follow';

/** A target that passed, or why it did not. */
export type Containment =
  | { readonly ok: true; readonly realPath: string; readonly info: FileInfo }
  | {
      readonly ok: false;
      readonly level: Diagnostic['level'];
      readonly code: DiagnosticCode;
      readonly message: string;
      /** The error code of the failed lookup (`ENOENT`, `EISDIR` for a directory, …), if any. */
      readonly error?: string | undefined;
    };

/**
 * The real-path half of containment for one import target: resolves its links, applies the
 * symlink policy (`reject`: any link below the root refuses the target; `inside`: the real path
 * must stay inside the root; `follow`: any real path), then stats it. Only ever touches `target`
 * (lexically inside the root unless outside targets are trusted) and its real path.
 */
export function containImport(
  fs: FileSystem,
  target: string,
  root: string,
  settings: { readonly symlinks: SymlinkPolicy },
): Containment {
  let realPath: string;
  try {
    realPath = fs.realpath(target);
  } catch (error) {
    return lookupFault(target, error, 'resolved');
  }
  if (realPath !== target) {
    if (settings.symlinks === 'reject') {
      return {
        ok: false,
        level: 'warn',
        code: 'import-symlink',
        message: `${target} is reached through a symlink (to ${realPath}); symlinks are rejected`,
      };
    }
    // A trusted target outside the root is outside by design; `inside` guards the root's own links.
    const spelledInside = target !== root && isInside(root, target);
    const realInside = realPath !== root && isInside(root, realPath);
    if (settings.symlinks === 'inside' && spelledInside && !realInside) {
      return {
        ok: false,
        level: 'warn',
        code: 'import-symlink',
        message: `${target} is a symlink to ${realPath}, outside ${root}; it is not followed`,
      };
    }
  }
  let info: FileInfo;
  try {
    info = fs.stat(realPath);
  } catch (error) {
    return lookupFault(target, error, 'read');
  }
  if (info.kind !== 'file') {
    return {
      ok: false,
      level: 'debug',
      code: 'import-missing',
      message: `${target} is not a regular file`,
      ...(info.kind === 'directory' ? { error: 'EISDIR' } : {}),
    };
  }
  return { ok: true, realPath, info };
}

/** A failed realpath or stat of an import target: absent is a `debug`, anything else a `warn`. */
function lookupFault(target: string, error: unknown, verb: 'resolved' | 'read'): Containment {
  const code = errorCode(error);
  if (isAbsent(error))
    return {
      ok: false,
      level: 'debug',
      code: 'import-missing',
      message: `${target} does not exist`,
      error: code,
    };
  return {
    ok: false,
    level: 'warn',
    code: 'import-unreadable',
    message: `${target} cannot be ${verb} (${code})`,
    error: code,
  };
}
