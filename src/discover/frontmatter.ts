import { createRequire } from 'node:module';
import { readSimpleFrontmatter } from './simple-frontmatter.js';

// The YAML parser loads on the first file whose frontmatter is more than plain one-line pairs, not
// at start-up: a `description: …` label never loads it (docs/performance.md).
const require = createRequire(import.meta.url);
let parseYaml: typeof import('yaml').parse | undefined;
function load() {
  parseYaml ??= (require('yaml') as typeof import('yaml')).parse;
  return parseYaml;
}

/** Parsed frontmatter: its data (always a plain object) and the body after it. */
export interface Frontmatter {
  readonly data: Readonly<Record<string, unknown>>;
  readonly body: string;
}

/**
 * The data of a frontmatter block (the text between the fences) as the YAML parser reads it, with
 * the core schema and at most 100 aliases: a plain object (`{}` for any other value), or `null` when
 * YAML refuses the block. No fast path: see {@link readSimpleFrontmatter} for that.
 */
export function parseYamlBlock(block: string): Record<string, unknown> | null {
  let value: unknown;
  try {
    value = load()(block, { schema: 'core', maxAliasCount: 100 });
  } catch {
    return null;
  }
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

const safeYaml = {
  parse: (text: string): Record<string, unknown> => {
    // Plain one-line pairs give the same data without the YAML parser (a property test compares them).
    const data = readSimpleFrontmatter(text) ?? parseYamlBlock(text);
    if (data === null) throw new Error('not YAML');
    return data;
  },
  stringify: () => {
    throw new Error('not supported');
  },
};

// Frontmatter is data. gray-matter picks an engine from the opening fence (`---js` would run
// code); here every engine it knows is the YAML parser, and a fence naming any other language
// means the file has no frontmatter.
const ENGINES = {
  yaml: safeYaml,
  yml: safeYaml,
  json: safeYaml,
  javascript: safeYaml,
  js: safeYaml,
  coffee: safeYaml,
  coffeescript: safeYaml,
  cson: safeYaml,
};

/**
 * Splits frontmatter from a markdown text. Never evaluates code, whatever the opening fence says;
 * malformed frontmatter yields empty data and the text as the body.
 *
 * The fences are found as gray-matter finds them (github.com/jonschlinkert/gray-matter, index.js,
 * `parseMatter`): `---` not followed by `-`, an optional language up to the first line break, the
 * block up to the first `\n---`, then the body without one `\r` and one `\n`. It is done here
 * rather than by gray-matter because gray-matter tests the block with `/^\s*#[^\n]+/gm`, which
 * is quadratic on a long run of blank lines (test/adversarial.test.ts). gray-matter is kept as the reference in a property test.
 */
export function parseFrontmatter(text: string): Frontmatter {
  if (!text.startsWith('---') || text.charAt(3) === '-') return { data: {}, body: text };
  let rest = text.slice(3);
  const length = rest.length;
  const lineBreak = rest.search(/\r?\n/);
  const raw = rest.slice(0, lineBreak);
  const language = raw.trim();
  if (language !== '') rest = rest.slice(raw.length);
  let close = rest.indexOf('\n---');
  if (close === -1) close = length;
  // The `\r` of a CRLF line before the closing fence ends that line. gray-matter leaves it in the
  // block, where YAML then keeps it at the end of the last value (`description: x\r`): it is dropped.
  const block = rest.charAt(close - 1) === '\r' ? rest.slice(0, close - 1) : rest.slice(0, close);
  // Blank or comment-only: empty data, whatever the fence's language (as gray-matter does).
  const engine = commentsOnly(block) ? null : engineFor(language === '' ? 'yaml' : language);
  if (engine === undefined) return { data: {}, body: text };
  try {
    const data = engine === null ? {} : engine.parse(block);
    let body = close === length ? '' : rest.slice(close + 4);
    if (body.startsWith('\r')) body = body.slice(1);
    if (body.startsWith('\n')) body = body.slice(1);
    return { data, body };
  } catch {
    return { data: {}, body: text };
  }
}

/**
 * True when every line is blank or a `#` comment with at least one character after the `#`: what
 * gray-matter's `block.replace(/^\s*#[^\n]+/gm, '').trim() === ''` decides, in linear time.
 */
function commentsOnly(block: string): boolean {
  return !NOT_COMMENT.test(block);
}

// A line (between `\n`s) whose first non-blank character is not `#`, or is a `#` that ends the line.
const NOT_COMMENT = /(?:^|\n)[^\S\n]*(?:[^\s#]|#(?:\n|$))/;

/** The engine gray-matter would pick for a fence language (its `lib/engine.js` aliases), or none. */
function engineFor(language: string): typeof safeYaml | undefined {
  if (Object.hasOwn(ENGINES, language)) return ENGINES[language as keyof typeof ENGINES];
  const lower = language.toLowerCase();
  const alias =
    lower === 'js' || lower === 'javascript'
      ? 'javascript'
      : lower === 'coffee' || lower === 'coffeescript' || lower === 'cson'
        ? 'coffee'
        : lower === 'yaml' || lower === 'yml'
          ? 'yaml'
          : language;
  return Object.hasOwn(ENGINES, alias) ? ENGINES[alias as keyof typeof ENGINES] : undefined;
}
