import path from 'node:path';
import type { DiagnosticCode } from '../diagnostics.js';
import type { Diagnostic } from '../errors.js';
import { hasControlCharacter, isInside } from '../fs/contain.js';
import type { ImportReference } from './scan-imports.js';

/** Why a reference is not followed: the diagnostic its importer gets. */
export interface ImportRefusal {
  readonly level: Diagnostic['level'];
  readonly code: DiagnosticCode;
  readonly message: string;
}

/**
 * The absolute target of a reference, or why it is not followed, before any filesystem access
 * (docs/imports.md): a control character or a backslash makes it unusable; `@~/…` needs a known
 * home directory; a target outside `root` (or the root itself) needs `trustOutside`.
 */
export function locateImport(
  reference: ImportReference,
  importer: string,
  root: string,
  settings: { readonly homeDir: string | undefined; readonly trustOutside: boolean },
): string | ImportRefusal {
  const spelled = reference.written ?? `@${reference.spelled}`;
  if (hasControlCharacter(reference.path) || reference.path.includes('\\')) {
    return {
      level: 'debug',
      code: 'import-invalid',
      message: `${spelled} in ${importer} is not a usable path`,
    };
  }
  let target: string;
  if (reference.kind === 'home') {
    if (settings.homeDir === undefined) {
      return {
        level: 'warn',
        code: 'import-outside',
        message: `${spelled} in ${importer} is not followed: no home directory is known`,
      };
    }
    target = path.resolve(settings.homeDir, reference.path.slice(2));
  } else if (reference.kind === 'absolute') {
    target = path.resolve(reference.path);
  } else {
    target = path.resolve(path.dirname(importer), reference.path);
  }
  if (!settings.trustOutside && (target === root || !isInside(root, target))) {
    return {
      level: 'warn',
      code: 'import-outside',
      message: `${spelled} in ${importer} is not followed: ${target} is outside ${root} (imports outside the project need a trusted config)`,
    };
  }
  return target;
}
