import path from 'node:path';
import type { DirEntry, FileInfo, FileKind, FileSystem, ReadOptions, ReadResult } from './file-system.js';
import { fsError } from './file-system.js';

/** A file body, or a special node, in a {@link MemoryTree}. */
export type MemoryNodeSpec =
  | string
  | Uint8Array
  | { readonly symlink: string }
  | { readonly dir: true }
  | { readonly fifo: true }
  | { readonly socket: true };

/** Paths (absolute, or relative to the root) mapped to their contents. Parents are created. */
export type MemoryTree = Readonly<Record<string, MemoryNodeSpec>>;

/** The operations a {@link MemoryFileSystem} records and can fail on demand. */
export type MemoryOperation = 'lstat' | 'probe' | 'stat' | 'realpath' | 'readdir' | 'readFile';

/** One recorded call. */
export interface MemoryCall {
  readonly op: MemoryOperation;
  readonly path: string;
}

/** Options of {@link createMemoryFileSystem}. */
export interface MemoryFileSystemOptions {
  /** Directory that relative tree keys are placed under. Default `/`. */
  readonly root?: string;
  /** Look names up case-insensitively, like default macOS and Windows volumes. Default false. */
  readonly caseInsensitive?: boolean;
  /**
   * Reorders each directory listing before it is returned, to prove that results do not depend on
   * the order a filesystem lists entries in. Default: creation order.
   */
  readonly listOrder?: (names: readonly string[], directory: string) => readonly string[];
  /**
   * The time each change is stamped with (`mtimeMs` and `ctimeMs`), to model a real clock: it may
   * stand still between changes, as a coarse kernel clock does. Default: a counter that goes up by
   * one per change.
   */
  readonly clock?: () => number;
}

/** An in-memory {@link FileSystem} for tests and embedders, with call recording and faults. */
export interface MemoryFileSystem extends FileSystem {
  /** Every call made through the port, in order. */
  readonly calls: MemoryCall[];
  /** Creates or replaces a node. */
  set(filePath: string, spec: MemoryNodeSpec): void;
  /** Removes a node and everything below it. No error when absent. */
  remove(filePath: string): void;
  /**
   * Moves a node (the same inode) to `to`, replacing what is there, as `rename(2)` does; parents of
   * `to` are created. Changes the node's `ctimeMs` and both parent directories' times.
   * @throws Error when `from` is absent or `to` lies below `from`.
   */
  rename(from: string, to: string): void;
  /**
   * Sets a node's `mtimeMs`, as `utimes(2)` does (`touch -d`); its `ctimeMs` takes the clock, which
   * no call can set back.
   * @throws Error when the path is absent.
   */
  utimes(filePath: string, mtimeMs: number): void;
  /**
   * Makes the next calls of `op` (or of every operation, `'*'`) on `filePath` fail with `code`.
   * `times` bounds how many calls fail (default: every call).
   */
  fail(filePath: string, op: MemoryOperation | '*', code: string, times?: number): void;
  /** Runs `action` just before the next `op` on `filePath` executes (to model races). */
  before(filePath: string, op: MemoryOperation, action: () => void): void;
}

interface BaseNode {
  readonly ino: number;
  mtimeMs: number;
  ctimeMs: number;
}
interface FileNode extends BaseNode {
  readonly type: 'file';
  data: Uint8Array;
}
interface DirNode extends BaseNode {
  readonly type: 'dir';
  readonly children: Map<string, { name: string; node: Node }>;
  /** The directory holding this one (`null` for the root): `..` without a stack. */
  parent: DirNode | null;
}
interface LinkNode extends BaseNode {
  readonly type: 'symlink';
  readonly target: string;
}
interface SpecialNode extends BaseNode {
  readonly type: 'fifo' | 'socket';
}
type Node = FileNode | DirNode | LinkNode | SpecialNode;

interface Fault {
  code: string;
  remaining: number;
}

const DEV = 1;
const MAX_LINK_HOPS = 40;

/** What every operation of one memory filesystem shares: the node table, its caches and queues. */
interface MemoryState {
  readonly options: MemoryFileSystemOptions;
  /** Directory that relative paths are placed under. */
  readonly base: string;
  /** The key a name is looked up by (lower case on a case-insensitive volume). */
  readonly fold: (name: string) => string;
  /** The time of the next change. */
  readonly stamp: () => number;
  nextIno: number;
  readonly root: DirNode;
  /**
   * Resolved directories by absolute path, so deep walks cost O(1) lookups per step. Any change to
   * the tree clears it.
   */
  readonly directories: Map<string, { node: DirNode; real: string }>;
  readonly faults: Map<string, Fault>;
  readonly hooks: Map<string, () => void>;
  readonly calls: MemoryCall[];
}

