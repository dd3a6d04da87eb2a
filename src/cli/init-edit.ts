import {
  findNodeAtLocation,
  getNodeValue,
  parseTree,
  printParseErrorCode,
  type FormattingOptions,
  type ParseError,
} from 'jsonc-parser';
import { parse as parseToml } from 'smol-toml';
import { CtxfilesError } from '../errors.js';
import { checkSettingsJson } from './init-json-check.js';
import type { JsonTarget, ScriptTarget, TomlTarget } from './init-hosts.js';

/** Adds ctxfiles' entries, or removes them. */
export type InitMode = 'add' | 'remove';

/** A host config ctxfiles will not edit: the message names the file and the place. */
function refuse(file: string, why: string): CtxfilesError {
  return new CtxfilesError('usage', `${file}: ${why}; the file is left as it is`);
}

/** Line and column (1-based) of an offset. */
function position(text: string, offset: number): string {
  const before = text.slice(0, offset).split('\n');
  return `${before.length}:${(before.at(-1)?.length ?? 0) + 1}`;
}

/** The indentation and line ends the file already uses (two spaces and LF for a new file). */
function formatting(text: string): FormattingOptions {
  const indent = /\n([ \t]+)\S/.exec(text)?.[1] ?? '  ';
  return {
    insertSpaces: !indent.includes('\t'),
    tabSize: indent.includes('\t') ? 1 : indent.length,
    eol: text.includes('\r\n') ? '\r\n' : '\n',
  };
}

/**
 * Edits a JSON or JSONC settings file located with jsonc-parser's syntax tree: only the text of
 * the values ctxfiles owns changes, and everything else (comments, order, spacing) stays byte for
 * byte. ctxfiles' hook groups
 * are those whose command runs `hook <agent>` of a ctxfiles bin; its MCP server is the `ctxfiles`
 * key. Adding replaces them in place or appends them; removing deletes them, and a `hooks.<event>`
 * list or `hooks` object left empty. Idempotent.
 * @throws CtxfilesError when the file is not JSON(C) or a value on the way has another type.
 */
export function editJson(text: string, target: JsonTarget, mode: InitMode): string {
  checkEditable(text, target.file);
  const style = formatting(text);
  let current = text.trim() === '' ? '{}\n' : text;
  const apply = (at: (string | number)[], value: unknown, insertion = false) => {
    current =
      value === undefined ? removeValue(current, at) : insertValue(current, at, value, insertion, style);
  };
  const nodeAt = (at: (string | number)[]) =>
    findNodeAtLocation(parseTree(current) ?? { type: 'null', offset: 0, length: 0 }, at);
  const expect = (at: string[], type: 'object' | 'array') => {
    const node = nodeAt(at);
    if (node !== undefined && node.type !== type)
      throw refuse(
        target.file,
        `${at.join('.')} is not ${type === 'array' ? 'a list' : 'an object'} (${position(current, node.offset)})`,
      );
    return node;
  };
  if (target.agent !== undefined) expect(['hooks'], 'object');
  const events = new Set(target.hooks.map((hook) => hook.event));
  if (target.agent !== undefined)
    for (const event of mode === 'add' ? events : hookEvents(nodeAt(['hooks']))) {
      const list = expect(['hooks', event], 'array');
      const ours = (list?.children ?? []).flatMap((child, index) =>
        isOurs(getNodeValue(child), target.agent as string) ? [index] : [],
      );
      const group = target.hooks.find((hook) => hook.event === event)?.group;
      if (mode === 'add' && group !== undefined) {
        if (list === undefined) apply(['hooks', event], [group]);
        else if (ours[0] !== undefined) {
          apply(['hooks', event, ours[0]], group);
          for (const index of ours.slice(1).reverse()) apply(['hooks', event, index], undefined);
        } else apply(['hooks', event, list.children?.length ?? 0], group, true);
      } else if (mode === 'remove' && ours.length > 0) {
        for (const index of ours.reverse()) apply(['hooks', event, index], undefined);
        if ((nodeAt(['hooks', event])?.children?.length ?? 0) === 0) apply(['hooks', event], undefined);
      }
    }
  if (
    mode === 'remove' &&
    target.agent !== undefined &&
    (nodeAt(['hooks'])?.children?.length ?? 1) === 0 &&
    text !== current
  )
    apply(['hooks'], undefined);
  if (target.mcp !== undefined) current = editMcp(current, target, mode);
  return current;
}

/**
 * Refuses a settings file ctxfiles cannot edit safely: nested too deep or with a key twice
 * ({@link checkSettingsJson}), not JSON(C), or not an object at the top. An empty file is editable.
 * @throws CtxfilesError `usage`, naming the file and the place.
 */
function checkEditable(text: string, file: string): void {
  const fault = checkSettingsJson(text);
  if (fault !== null) throw refuse(file, `${fault.message} (${position(text, fault.offset)})`);
  const errors: ParseError[] = [];
  const tree = text.trim() === '' ? undefined : parseTree(text, errors, { allowTrailingComma: true });
  const first = errors[0];
  if (first !== undefined)
    throw refuse(
      file,
      `not valid JSON at ${position(text, first.offset)} (${printParseErrorCode(first.error)})`,
    );
  if (tree !== undefined && tree.type !== 'object') throw refuse(file, 'not a JSON object');
}

