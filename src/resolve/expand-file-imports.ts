import path from 'node:path';
import type { HostProfile, ImportsConfig } from '../config/types.js';
import type { Diagnostic } from '../errors.js';
import { findProjectRoot } from '../discover/chain-walk.js';
import { isInside, type SymlinkPolicy } from '../fs/contain.js';
import type { FileSystem } from '../fs/file-system.js';
import { decodingWarnings, defineSha256, digestOf, MAX_INLINE_BYTES } from '../fs/read-instruction.js';
import type {
  ImportedFile,
  ImportExpansion,
  ImportingFile,
  ImportOptions,
} from '../imports/expand-imports.js';
import { COMMENT_STYLE, type ImportStyle } from '../imports/import-style.js';
import { placeImport } from '../imports/place-imports.js';
import { isOwnGlob } from './glob-files.js';
import type { ContextFile } from './read-context-file.js';

/** What {@link expandFileImports} needs besides the files. */
export interface FileImportOptions {
  readonly imports: ImportsConfig;
  /** How the preset's host reads and frames an import (absent: ctxfiles' own way). */
  readonly profile?: Pick<HostProfile, 'importStyle' | 'importPunctuation'> | undefined;
  /** The hosts' import styles by name, for a profile's `importStyle` (the registry's lookup). */
  readonly importStyles?: (name: string) => ImportStyle | undefined;
  /** `instructions.symlinks`, applied to every import target as to its importer's source. */
  readonly symlinks: SymlinkPolicy;
  /**
   * True when the config is trusted: `@~/…`, `@/…` and references above the root are followed.
   * User and extra files (and matches of an absolute or `~/` glob) are the user's own and are
   * always trusted.
   */
  readonly trustOutside: boolean;
  readonly homeDir: string;
  /** The containment root of a file's source (the chain's start, the contextPaths root, …). */
  readonly rootOf: (file: ContextFile) => string;
  /**
   * `instructions.projectRootMarkers`, for `imports.root: marker`: a project file's imports then
   * stay inside the nearest directory at or above it holding one (docs/imports.md).
   */
  readonly projectRootMarkers?: readonly string[];
  /** Identities (`dev:ino`) already shown elsewhere (a session's baseline): importing one adds nothing. */
  readonly placed?: ReadonlySet<string>;
  /**
   * For a file whose `#[[file:path]]` references are followed too (a Kiro steering file), the
   * directory those paths are relative to; `undefined` for every other file.
   */
  readonly fileReferencesFrom?: (file: ContextFile) => string | undefined;
}

/**
 * The imports step of the pipeline (docs/imports.md): expands the `@path` references of an ordered
 * file list, whatever source each file came from (user file, chain, rules, layers, extra files,
 * a nested file injected in a session). `entries`: each imported file is listed right after its
 * importer, in the importer's layer, with `importedBy`; `inline`: the importer's text holds the
 * imported text between comment markers. A file already placed earlier (by the list or an import)
 * is dropped from its later place. Returns the list unchanged when imports are off. Never throws.
 */
export function expandFileImports(
  fs: FileSystem,
  files: readonly ContextFile[],
  options: FileImportOptions,
  diagnostics: Diagnostic[],
): ContextFile[] {
  if (!options.imports.enabled || files.length === 0) return [...files];
  const placed = new Set(options.placed);
  const out: ContextFile[] = [];
  const rootOf = importRootOf(fs, options);
  const style = styleOf(options);
  for (const file of files) {
    let info;
    try {
      info = fs.stat(file.realPath);
    } catch {
      out.push(file); // Read a moment ago; a file gone since stays as it was read, unexpanded.
      continue;
    }
    const own = isOwnFile(file);
    const importer = importingFile(file, info, own ? path.dirname(file.path) : rootOf(file), options);
    const expansion = placeImport(fs, importer, placeOptions(options, style, own), placed);
    if (expansion === null) {
      diagnostics.push({
        level: 'debug',
        code: 'deduped',
        message: `${file.path} is already included by an import and is not repeated`,
        layer: file.layer,
        entry: file.entry,
        path: file.path,
      });
      continue;
    }
    for (const diagnostic of expansion.diagnostics) diagnostics.push({ layer: file.layer, ...diagnostic });
    const inline = options.imports.mode === 'inline';
    // Inline text changes where a file was placed, or a reference not followed became a comment.
    out.push(inline && expansion.text !== file.text ? withInlined(file, expansion) : file);
    for (const imported of expansion.files) {
      diagnostics.push(...importedFileDiagnostics(file, imported));
      if (inline) continue;
      out.push(importedEntry(file, imported));
    }
  }
  return out;
}