/**
 * Creates an in-memory filesystem from a tree. Deterministic: inode numbers follow creation
 * order and, without a `clock`, `mtimeMs` increases by one on every write. As on a real disk, a
 * write changes the file's `mtimeMs` and `ctimeMs`, and adding, removing or renaming an entry
 * changes both times of the directory holding it.
 */
export function createMemoryFileSystem(
  tree: MemoryTree = {},
  options: MemoryFileSystemOptions = {},
): MemoryFileSystem {
  const state = createState(options);
  const fileSystem: MemoryFileSystem = {
    calls: state.calls,
    set: (filePath, spec) => setNode(state, filePath, spec),
    remove: (filePath) => removeNode(state, filePath),
    rename: (from, to) => renameNode(state, from, to),
    utimes(filePath, mtimeMs) {
      const node = lookup(state, filePath, 'utimes', false).node;
      touch(state, node);
      node.mtimeMs = mtimeMs;
    },
    fail(filePath, op, code, times = Infinity) {
      state.faults.set(`${op}\0${absolute(state, filePath)}`, { code, remaining: times });
    },
    before(filePath, op, action) {
      state.hooks.set(`${op}\0${absolute(state, filePath)}`, action);
    },
    lstat(filePath) {
      enter(state, 'lstat', filePath);
      return info(lookup(state, filePath, 'lstat', false).node);
    },
    probe(filePath) {
      enter(state, 'probe', filePath);
      try {
        return info(lookup(state, filePath, 'lstat', false).node);
      } catch (error) {
        const code = (error as { code?: string }).code;
        if (code === 'ENOENT' || code === 'ENOTDIR') return null;
        throw error;
      }
    },
    stat(filePath) {
      enter(state, 'stat', filePath);
      return info(lookup(state, filePath, 'stat', true).node);
    },
    realpath(filePath) {
      enter(state, 'realpath', filePath);
      return lookup(state, filePath, 'realpath', true).real;
    },
    readdir: (filePath) => readDirectory(state, filePath),
    readFile: (filePath, readOptions) => readFileNode(state, filePath, readOptions),
  };
  for (const [filePath, spec] of Object.entries(tree)) setNode(state, filePath, spec);
  return fileSystem;
}

/** The empty tree of a new filesystem: its root, clock and empty tables. */
function createState(options: MemoryFileSystemOptions): MemoryState {
  let counter = 1_000;
  const stamp = options.clock ?? (() => ++counter);
  const start = options.clock?.() ?? counter;
  return {
    options,
    base: path.posix.resolve('/', options.root ?? '/'),
    fold: options.caseInsensitive === true ? (name: string) => name.toLowerCase() : (name: string) => name,
    stamp,
    nextIno: 2,
    root: { type: 'dir', ino: 1, mtimeMs: start, ctimeMs: start, children: new Map(), parent: null },
    directories: new Map(),
    faults: new Map(),
    hooks: new Map(),
    calls: [],
  };
}

/** `filePath` made absolute; an already-normal absolute path (the common case) as it is, no allocation. */
function absolute(state: MemoryState, filePath: string): string {
  return filePath.startsWith('/') && !/\/\.{0,2}(?:\/|$)/.test(filePath)
    ? filePath
    : path.posix.resolve(state.base, filePath);
}

function split(state: MemoryState, filePath: string): string[] {
  return absolute(state, filePath)
    .split('/')
    .filter((part) => part !== '');
}

/** Stamps a changed node (and, when given, the directory whose entries changed) with one time. */
function touch(state: MemoryState, node: BaseNode, parent?: DirNode): number {
  const time = state.stamp();
  node.mtimeMs = time;
  node.ctimeMs = time;
  if (parent !== undefined) {
    parent.mtimeMs = time;
    parent.ctimeMs = time;
  }
  return time;
}

function makeNode(state: MemoryState, spec: MemoryNodeSpec, parent: DirNode): Node {
  const ino = state.nextIno++;
  const base = { ino, mtimeMs: 0, ctimeMs: 0 };
  const node: Node =
    typeof spec === 'string'
      ? { ...base, type: 'file', data: new TextEncoder().encode(spec) }
      : spec instanceof Uint8Array
        ? { ...base, type: 'file', data: spec }
        : 'symlink' in spec
          ? { ...base, type: 'symlink', target: spec.symlink }
          : 'dir' in spec
            ? { ...base, type: 'dir', children: new Map(), parent }
            : { ...base, type: 'fifo' in spec ? 'fifo' : 'socket' };
  touch(state, node, parent);
  return node;
}