/**
 * Removes the value at `at`: from the end of the element or property before it (its comma
 * included) to its own end, or up to the next one when it is the first: the exact inverse of
 * {@link insertValue}. An only child leaves an empty `[]` or `{}`.
 */
function removeValue(text: string, at: readonly (string | number)[]): string {
  const root = parseTree(text);
  const node = root === undefined ? undefined : findNodeAtLocation(root, [...at]);
  if (node === undefined) return text;
  const item = node.parent?.type === 'property' ? node.parent : node;
  const siblings = item.parent?.children ?? [];
  const index = siblings.indexOf(item);
  const previous = siblings[index - 1];
  const next = siblings[index + 1];
  const container = item.parent;
  if (container === undefined) return text;
  if (previous !== undefined)
    return text.slice(0, previous.offset + previous.length) + text.slice(item.offset + item.length);
  if (next !== undefined) return text.slice(0, item.offset) + text.slice(next.offset);
  return text.slice(0, container.offset + 1) + text.slice(container.offset + container.length - 1);
}

/**
 * Sets the value at `at` (a property, an array element, or with `insertion` a new element at that
 * index), written out pretty-printed at the indentation of where it lands. Only that span of text
 * changes: jsonc-parser's own formatting would also reformat a neighbour on the same line.
 */
function insertValue(
  text: string,
  at: readonly (string | number)[],
  value: unknown,
  insertion: boolean,
  style: FormattingOptions,
): string {
  const unit = style.insertSpaces === false ? '\t' : ' '.repeat(style.tabSize ?? 2);
  const eol = style.eol ?? '\n';
  const root = parseTree(text);
  if (root === undefined) return `${JSON.stringify(value, null, unit)}${eol}`;
  const indentAt = (offset: number) =>
    /^[ \t]*/.exec(text.slice(text.lastIndexOf('\n', offset - 1) + 1))?.[0] ?? '';
  const pretty = (indent: string) => JSON.stringify(value, null, unit).split('\n').join(`${eol}${indent}`);
  const existing = insertion ? undefined : findNodeAtLocation(root, [...at]);
  if (existing !== undefined) {
    const indent = indentAt(existing.parent?.type === 'property' ? existing.parent.offset : existing.offset);
    return text.slice(0, existing.offset) + pretty(indent) + text.slice(existing.offset + existing.length);
  }
  // Climb to the deepest container that exists; the missing rest becomes part of the value.
  let depth = at.length - 1;
  let container = findNodeAtLocation(root, [...at.slice(0, depth)]);
  while (container === undefined && depth > 0) {
    depth -= 1;
    value = { [at[depth + 1] as string]: value };
    container = findNodeAtLocation(root, [...at.slice(0, depth)]);
  }
  if (container === undefined) return text;
  const key = at[depth];
  const children = container.children ?? [];
  const last = children.at(-1);
  const closeAt = container.offset + container.length - 1;
  const childIndent = last !== undefined ? indentAt(last.offset) : `${indentAt(container.offset)}${unit}`;
  const entry = `${container.type === 'object' ? `${JSON.stringify(key)}: ` : ''}${pretty(childIndent)}`;
  if (last === undefined)
    return `${text.slice(0, container.offset + 1)}${eol}${childIndent}${entry}${eol}${indentAt(container.offset)}${text.slice(closeAt)}`;
  const end = last.offset + last.length;
  return `${text.slice(0, end)},${eol}${childIndent}${entry}${text.slice(end)}`;
}

/** Sets or removes the MCP server entry (and a parent object it leaves empty). */
function editMcp(text: string, target: JsonTarget, mode: InitMode): string {
  const mcp = target.mcp;
  if (mcp === undefined) return text;
  const parent = [mcp.path[0] as string];
  const node = (at: string[]) => {
    const root = parseTree(text);
    return root === undefined ? undefined : findNodeAtLocation(root, at);
  };
  const found = node(parent);
  if (found !== undefined && found.type !== 'object')
    throw refuse(target.file, `${parent[0]} is not an object (${position(text, found.offset)})`);
  if (mode === 'add') return insertValue(text, mcp.path, mcp.value, false, formatting(text));
  if (node([...mcp.path]) === undefined) return text;
  text = removeValue(text, mcp.path);
  return (node(parent)?.children?.length ?? 1) === 0 ? removeValue(text, parent) : text;
}

/** The event names under a `hooks` object node. */
function hookEvents(node: ReturnType<typeof findNodeAtLocation>): string[] {
  return (node?.children ?? []).flatMap((property) => {
    const key = property.children?.[0]?.value;
    return typeof key === 'string' ? [key] : [];
  });
}