/**
 * How one file's references are placed: the imports config with the host's style, and for the
 * user's own files (`own`) references outside the project followed as for a trusted config.
 */
function placeOptions(options: FileImportOptions, style: ImportStyle, own: boolean): ImportOptions {
  return {
    maxDepth: options.imports.maxDepth,
    mode: options.imports.mode,
    failed: options.imports.failed ?? 'keep',
    style,
    punctuation: options.profile?.importPunctuation ?? 'cut',
    symlinks: options.symlinks,
    trustOutside: options.trustOutside || own,
    homeDir: options.homeDir,
    maxBytes: MAX_INLINE_BYTES,
  };
}

/**
 * The user's own files, whose imports may leave the project: the user file, its rules
 * (`rules.userFolders`), the extra files and the matches of an absolute or `~/` glob (which only a
 * trusted layer can set). A relative glob's matches are project files, contained like any other
 * (docs/security.md, "Trust tiers").
 */
function isOwnFile(file: ContextFile): boolean {
  return (
    file.layer === 'user' || file.source === 'extra' || (file.source === 'glob' && isOwnGlob(file.entry))
  );
}

/**
 * The containment root of a project file's imports: its source's root, or with `imports.root:
 * marker` the nearest directory at or above the file holding a project root marker (its own
 * directory when none does), never above the source's root: the option only narrows. Lookups are
 * remembered per directory for the call.
 */
function importRootOf(fs: FileSystem, options: FileImportOptions): (file: ContextFile) => string {
  if (options.imports.root !== 'marker') return options.rootOf;
  const markers = options.projectRootMarkers ?? [];
  const found = new Map<string, string | null>();
  return (file) => {
    const sourceRoot = options.rootOf(file);
    const dir = path.dirname(file.path);
    if (!isInside(sourceRoot, dir)) return sourceRoot;
    let marked = found.get(dir);
    if (marked === undefined) {
      marked = findProjectRoot(fs, dir, markers, []);
      found.set(dir, marked);
    }
    const root = marked ?? dir;
    return isInside(sourceRoot, root) ? root : sourceRoot;
  };
}

/** A file of the list as the imports engine takes it: its text, identity and containment root. */
function importingFile(
  file: ContextFile,
  info: ImportingFile['info'],
  root: string,
  options: FileImportOptions,
): ImportingFile {
  const from = options.fileReferencesFrom?.(file);
  return {
    path: file.path,
    realPath: file.realPath,
    info,
    text: file.text,
    root,
    ...(from === undefined ? {} : { fileReferencesFrom: from }),
  };
}

/** The importer with the imported text inline (`inline` mode), and what it inlined. */
function withInlined(file: ContextFile, expansion: ImportExpansion): ContextFile {
  return Object.freeze({
    ...file,
    text: expansion.text,
    ...(expansion.escaped ? { escaped: true as const } : {}),
    inlined: Object.freeze(
      expansion.files.map((imported) =>
        Object.freeze({
          path: imported.path,
          sha256: imported.sha256,
          bytes: imported.bytes,
          mtimeMs: imported.info.mtimeMs,
        }),
      ),
    ),
  });
}

/** The faults of one imported file's text (invalid UTF-8, hidden Unicode), in its importer's layer. */
function importedFileDiagnostics(file: ContextFile, imported: ImportedFile): Diagnostic[] {
  return decodingWarnings(imported.path, imported, {
    layer: file.layer,
    entry: `@${imported.reference}`,
    path: imported.path,
  });
}

/** An imported file as an entry of the list (`entries` mode), right after its importer. */
function importedEntry(file: ContextFile, imported: ImportedFile): ContextFile {
  const entry = {
    path: imported.path,
    realPath: imported.realPath,
    source: file.source,
    layer: file.layer,
    entry: `@${imported.reference}`,
    depth: file.depth,
    importedBy: imported.importedBy,
    mtimeMs: imported.info.mtimeMs,
    bytes: imported.bytes,
  };
  return Object.freeze(defineSha256(entry, digestOf(imported), { text: imported.text }));
}

/**
 * The inline import style the profile names: ctxfiles' own (`comment`), else the host's of that
 * name; a name no host defines is ctxfiles' own (test/hosts.test.ts checks each preset's).
 */
function styleOf(options: FileImportOptions): ImportStyle {
  const name = options.profile?.importStyle ?? COMMENT_STYLE.name;
  return name === COMMENT_STYLE.name ? COMMENT_STYLE : (options.importStyles?.(name) ?? COMMENT_STYLE);
}
