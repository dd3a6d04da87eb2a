import path from 'node:path';
import type { Resolver, ResolvedFile } from '../api/create-resolver.js';
import type { ResolveRequest } from '../api/select-request.js';
import type { NestedFile } from '../discover/nested-index.js';
import { isInside } from '../fs/contain.js';
import type { FileSystem } from '../fs/file-system.js';
import { MAX_INLINE_BYTES, readInstruction } from '../fs/read-instruction.js';
import { resourceUri } from './resource-uri.js';

/** One instruction file in play, as `resources/list` shows it. */
export interface ResourceEntry {
  readonly uri: string;
  readonly name: string;
  readonly description: string;
  readonly mimeType: string;
  readonly size: number;
}

/** The outcome of reading a listed resource. */
export type ResourceRead =
  | { readonly ok: true; readonly uri: string; readonly mimeType: string; readonly text: string }
  | { readonly ok: false; readonly message: string };

/** The instruction files of a work dir as MCP resources. */
export interface InstructionResources {
  /** Every instruction file in play: the resolved files, then the nested files. */
  list(): Promise<readonly ResourceEntry[]>;
  /** Reads a listed resource; `null` when the URI is not in the list (nothing is read then). */
  read(uri: string): Promise<ResourceRead | null>;
  /**
   * With change tracking on, compares each listed file's size and mtime with the last check and,
   * when one changed, re-resolves. Returns the URIs that changed, appeared or disappeared (empty
   * on the first call, which only records, and always when tracking is off).
   */
  checkForChanges(): Promise<readonly string[]>;
  /** `instructions.trackChanges` of the config. */
  readonly trackChanges: boolean;
}

interface Listed extends ResourceEntry {
  /** The file to read. */
  readonly file: string;
  readonly maxBytes: number;
  /** Nested files must still be reached without a symlink, as the disclosure engine requires. */
  readonly nested: boolean;
}

/**
 * The resources of `ctxfiles mcp`: what `resolve` returns for the request (its files and nested
 * files), with `ctxfiles://` URIs (see {@link resourceUri}). Reads go through the same bounded
 * reader as resolution; a URI that is not listed is never read.
 */
export function createInstructionResources(options: {
  readonly resolver: Resolver;
  readonly fs: FileSystem;
  readonly request: ResolveRequest;
}): InstructionResources {
  const { resolver, fs, request } = options;
  const { workDir } = resolver;
  const trackChanges = resolver.config.instructions.trackChanges;
  let signature: Map<string, string> | null = null;
  const maxFileBytes = resolver.config.contextDiscovery.maxFileBytes;

  async function listed(): Promise<Listed[]> {
    const result = await resolver.resolve(request);
    const entries = new Map<string, Listed>();
    for (const entry of [
      ...result.files.map((file) => resolvedEntry(file, workDir)),
      ...result.nested.map((file) => nestedEntry(fs, file, workDir, maxFileBytes)),
    ])
      if (!entries.has(entry.uri)) entries.set(entry.uri, entry);
    return [...entries.values()];
  }

  return {
    trackChanges,
    async list() {
      return (await listed()).map(({ uri, name, description, mimeType, size }) => ({
        uri,
        name,
        description,
        mimeType,
        size,
      }));
    },
    async read(uri) {
      const entry = (await listed()).find((candidate) => candidate.uri === uri);
      return entry === undefined ? null : readEntry(fs, entry, uri);
    },
    async checkForChanges() {
      if (!trackChanges) return [];
      const current = probeSignature(fs, await listed());
      const previous = signature;
      signature = current;
      if (previous === null) return [];
      const same =
        current.size === previous.size && [...current].every(([uri, value]) => previous.get(uri) === value);
      if (same) return [];
      resolver.refresh();
      const next = probeSignature(fs, await listed());
      signature = next;
      return changedUris(previous, next);
    },
  };
}

/** A file of the resolution as a resource. */
function resolvedEntry(file: ResolvedFile, workDir: string): Listed {
  return {
    uri: resourceUri(file.path, workDir),
    name: shownPath(workDir, file.path),
    description: `${file.layer} layer (entry ${JSON.stringify(file.entry)}): part of every answer's project instructions`,
    mimeType: mimeTypeOf(file.path),
    size: file.bytes,
    file: file.realPath,
    maxBytes: MAX_INLINE_BYTES,
    nested: false,
  };
}

/** A nested file of the resolution as a resource. */
function nestedEntry(fs: FileSystem, file: NestedFile, workDir: string, maxBytes: number): Listed {
  return {
    uri: resourceUri(file.path, workDir),
    name: file.relativePath,
    description: `nested: governs ${shownPath(workDir, file.ownerDir)}/${file.label === '' ? '' : ` (${file.label})`}`,
    mimeType: mimeTypeOf(file.path),
    size: probe(fs, file.path)?.size ?? 0,
    file: file.path,
    maxBytes,
    nested: true,
  };
}

/** A path as the server's answers show it: relative to the work dir when inside it, else as it is. */
export function shownPath(workDir: string, file: string): string {
  return isInside(workDir, file) ? path.relative(workDir, file) || '.' : file;
}

/** Reads a listed resource through the bounded reader; a nested file reached by a symlink is refused. */
function readEntry(fs: FileSystem, entry: Listed, uri: string): ResourceRead {
  try {
    if (entry.nested && fs.realpath(entry.file) !== entry.file)
      return { ok: false, message: `${entry.name} is now reached through a symlink and is not served` };
  } catch {
    return { ok: false, message: `${entry.name} no longer exists` };
  }
  const read = readInstruction(fs, entry.file, { maxBytes: entry.maxBytes });
  if (!read.ok) return { ok: false, message: `${entry.name} cannot be served (${read.fault})` };
  return { ok: true, uri, mimeType: entry.mimeType, text: read.text };
}

/** Size and mtime of each listed file, by URI (`absent` when it cannot be probed). */
function probeSignature(fs: FileSystem, entries: readonly Listed[]): Map<string, string> {
  const signatures = new Map<string, string>();
  for (const entry of entries) {
    const info = probe(fs, entry.file);
    signatures.set(entry.uri, info === null ? 'absent' : `${info.size}:${info.mtimeMs}`);
  }
  return signatures;
}

/** The URIs whose signature changed, appeared or disappeared, in that order. */
function changedUris(previous: ReadonlyMap<string, string>, next: ReadonlyMap<string, string>): string[] {
  const changed = new Set<string>();
  for (const [uri, value] of next) if (previous.get(uri) !== value) changed.add(uri);
  for (const uri of previous.keys()) if (!next.has(uri)) changed.add(uri);
  return [...changed];
}

function probe(fs: FileSystem, file: string) {
  try {
    return fs.probe(file);
  } catch {
    return null;
  }
}

function mimeTypeOf(file: string): string {
  return /\.(md|mdc|markdown)$/i.test(file) ? 'text/markdown' : 'text/plain';
}
