import type { DiagnosticCode } from '../diagnostics.js';
import path from 'node:path';
import type { Diagnostic } from '../errors.js';
import { hasControlCharacter, isInside } from '../fs/contain.js';
import type { FileInfo, FileSystem } from '../fs/file-system.js';
import { readInstruction } from '../fs/read-instruction.js';
import type { HiddenCharacter } from '../fs/hidden-unicode.js';
import { containImport, type SymlinkPolicy } from './contain-import.js';
import { scanImports, type ImportReference } from './scan-imports.js';

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
}

/** Options of {@link expandImports}. */
export interface ImportOptions {
  /** Deepest import followed: 1 = the importer's own references. Default {@link DEFAULT_IMPORT_DEPTH}. */
  readonly maxDepth?: number;
  /** Default `entries`. */
  readonly mode?: ImportMode;
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
   * `entries`: the importer's text unchanged. `inline`: every followed reference replaced by the
   * imported text between `<!-- Imported from: P -->` and `<!-- End of import from: P -->`
   * markers, recursively; references not followed stay as written.
   */
  readonly text: string;
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
  const settings = {
    maxDepth: options.maxDepth ?? DEFAULT_IMPORT_DEPTH,
    mode: options.mode ?? 'entries',
    symlinks: options.symlinks ?? 'inside',
    trustOutside: options.trustOutside ?? false,
    homeDir: options.homeDir,
    maxBytes: options.maxBytes,
  } as const;
  const files: ImportedFile[] = [];
  const diagnostics: Diagnostic[] = [];
  const placed = new Set(options.placed);
  placed.add(identityKey(file.info));

  // `stack` holds the identities of the files being expanded, so a reference back to one is a cycle.
  function expand(
    current: { path: string; text: string },
    stack: readonly { key: string; path: string }[],
  ): string {
    const references = scanImports(current.text);
    if (references.length === 0) return current.text;
    const chain = stack.map((entry) => entry.path);
    let output = '';
    let last = 0;
    for (const reference of references) {
      const replacement = follow(reference, current.path, stack, chain);
      if (settings.mode === 'inline') {
        output += current.text.slice(last, reference.offset);
        output += replacement ?? current.text.slice(reference.offset, reference.offset + reference.length);
        last = reference.offset + reference.length;
      }
    }
    return settings.mode === 'inline' ? output + current.text.slice(last) : current.text;
  }

  /** Places one reference's target; in `inline` mode returns its framed text. */
  function follow(
    reference: ImportReference,
    importer: string,
    stack: readonly { key: string; path: string }[],
    chain: readonly string[],
  ): string | null {
    const depth = stack.length;
    const note = (level: Diagnostic['level'], code: DiagnosticCode, message: string, target?: string) =>
      diagnostics.push({ level, code, message, entry: `@${reference.spelled}`, path: target ?? importer });
    const target = locate(reference, importer);
    if (typeof target !== 'string') {
      note(target.level, target.code, target.message);
      return null;
    }
    const checked = containImport(fs, target, file.root, settings);
    if (!checked.ok) {
      note(checked.level, checked.code, checked.message, target);
      return null;
    }
    const key = identityKey(checked.info);
    const onStack = stack.findIndex((entry) => entry.key === key);
    if (onStack !== -1) {
      note(
        'warn',
        'import-cycle',
        `import cycle: ${[...chain, target].join(' → ')}; the repeated import is not followed`,
        target,
      );
      return null;
    }
    if (placed.has(key)) {
      note(
        'debug',
        'import-duplicate',
        `${target} is already included; @${reference.spelled} adds nothing`,
        target,
      );
      return null;
    }
    if (depth > settings.maxDepth) {
      note(
        'warn',
        'import-depth',
        `${[...chain, target].join(' → ')}: imports deeper than ${settings.maxDepth} are not followed`,
        target,
      );
      return null;
    }
    const read = readInstruction(fs, checked.realPath, {
      maxBytes: settings.maxBytes,
      expect: { dev: checked.info.dev, ino: checked.info.ino },
    });
    if (!read.ok) {
      const why =
        read.fault === 'too-large'
          ? `it is larger than ${settings.maxBytes} bytes`
          : read.fault === 'binary'
            ? 'it is not text'
            : read.fault === 'vanished'
              ? 'it vanished while it was read'
              : `it cannot be read (${read.code ?? 'EUNKNOWN'})`;
      note('warn', 'import-unreadable', `${target} (imported by ${importer}) is skipped: ${why}`, target);
      return null;
    }
    placed.add(key);
    const imported: ImportedFile = {
      path: target,
      realPath: checked.realPath,
      info: checked.info,
      text: read.text,
      sha256: read.sha256,
      bytes: read.bytes,
      invalidUtf8: read.invalidUtf8,
      hidden: read.hidden,
      importedBy: importer,
      reference: reference.spelled,
      depth,
      chain: [...chain, target],
    };
    files.push(imported);
    const body = expand({ path: target, text: read.text }, [...stack, { key, path: target }]);
    return `<!-- Imported from: ${reference.spelled} -->\n${body}\n<!-- End of import from: ${reference.spelled} -->`;
  }

  /** The absolute target of a reference, or why it is not followed, before any filesystem access. */
  function locate(
    reference: ImportReference,
    importer: string,
  ): string | { level: Diagnostic['level']; code: DiagnosticCode; message: string } {
    const spelled = `@${reference.spelled}`;
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
    if (!settings.trustOutside && (target === file.root || !isInside(file.root, target))) {
      return {
        level: 'warn',
        code: 'import-outside',
        message: `${spelled} in ${importer} is not followed: ${target} is outside ${file.root} (imports outside the project need a trusted config)`,
      };
    }
    return target;
  }

  const text = expand({ path: file.path, text: file.text }, [
    { key: identityKey(file.info), path: file.path },
  ]);
  return { text, files, diagnostics };
}
