import path from 'node:path';
import { CtxfilesError, formatProblem, type Diagnostic } from '../errors.js';
import type { FileSystem } from '../fs/file-system.js';
import { assertJson } from './check-json.js';
import { findForbiddenKey } from './forbidden-keys.js';
import { readSourceFile } from './read-source.js';
import type { SourceText } from './source-text.js';
import { unknownNames, type ConfigNames } from './types.js';
import fastValidate from './validate-config.generated.js';

// Reading one config file found or named: JSON that the generated validator accepts takes the fast
// path (no YAML parser, no zod); anything else, and `ctxfiles validate`, the thorough one, whose
// errors carry positions and hints. Code configs are imported only here.

/** Configs that are code: run only when the user chose them (`--config`, a trusted project). */
export const CODE_EXTENSIONS: ReadonlySet<string> = new Set(['.js', '.mjs', '.cjs', '.ts']);

/** What {@link readConfig} reads through. */
export interface ConfigReading {
  readonly fs: FileSystem;
  readonly diagnostics: Diagnostic[];
  /** Always take the thorough path (`ctxfiles validate`). */
  readonly thorough: boolean;
  /** The preset and format names of the host registry handed down. */
  readonly names: ConfigNames;
}

/**
 * How many code configs this process loaded: such a config can read anything, not through the
 * filesystem port, so what a run learned through the port does not tell what it read
 * (src/cli/hint-cache.ts keeps no answer of such a run).
 */
export const codeConfigsLoaded = { count: 0 };

/** The value of the config in `file` (shown as `shown`), validated. @throws CtxfilesError. */
export async function readConfig(
  { fs, diagnostics, thorough: thoroughOnly, names }: ConfigReading,
  file: string,
  shown: string,
): Promise<Record<string, unknown>> {
  const extension = path.extname(file);
  // zod and the YAML parser load only on the thorough path.
  const thorough = async () => (await import('./validate-config.js')).validateConfig;
  if (CODE_EXTENSIONS.has(extension)) {
    // Executable configs are code the user chose to run (src/fs/load-code-config.ts).
    codeConfigsLoaded.count += 1;
    const { loadCodeConfig } = await import('../fs/load-code-config.js');
    let value: unknown;
    try {
      value = (await loadCodeConfig(file)) ?? {};
    } catch (error) {
      throw new CtxfilesError(
        'config-syntax',
        [formatProblem({ file: shown }, `cannot load the config: ${(error as Error).message}`)],
        { cause: error },
      );
    }
    (await thorough())(value, plainSource(shown, value), [], diagnostics, names);
    return value as Record<string, unknown>;
  }
  const text = readSourceFile(fs, file, shown, 'config-syntax');
  const isPackage = path.basename(file) === 'package.json';
  // JSON is checked as JSON first (YAML would take a trailing comma, and word a truncated file as
  // YAML), with its nesting bounded and repeated keys refused.
  if (extension === '.json')
    assertJson(withoutBom(text), shown, 'config-syntax', isPackage ? { duplicatesUnder: 'ctxfiles' } : {});
  if (extension === '.json' && !thoroughOnly) {
    // JSON that parses and validates needs neither the YAML parser nor zod.
    const fast = parseJson(text, isPackage);
    if (isQuickValid(fast, names)) return fast;
  }
  const { parseSourceText } = await import('./source-text.js');
  const source = parseSourceText(text, shown, 'config-syntax');
  const value = isPackage
    ? (source.value as Record<string, unknown> | null)?.['ctxfiles']
    : (source.value ?? {});
  if (!thoroughOnly && isQuickValid(value, names)) return value;
  (await thorough())(value, source, isPackage ? ['ctxfiles'] : [], diagnostics, names);
  return value as Record<string, unknown>;
}

/** True for a value the generated validator accepts with only known keys (see {@link quickConfig}). */
// The fast validator is generated from the published schema, whose top level is closed: a config
// with an unknown key fails it and takes the slow path, which warns with a "did you mean" hint.
// The generated validator knows the names of the hosts ctxfiles ships; `names` are those of the
// registry handed down, which decide.
export function isQuickValid(value: unknown, names: ConfigNames): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  if (unknownNames(value, names).length > 0) return false;
  return findForbiddenKey(value, []) === undefined && fastValidate(value);
}

/** JSON.parse without throwing; a leading BOM is accepted. `undefined` on any failure. */
export function parseJson(text: string, isPackage: boolean): unknown {
  try {
    const value: unknown = JSON.parse(withoutBom(text));
    return isPackage ? (value as Record<string, unknown> | null)?.['ctxfiles'] : value;
  } catch {
    return undefined;
  }
}

function withoutBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** A source without positions, for values that did not come from JSON or YAML text. */
export function plainSource(file: string, value: unknown): SourceText {
  return {
    file,
    value,
    locate: () => undefined,
    problem: (keyPath, message) => {
      const keys = keyPath
        .map((key) => (typeof key === 'number' ? `[${key}]` : `.${String(key)}`))
        .join('')
        .replace(/^\./, '');
      return formatProblem({ file, keyPath: keys }, message);
    },
  };
}