function ensureDir(state: MemoryState, parts: readonly string[]): DirNode {
  const { fold } = state;
  let dir = state.root;
  for (const part of parts) {
    const child = dir.children.get(fold(part));
    if (child === undefined) {
      const created: DirNode = {
        type: 'dir',
        ino: state.nextIno++,
        mtimeMs: 0,
        ctimeMs: 0,
        children: new Map(),
        parent: dir,
      };
      touch(state, created, dir);
      dir.children.set(fold(part), { name: part, node: created });
      dir = created;
    } else if (child.node.type === 'dir') {
      dir = child.node;
    } else {
      throw new Error(`memory fs: ${part} is not a directory`);
    }
  }
  return dir;
}

function setNode(state: MemoryState, filePath: string, spec: MemoryNodeSpec): void {
  state.directories.clear();
  const parts = split(state, filePath);
  const name = parts.pop();
  if (name === undefined) throw new Error('memory fs: cannot replace the root');
  const dir = ensureDir(state, parts);
  const existing = dir.children.get(state.fold(name));
  // Writing to an existing file keeps its inode, as a real write would.
  if (existing?.node.type === 'file' && (typeof spec === 'string' || spec instanceof Uint8Array)) {
    existing.node.data = typeof spec === 'string' ? new TextEncoder().encode(spec) : spec;
    touch(state, existing.node);
    return;
  }
  dir.children.set(state.fold(name), { name: existing?.name ?? name, node: makeNode(state, spec, dir) });
}

function removeNode(state: MemoryState, filePath: string): void {
  state.directories.clear();
  const parts = split(state, filePath);
  const name = parts.pop();
  if (name === undefined) return;
  const dir = parentOf(state, parts);
  if (dir?.children.delete(state.fold(name)) === true) touch(state, dir);
}

/** The directory at `parts` (no symlink followed), or undefined. */
function parentOf(state: MemoryState, parts: readonly string[]): DirNode | undefined {
  let dir: Node = state.root;
  for (const part of parts) {
    if (dir.type !== 'dir') return undefined;
    const child: { node: Node } | undefined = dir.children.get(state.fold(part));
    if (child === undefined) return undefined;
    dir = child.node;
  }
  return dir.type === 'dir' ? dir : undefined;
}

function renameNode(state: MemoryState, from: string, to: string): void {
  const { fold } = state;
  state.directories.clear();
  const source = split(state, from);
  const target = split(state, to);
  const sourceName = source.pop();
  const targetName = target.pop();
  const sourceDir = parentOf(state, source);
  const entry = sourceName === undefined ? undefined : sourceDir?.children.get(fold(sourceName));
  if (sourceDir === undefined || entry === undefined || targetName === undefined)
    throw new Error(`memory fs: cannot rename ${from}`);
  const below = [...target, targetName].map(fold).join('/');
  if (below === [...source, sourceName ?? ''].map(fold).join('/')) return;
  if (below.startsWith(`${[...source, sourceName ?? ''].map(fold).join('/')}/`))
    throw new Error(`memory fs: cannot move ${from} below itself`);
  sourceDir.children.delete(fold(sourceName ?? ''));
  touch(state, sourceDir);
  const targetDir = ensureDir(state, target);
  targetDir.children.set(fold(targetName), { name: targetName, node: entry.node });
  if (entry.node.type === 'dir') entry.node.parent = targetDir;
  // rename(2) changes the moved inode's ctime and both directories' times, never its mtime.
  const time = touch(state, targetDir);
  entry.node.ctimeMs = time;
}

