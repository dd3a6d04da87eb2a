import fs from 'node:fs';
import path from 'node:path';

/** The longest command read for paths; the rest is ignored (64 KiB). */
export const MAX_SHELL_COMMAND_LENGTH = 65_536;
/** At most this many words of one command are looked up on disk. */
export const MAX_SHELL_CANDIDATES = 64;

/** One word of a command: its literal text, or `null` when the shell would expand it. */
type Word = string | null;

/**
 * Splits a shell command into simple commands, each a list of words, as a POSIX shell would
 * split it before any expansion: quotes and backslashes are removed, `;`, `&`, `|`, `(`, `)` and
 * newlines end a command, `<` and `>` end a word, `#` at a word's start comments out the line.
 * A word that holds an unquoted `$`, `` ` ``, `*`, `?`, `[`, `{` or a leading `~` (anything the shell
 * would expand) keeps only its literal directory part before the first such character, or is
 * `null` when there is none. Nothing is run or expanded. Linear in the command's length.
 */
export function splitCommand(command: string): Word[][] {
  const commands: Word[][] = [[]];
  let word = '';
  let started = false;
  let dynamicAt = -1; // Where the first expansion starts in `word`, or -1.
  const end = () => {
    if (started) {
      const current = commands[commands.length - 1] as Word[];
      if (dynamicAt === -1) current.push(word);
      else {
        const literal = word.slice(0, dynamicAt);
        const slash = literal.lastIndexOf('/');
        current.push(slash > 0 ? literal.slice(0, slash) : null);
      }
    }
    word = '';
    started = false;
    dynamicAt = -1;
  };
  const markDynamic = () => {
    if (dynamicAt === -1) dynamicAt = word.length;
  };
  const text = command.slice(0, MAX_SHELL_COMMAND_LENGTH);
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index] as string;
    if (char === ' ' || char === '\t') end();
    else if (char === '\n' || char === ';' || char === '&' || char === '|' || char === '(' || char === ')') {
      end();
      if ((commands[commands.length - 1] as Word[]).length > 0) commands.push([]);
    } else if (char === '<' || char === '>') end();
    else if (char === '#' && !started) {
      const newline = text.indexOf('\n', index);
      index = newline === -1 ? text.length : newline - 1;
    } else if (char === '\\') {
      started = true;
      index += 1;
      if (index < text.length && text[index] !== '\n') word += text[index];
    } else if (char === "'") {
      started = true;
      const close = text.indexOf("'", index + 1);
      word += text.slice(index + 1, close === -1 ? text.length : close);
      index = close === -1 ? text.length : close;
    } else if (char === '"') {
      started = true;
      const quoted = doubleQuoted(text, index + 1);
      if (quoted.dynamicAt !== -1) dynamicAt = dynamicAt === -1 ? word.length + quoted.dynamicAt : dynamicAt;
      word += quoted.text;
      index = quoted.end;
    } else {
      if ('$`*?[{'.includes(char) || (char === '~' && !started)) markDynamic();
      started = true;
      word += char;
    }
  }
  end();
  return commands.filter((words) => words.length > 0);
}

/** A double-quoted string from `start` (after the quote): its text, where `$` or `` ` `` first occurs, and its closing quote. */
function doubleQuoted(text: string, start: number): { text: string; dynamicAt: number; end: number } {
  let value = '';
  let dynamicAt = -1;
  let index = start;
  for (; index < text.length && text[index] !== '"'; index += 1) {
    const inner = text[index] as string;
    if (inner === '\\' && '"\\$`\n'.includes(text[index + 1] ?? '')) {
      index += 1;
      if (text[index] !== '\n') value += text[index];
    } else {
      if ((inner === '$' || inner === '`') && dynamicAt === -1) dynamicAt = value.length;
      value += inner;
    }
  }
  return { text: value, dynamicAt, end: index };
}

/** What a path is on disk, inside the root; `null` for anything else (absent, outside, other). */
export type PathKind = 'file' | 'directory' | null;

/** What `file` is on disk: a file or a directory reached with no symlink on the way, else `null`. */
export function diskKindOf(file: string): PathKind {
  try {
    if (fs.realpathSync.native(file) !== file) return null;
    const info = fs.statSync(file);
    return info.isFile() ? 'file' : info.isDirectory() ? 'directory' : null;
  } catch {
    return null;
  }
}

/** Options of {@link shellPaths}. */
export interface ShellPathsOptions {
  /** The directory the command ran in (absolute). */
  readonly cwd: string;
  /** Only paths strictly inside it count (absolute, canonical). */
  readonly root: string;
  /** What `file` (absolute, inside `root` by spelling) is: checked on disk by the caller. */
  kindOf(file: string): PathKind;
}

/**
 * The files and directories a shell command names: every word that, resolved against the
 * directory the command is in, names an existing file or directory inside the root. A `cd` to an
 * existing directory inside the root moves that directory for the commands after it; any other
 * `cd` (out of the root, to an unknown place, `cd -`, `cd` alone) makes relative words of later
 * commands count for nothing. Options are skipped, but the value of `--name=value` counts; a
 * command's name counts only when it holds a `/` (`./scripts/x.sh`). At most
 * {@link MAX_SHELL_CANDIDATES} words are looked up.
 */
export function shellPaths(
  command: string,
  options: Readonly<ShellPathsOptions>,
): { files: string[]; directories: string[] } {
  const files: string[] = [];
  const directories: string[] = [];
  const inside = (file: string) => file.startsWith(`${options.root}${path.sep}`);
  let cwd: string | null = options.cwd;
  let looked = 0;
  const kindOf = (word: string): { file: string; kind: PathKind } | null => {
    if (word === '' || word.includes('\0')) return null;
    if (!path.isAbsolute(word) && cwd === null) return null;
    const file = path.resolve(cwd ?? options.root, word);
    if (!inside(file) || looked >= MAX_SHELL_CANDIDATES) return null;
    looked += 1;
    return { file, kind: options.kindOf(file) };
  };
  for (const words of splitCommand(command)) {
    const [name, ...rest] = words;
    if (name === 'cd' || name === 'pushd') {
      const [to] = rest;
      if (
        rest.length === 1 &&
        typeof to === 'string' &&
        path.resolve(cwd ?? options.root, to) === options.root
      )
        cwd = cwd === null && !path.isAbsolute(to) ? null : options.root;
      else {
        const target = rest.length === 1 && typeof to === 'string' ? kindOf(to) : null;
        cwd = target?.kind === 'directory' ? target.file : null;
      }
      continue;
    }
    const candidates = typeof name === 'string' && name.includes('/') ? [name, ...rest] : rest;
    for (const candidate of candidates) {
      if (candidate === null) continue;
      const value = candidate.startsWith('-')
        ? candidate.startsWith('--') && candidate.includes('=')
          ? candidate.slice(candidate.indexOf('=') + 1)
          : null
        : candidate;
      if (value === null) continue;
      const found = kindOf(value);
      if (found?.kind === 'file' && !files.includes(found.file)) files.push(found.file);
      else if (found?.kind === 'directory' && !directories.includes(found.file)) directories.push(found.file);
    }
  }
  return { files, directories };
}
