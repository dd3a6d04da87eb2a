import path from 'node:path';
import {
  isMap,
  isScalar,
  isSeq,
  LineCounter,
  parseDocument,
  type Document,
  type Node as YamlNode,
} from 'yaml';
import {
  CtxfilesError,
  formatKeyPath,
  formatProblem,
  type CtxfilesErrorCode,
  type Problem,
} from '../errors.js';

export { formatKeyPath } from '../errors.js';
import { assertJson, MAX_NESTING } from './check-json.js';
import { findForbiddenKey } from './forbidden-keys.js';
import type { FileSystem } from '../fs/file-system.js';
import { readSourceFile } from './read-source.js';

export { MAX_SOURCE_BYTES } from './read-source.js';
/** YAML aliases allowed in one document; alias bombs fail fast past it. */
export const MAX_ALIAS_COUNT = 100;

/** A parsed config or flow file that can point back at the line and column of any key path. */
export interface SourceText {
  readonly file: string;
  readonly value: unknown;
  /** Line and column (1-based) of the node at `keyPath`, or of its nearest existing parent. */
  locate(
    keyPath: readonly PropertyKey[],
    target?: 'key' | 'value',
  ): { line: number; column: number } | undefined;
  /** A formatted problem at `keyPath`, located at the key itself or (default) at its value. */
  problem(keyPath: readonly PropertyKey[], message: string, target?: 'key' | 'value'): Problem;
}

/**
 * Parses JSON or YAML text (JSON is read as YAML 1.2, which gives positions for both). A leading
 * BOM is accepted. Syntax errors, alias bombs and prototype-reaching keys throw a
 * {@link CtxfilesError} with `code` (`config-syntax` or `flow-syntax`) naming file, line and column.
 */