/** A hook group whose command runs `hook <agent>` of a ctxfiles bin. */
function isOurs(group: unknown, agent: string): boolean {
  if (typeof group !== 'object' || group === null) return false;
  const hooks = (group as { hooks?: unknown }).hooks;
  return (
    Array.isArray(hooks) &&
    hooks.some((hook: unknown) => {
      const command = (hook as { command?: unknown } | null)?.command;
      return typeof command === 'string' && /ctxfiles/.test(command) && command.includes(` hook ${agent}`);
    })
  );
}

/**
 * Edits a TOML file as text: ctxfiles owns one block between the target's `begin` and `end`
 * lines, replaced in place or appended at the end; nothing outside it changes, comments
 * included. The file is parsed (smol-toml) before and after, so a malformed file, or one that
 * already defines ctxfiles' tables outside the block, is refused and left untouched.
 * @throws CtxfilesError as above.
 */
export function editToml(text: string, target: TomlTarget, mode: InitMode): string {
  checkToml(text, target.file);
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const begin = text.indexOf(target.begin);
  const endAt = begin === -1 ? -1 : text.indexOf(target.end, begin);
  if (begin !== -1 && endAt === -1)
    throw refuse(target.file, `ctxfiles' block has no end line (${target.end})`);
  const block = target.block.split('\n').join(eol);
  let next: string;
  let outside = text;
  if (begin !== -1) {
    let after = endAt + target.end.length;
    if (text.startsWith(eol, after)) after += eol.length;
    const replacement = mode === 'add' ? block : '';
    outside = text.slice(0, begin) + text.slice(after);
    next = text.slice(0, begin) + replacement + text.slice(after);
    if (mode === 'remove') next = next.replace(new RegExp(`(?:${eol})+$`), eol === '\r\n' ? '\r\n' : '\n');
    if (next.trim() === '') next = '';
  } else if (mode === 'add') {
    const separator = text === '' ? '' : text.endsWith(eol) ? eol : `${eol}${eol}`;
    next = `${text}${separator}${block}`;
  } else next = text;
  if (mode === 'add') checkOwnTables(next, outside, target);
  return next;
}

/**
 * After an edit: the edited file, as the host parses it, must give ctxfiles' tables exactly what
 * the block says. A table defined elsewhere (`[mcp_servers.ctxfiles]`, or
 * `[mcp_servers.ctxfiles.env]`, which the host would merge into ctxfiles' server) is refused.
 */
function checkOwnTables(text: string, outside: string, target: TomlTarget): void {
  let others: unknown;
  try {
    others = parseToml(outside);
  } catch {
    // Judged below, on the whole edited file.
  }
  const own = parseToml(target.block);
  const outsideBlock = (table: string) =>
    refuse(
      target.file,
      `[${table}] is already defined outside ctxfiles' block (a table or key below it is merged into ctxfiles' own)`,
    );
  for (const table of target.tables) if (valueAt(others, table) !== undefined) throw outsideBlock(table);
  const edited = checkToml(text, target.file, 'the edited file');
  for (const table of target.tables)
    if (JSON.stringify(valueAt(edited, table)) !== JSON.stringify(valueAt(own, table)))
      throw outsideBlock(table);
  // A `[[hooks.<event>.hooks]]` after the block would add its command to ctxfiles' last group.
  const ownHooks = (valueAt(own, 'hooks') ?? {}) as Record<string, unknown[]>;
  for (const [event, groups] of Object.entries(ownHooks)) {
    const found = valueAt(edited, `hooks.${event}`);
    const there = Array.isArray(found) ? found.map((group) => JSON.stringify(group)) : [];
    if (!groups.every((group) => there.includes(JSON.stringify(group))))
      throw refuse(target.file, `a table after ctxfiles' block adds to its [[hooks.${event}]] group`);
  }
}

/** The value at a dotted table name (`mcp_servers.ctxfiles`) of a parsed TOML document. */
function valueAt(document: unknown, table: string): unknown {
  let node = document;
  for (const key of table.split('.'))
    node = typeof node === 'object' && node !== null ? (node as Record<string, unknown>)[key] : undefined;
  return node;
}

function checkToml(text: string, file: string, what = 'it'): Record<string, unknown> {
  try {
    return parseToml(text);
  } catch (error) {
    const found = error as { line?: number; column?: number; message?: string };
    const where = found.line === undefined ? '' : ` at ${found.line}:${found.column ?? 0}`;
    throw refuse(file, `${what === 'it' ? 'not valid TOML' : `${what} would not be valid TOML`}${where}`);
  }
}

/**
 * A script of ctxfiles' own (a {@link ScriptTarget}): its text where there was none or where it
 * holds the marker line (init wrote it); `--remove` empties only such a file. Another file at that
 * path is the user's own hook.
 * @throws CtxfilesError when adding over a file that is not ctxfiles'.
 */
export function editScript(text: string, target: ScriptTarget, mode: InitMode): string {
  const own = text.split(/\r?\n/).includes(target.marker);
  if (mode === 'remove') return own ? '' : text;
  if (text === '' || own) return target.text;
  throw refuse(
    target.file,
    'is a hook of your own (it lacks the line init writes), which init never replaces: move it away or merge it by hand, then run init again',
  );
}
