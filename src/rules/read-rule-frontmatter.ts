import { parseYamlBlock } from '../discover/frontmatter.js';
import { readSimpleFrontmatter } from '../discover/simple-frontmatter.js';
import { MAX_DISCOVERY_YAML_BYTES } from './compile-budget.js';
import { splitGlobs } from './rule-adapter.js';

/** The outcome of {@link readRuleFrontmatter}. */
export type RuleFrontmatter =
  | {
      readonly ok: true;
      readonly data: Readonly<Record<string, unknown>>;
      /** The text after the closing fence (the whole text when there is no frontmatter). */
      readonly body: string;
      /** YAML rejected the block; `data` holds the known keys read line by line as strings. */
      readonly lenient: boolean;
    }
  | { readonly ok: false; readonly problem: string; readonly overBudget?: true };

// A fence is a line of exactly three dashes (trailing blanks allowed). `---js` is no fence: frontmatter
// is never code, so such a file simply has none.
const OPENING = /^---[ \t]*\r?\n/;
const KEY_LINE = /^([A-Za-z_][\w-]*)[ \t]*:(?:[ \t]+(.*)|[ \t]*)$/;
const UNDEFINED_ALIAS = /^(?:[A-Za-z_][\w-]*:|[ \t]+-)[ \t]+\*/m;
const ITEM_LINE = /^[ \t]+-[ \t]*(.*)$/;

/**
 * Splits a rule file into frontmatter data and body. YAML first, through the project's reader
 * (src/discover/frontmatter.ts: YAML only, never code), after a fast path for blocks of plain
 * one-line pairs that gives the same data (src/discover/simple-frontmatter.ts). When YAML rejects the block, the vendor's
 * known `keys` are read line by line as plain strings, as the vendors' own readers tolerate
 * (`globs: *.ts` is an unresolved alias to YAML): `key: value`, `key: [a, b]`, or `key:` followed by
 * `- item` lines. A block that is not closed, or that holds a line of neither shape, is refused.
 * With `yaml` (what is left of one discovery's budget), a block longer than what is left is
 * refused unparsed (`overBudget`); one that is parsed is taken from it.
 */
export function readRuleFrontmatter(
  text: string,
  keys: readonly string[],
  yaml?: { yamlBytes: number },
): RuleFrontmatter {
  const opening = OPENING.exec(text);
  if (opening === null) return { ok: true, data: {}, body: text, lenient: false };
  const rest = text.slice(opening[0].length);
  const fence = closingFence(rest);
  if (fence === null) return { ok: false, problem: 'the frontmatter has no closing --- line' };
  const block = rest.slice(0, fence.start);
  const afterFence = rest.slice(fence.end);
  if (block.trim() === '') return { ok: true, data: {}, body: afterFence, lenient: false };
  const simple = readSimpleFrontmatter(block);
  if (simple !== null) return { ok: true, data: simple, body: afterFence, lenient: false };
  // `globs: *.ts` refers to an anchor the block never defines (no `&`, no block scalar that could
  // hold the line): YAML is certain to reject it, so the lenient reader answers without a failed parse.
  if (!UNDEFINED_ALIAS.test(block) || /[&|>]/.test(block)) {
    if (yaml !== undefined && block.length > yaml.yamlBytes)
      return {
        ok: false,
        problem: `its frontmatter would pass the ${MAX_DISCOVERY_YAML_BYTES} bytes of YAML one resolution reads`,
        overBudget: true,
      };
    if (yaml !== undefined) yaml.yamlBytes -= block.length;
    // The block alone, line ends normalized, to the project's YAML reader (core schema, no code).
    const data = parseYamlBlock(block.replace(/\r\n/g, '\n'));
    if (data !== null) return { ok: true, data, body: afterFence, lenient: false };
  }
  const lenient = readLeniently(block, keys);
  if (typeof lenient === 'string') return { ok: false, problem: lenient };
  return { ok: true, data: lenient, body: afterFence, lenient: true };
}