/** Walks to a node; returns it with its canonical path. */
function lookup(
  state: MemoryState,
  filePath: string,
  op: string,
  followFinal: boolean,
): { node: Node; real: string } {
  const { directories, root, fold } = state;
  const key = absolute(state, filePath);
  const known = directories.get(key);
  if (known !== undefined) return known;
  // Start from the parent when it was resolved before: walks ask for children of directories
  // they just listed.
  const cut = key.lastIndexOf('/');
  const parent = cut > 0 ? directories.get(key.slice(0, cut)) : undefined;
  let node: Node = parent?.node ?? root;
  let real = parent?.real ?? '';
  // Remaining segments as a stack, next segment last, so a symlink target is pushed in front.
  const pending = segmentStack(parent === undefined ? key : key.slice(cut));
  let hops = 0;
  // Set when the last segment was a symlink that was followed: then the answer holds for `stat`
  // only, and is not cached (an `lstat` of the same path must see the link).
  let followedFinal = false;
  while (pending.length > 0) {
    const part = pending.pop() as string;
    if (part === '.') continue;
    if (part === '..') {
      node = (node as DirNode).parent ?? root;
      real = real.slice(0, real.lastIndexOf('/'));
      continue;
    }
    if (node.type !== 'dir') throw fsError('ENOTDIR', op, filePath);
    const child = node.children.get(fold(part));
    if (child === undefined) throw fsError('ENOENT', op, filePath);
    if (child.node.type === 'symlink' && (pending.length > 0 || followFinal)) {
      hops += 1;
      if (pending.length === 0) followedFinal = true;
      if (hops > MAX_LINK_HOPS) throw fsError('ELOOP', op, filePath);
      const target = child.node.target;
      if (target.startsWith('/')) {
        node = root;
        real = '';
      }
      for (const part of segmentStack(target)) pending.push(part);
      continue;
    }
    real += `/${child.name}`;
    node = child.node;
  }
  const found = { node, real: real === '' ? '/' : real };
  if (node.type === 'dir' && !followedFinal) directories.set(key, found as { node: DirNode; real: string });
  return found;
}

/** The segments of a path as a stack to walk: its first segment last, where `pop` takes it. */
function segmentStack(filePath: string): string[] {
  return filePath
    .split('/')
    .filter((part) => part !== '')
    .reverse();
}

/** Records a call, runs the hook set for it and throws the fault queued for it, if any. */
function enter(state: MemoryState, op: MemoryOperation, filePath: string): void {
  const { hooks, faults } = state;
  const key = absolute(state, filePath);
  state.calls.push({ op, path: key });
  if (hooks.size === 0 && faults.size === 0) return;
  const hookKey = `${op}\0${key}`;
  const hook = hooks.get(hookKey);
  if (hook !== undefined) {
    hooks.delete(hookKey);
    hook();
  }
  for (const faultKey of [`${op}\0${key}`, `*\0${key}`]) {
    const fault = faults.get(faultKey);
    if (fault !== undefined && fault.remaining > 0) {
      fault.remaining -= 1;
      throw fsError(fault.code, op, key);
    }
  }
}

function info(node: Node): FileInfo {
  const kind: FileKind = node.type === 'dir' ? 'directory' : node.type;
  const size = node.type === 'file' ? node.data.byteLength : node.type === 'symlink' ? node.target.length : 0;
  return { kind, size, mtimeMs: node.mtimeMs, ctimeMs: node.ctimeMs, dev: DEV, ino: node.ino };
}

function readDirectory(state: MemoryState, filePath: string): readonly DirEntry[] {
  enter(state, 'readdir', filePath);
  const { node } = lookup(state, filePath, 'readdir', true);
  if (node.type !== 'dir') throw fsError('ENOTDIR', 'readdir', filePath);
  const entries = [...node.children.values()].map(({ name, node: child }) => ({
    name,
    kind: info(child).kind,
  }));
  const { listOrder } = state.options;
  if (listOrder === undefined) return entries;
  const byName = new Map(entries.map((entry) => [entry.name, entry]));
  return listOrder(
    entries.map((entry) => entry.name),
    absolute(state, filePath),
  ).flatMap((name) => byName.get(name) ?? []);
}

function readFileNode(state: MemoryState, filePath: string, readOptions: ReadOptions): ReadResult {
  enter(state, 'readFile', filePath);
  const { node } = lookup(state, filePath, 'open', false);
  if (node.type === 'symlink') throw fsError('ELOOP', 'open', filePath);
  if (node.type !== 'file') throw fsError('EINVAL', 'read', filePath);
  if (readOptions.expect && (readOptions.expect.ino !== node.ino || readOptions.expect.dev !== DEV)) {
    throw fsError('ESTALE', 'read', filePath);
  }
  const maxBytes = Math.max(0, readOptions.maxBytes);
  const truncated = node.data.byteLength > maxBytes;
  return {
    bytes: truncated ? node.data.slice(0, maxBytes) : node.data.slice(),
    truncated,
    info: info(node),
  };
}