export function parseSourceText(text: string, file: string, code: CtxfilesErrorCode): SourceText {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const offset = body === text ? 0 : 1;
  if (file.endsWith('.json')) assertJson(body, file, code);
  const lineCounter = new LineCounter();
  const tooDeep = (cause?: unknown) => nestsTooDeep(file, code, cause);
  const document = parseYaml(body, lineCounter, tooDeep);
  const position = (index: number) => {
    const { line, col } = lineCounter.linePos(index);
    return { line, column: col + (line === 1 ? offset : 0) };
  };
  const firstError = document.errors[0];
  // The parser reports its own stack overflow as a syntax error.
  if (firstError !== undefined && /call stack/i.test(firstError.message)) throw tooDeep();
  if (firstError !== undefined) {
    const at = position(firstError.pos[0]);
    throw new CtxfilesError(code, [formatProblem({ file, ...at }, firstMessageLine(firstError.message))]);
  }
  let value: unknown;
  try {
    value = document.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (error) {
    if (error instanceof RangeError) throw tooDeep(error);
    throw new CtxfilesError(
      code,
      [formatProblem({ file }, `cannot expand the document: ${(error as Error).message}`)],
      { cause: error },
    );
  }
  const locate = (keyPath: readonly PropertyKey[], target: 'key' | 'value' = 'value') => {
    const node = nearestNode(document, keyPath, target);
    return node?.range ? position(node.range[0]) : undefined;
  };
  const problem = (keyPath: readonly PropertyKey[], message: string, target: 'key' | 'value' = 'value') =>
    formatProblem({ file, ...locate(keyPath, target), keyPath: formatKeyPath(keyPath) }, message);
  // Validation, merging and cloning recurse per level too: the depth is bounded before any of them.
  if (nestingDepth(value) > MAX_NESTING) throw tooDeep();
  const forbidden = findForbiddenKey(value, []);
  if (forbidden !== undefined) {
    throw new CtxfilesError(code, [
      problem(forbidden, `the key "${String(forbidden[forbidden.length - 1])}" is not allowed`, 'key'),
    ]);
  }
  return { file, value, locate, problem };
}

/** A key path's place in a config or flow file: its line and column when known, and its key path. */
export interface KeyPlace {
  readonly line?: number;
  readonly column?: number;
  /** As the file spells it: `ctxfiles.contextPaths[1]` in a package.json. */
  readonly keyPath: string;
}

/**
 * Places key paths in config and flow files read again from disk, for warnings found after loading
 * (the fast path keeps no positions). Each file is read and parsed once per locator. A key path the
 * file does not hold (it came from another layer), a code config, or a file that no longer reads or
 * parses gets no line and column: the key path alone.
 */
export function createKeyLocator(
  fs: FileSystem,
): (file: string, keyPath: readonly PropertyKey[]) => KeyPlace {
  const sources = new Map<string, SourceText | null>();
  const sourceOf = (file: string): SourceText | null => {
    if (!sources.has(file)) {
      let source: SourceText | null = null;
      // A code config has no text to point into.
      if (!/\.(js|mjs|cjs|ts)$/.test(file))
        try {
          source = parseSourceText(readSourceFile(fs, file, file, 'config-syntax'), file, 'config-syntax');
        } catch {
          source = null;
        }
      sources.set(file, source);
    }
    return sources.get(file) ?? null;
  };
  return (file, keyPath) => {
    const full = path.basename(file) === 'package.json' ? ['ctxfiles', ...keyPath] : keyPath;
    const source = sourceOf(file);
    const at = source !== null && holds(source.value, full) ? source.locate(full) : undefined;
    return { ...at, keyPath: formatKeyPath(full) };
  };
}

/** True when `value` has something at `keyPath`. */
function holds(value: unknown, keyPath: readonly PropertyKey[]): boolean {
  let node = value;
  for (const key of keyPath) {
    if (typeof node !== 'object' || node === null || !Object.hasOwn(node, key)) return false;
    node = (node as Record<PropertyKey, unknown>)[key];
  }
  return true;
}

function nestsTooDeep(file: string, code: CtxfilesErrorCode, cause?: unknown): CtxfilesError {
  return new CtxfilesError(
    code,
    [formatProblem({ file }, `lists and mappings nest deeper than ${MAX_NESTING} levels`)],
    { cause },
  );
}

/**
 * The YAML document. The parser recurses per level of nesting (no config nests a thousand levels
 * deep), so its stack overflow is reported as "too deep".
 */
function parseYaml(body: string, lineCounter: LineCounter, tooDeep: (cause: unknown) => Error): Document {
  try {
    return parseDocument(body, {
      lineCounter,
      uniqueKeys: true,
      prettyErrors: false,
      schema: 'core',
      strict: true,
    });
  } catch (error) {
    if (error instanceof RangeError) throw tooDeep(error);
    throw error;
  }
}

function firstMessageLine(message: string): string {
  return (message.split('\n')[0] ?? message).replace(/ at line \d+, column \d+:?$/, '');
}

function nearestNode(
  document: Document,
  keyPath: readonly PropertyKey[],
  target: 'key' | 'value',
): YamlNode | undefined {
  let node: unknown = document.contents;
  for (const [index, key] of keyPath.entries()) {
    if (isMap(node)) {
      const pair = node.items.find((item) => isScalar(item.key) && String(item.key.value) === String(key));
      if (pair === undefined) break;
      const last = index === keyPath.length - 1;
      node = (last && target === 'key') || pair.value === null ? pair.key : pair.value;
    } else if (isSeq(node) && typeof key === 'number') {
      const item = node.items[key];
      if (item === undefined) break;
      node = item;
    } else {
      break;
    }
  }
  return (node ?? undefined) as YamlNode | undefined;
}

/** How deeply arrays and objects nest in a parsed value (0 for a scalar), without recursion. */
export function nestingDepth(value: unknown): number {
  let deepest = 0;
  const stack: Array<{ value: unknown; depth: number }> = [{ value, depth: 0 }];
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    if (typeof item.value !== 'object' || item.value === null) continue;
    const depth = item.depth + 1;
    if (depth > deepest) deepest = depth;
    if (depth > MAX_NESTING) return depth;
    for (const child of Object.values(item.value)) stack.push({ value: child, depth });
  }
  return deepest;
}