/** The first `---` line of `text`: where it starts and where the line after it starts. */
function closingFence(text: string): { start: number; end: number } | null {
  let offset = 0;
  for (;;) {
    const newline = text.indexOf('\n', offset);
    const end = newline < 0 ? text.length : newline;
    if (/^---[ \t]*\r?$/.test(text.slice(offset, end)))
      return { start: offset, end: newline < 0 ? end : end + 1 };
    if (newline < 0) return null;
    offset = newline + 1;
  }
}

function readLeniently(block: string, keys: readonly string[]): Record<string, unknown> | string {
  const data: Record<string, unknown> = {};
  let list: string[] | null = null;
  let lists = false;
  const lines = block.split('\n');
  for (let index = 0; index < lines.length; index += 1) {
    const raw = lines[index] as string;
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (line.trim() === '' || line.trimStart().startsWith('#')) continue;
    const item = ITEM_LINE.exec(line);
    if (item !== null) {
      if (list !== null) {
        const value = stripComment(item[1] as string);
        if (!looksPlain(value)) return notPlain(index, value);
        list.push(unquote(value));
      }
      continue;
    }
    if (list !== null && /^[ \t]/.test(line)) continue;
    const pair = KEY_LINE.exec(line);
    if (pair === null) return `line ${index + 2} of the frontmatter is neither YAML nor "key: value"`;
    list = null;
    const key = pair[1] as string;
    const value = stripComment(pair[2] ?? '');
    if (!keys.includes(key)) continue;
    if (!looksPlain(value)) return notPlain(index, value);
    if (value === '') {
      data[key] = list = [];
      lists = true;
    } else if (value.startsWith('[') && value.endsWith(']'))
      data[key] = splitGlobs(value.slice(1, -1)).map(unquote);
    else data[key] = unquote(value);
  }
  // `key:` with no items below has no value (YAML reads it as null), not an empty list.
  if (lists)
    for (const [key, value] of Object.entries(data))
      if (Array.isArray(value) && value.length === 0) data[key] = null;
  return data;
}

/**
 * True when a value read line by line looks like what the vendors write unquoted (`*.ts, src/**`,
 * `[*.ts, *.md]`, `{src,lib}/**`): every quote closed, every `[` and `{` closed on the same line, no
 * `key: value` inside. Anything else is broken YAML, not a glob, and the file is refused rather than
 * read as a glob such as `[` (docs/rules.md, "Frontmatter").
 */
function looksPlain(value: string): boolean {
  if (/^["']/.test(value) && !(value.length >= 2 && value.endsWith(value[0] as string))) return false;
  if (value.startsWith('[') !== value.endsWith(']')) return false;
  if (/:[ \t]/.test(value)) return false;
  if (!/[[\]{}]/.test(value)) return true;
  let brackets = 0;
  let braces = 0;
  for (const char of value) {
    if (char === '[') brackets += 1;
    else if (char === ']') brackets -= 1;
    else if (char === '{') braces += 1;
    else if (char === '}') braces -= 1;
    if (brackets < 0 || braces < 0) return false;
  }
  return brackets === 0 && braces === 0;
}

function notPlain(index: number, value: string): string {
  return `line ${index + 2} of the frontmatter is not valid YAML, and ${JSON.stringify(value)} is not a plain value`;
}

// ` #` starts a comment (a `#` inside a glob has no blank before it).
function stripComment(value: string): string {
  const at = value.includes('#') ? value.search(/[ \t]#/) : -1;
  return (at < 0 ? value : value.slice(0, at)).trim();
}

function unquote(value: string): string {
  const trimmed = value.trim();
  if (trimmed.length >= 2 && (trimmed[0] === '"' || trimmed[0] === "'") && trimmed.endsWith(trimmed[0]))
    return trimmed.slice(1, -1);
  return trimmed;
}
