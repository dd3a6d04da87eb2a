const LINE = /^([A-Za-z_][A-Za-z0-9_-]*):(?:[ \t]+(.*?))?[ \t]*$/;
// Spaces only: YAML refuses a tab-indented blank line after a key without a value, so a line with a
// tab goes to YAML (which decides) rather than being skipped here.
const BLANK = /^ *$/;
// Most values: words, paths and globs that YAML cannot read as anything but themselves, unless they
// spell null or a boolean. Tested first; the patterns below decide the rest.
const WORDS = /^[A-Za-z_/][A-Za-z0-9_./*?, -]*$/;
// The characters a one-line scalar holds as themselves: tab, printable ASCII and printable non-ASCII,
// less what some readers take for a line break (U+0085, U+2028, U+2029) and the byte order mark. C0
// and C1 controls, lone surrogates, U+FFFE and U+FFFF are not printable in YAML 1.2.
const PRINTABLE = /^[\t\x20-\x7E\xA0-\u2027\u202A-\uD7FF\uE000-\uFEFE\uFF00-\uFFFD\u{10000}-\u{10FFFF}]*$/u;
// A plain scalar starts with no indicator (`-`, `?` and `:` do when a non-blank follows them) and holds
// no `: ` (a nested mapping), no trailing `:` and no ` #` (a comment).
const PLAIN_START = /^(?:[^-?:,[\]{}#&*!|>'"%@`\t ]|[-?:][^\t ])/;
const PLAIN_BREAK = /:(?:[\t ]|$)|[\t ]#/;
// What YAML 1.2's core schema reads as something other than a string (the `yaml` package's
// schema/core and schema/common tags): null, booleans, integers, floats, infinities, NaN.
const NOT_STRING =
  /^(?:~|[Nn]ull|NULL|[Tt]rue|TRUE|[Ff]alse|FALSE|0o[0-7]+|0x[0-9a-fA-F]+|[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/;
const BOOLEAN = /^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$/;
const NULL = /^(?:~|[Nn]ull|NULL)$/;
// Keys match LINE's key pattern, so only null and the booleans among NOT_STRING can be spelled.
const KEYWORD = /^(?:[Nn]ull|NULL|[Tt]rue|TRUE|[Ff]alse|FALSE)$/;
// YAML limits an implicit key to 1024 characters; longer keys go to the parser, which refuses them.
const MAX_KEY_LENGTH = 1_000;
const UNSAFE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * Reads a frontmatter block made only of one-line `key: value` pairs whose values YAML 1.2 (core
 * schema) reads as a string, a boolean or null — the shape of nearly every rule file and label — and
 * returns exactly what the YAML parser would: plain scalars with any printable text (punctuation,
 * parentheses, non-ASCII letters), quoted scalars without escapes, `key:` alone as null. Returns
 * `null` for anything else (lists, nesting, escapes, numbers, anchors, tags, comments after a value,
 * duplicate keys, …), which then goes to YAML. It spares loading and running the YAML parser on
 * hundreds of rule files; a property test (test/rules-adapters.test.ts) checks it against YAML.
 */
export function readSimpleFrontmatter(block: string): Record<string, unknown> | null {
  const data: Record<string, unknown> = {};
  for (let start = 0; start <= block.length;) {
    let end = block.indexOf('\n', start);
    if (end < 0) end = block.length;
    const raw = block.slice(start, end);
    start = end + 1;
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (BLANK.test(line) || line.startsWith('#')) continue;
    const pair = LINE.exec(line);
    if (pair === null) return null;
    const key = pair[1] as string;
    if (key.length > MAX_KEY_LENGTH || UNSAFE_KEYS.has(key) || KEYWORD.test(key) || Object.hasOwn(data, key))
      return null;
    const value = scalarOf(pair[2] ?? '');
    if (value === undefined) return null;
    data[key] = value;
  }
  return data;
}

// A one-line flow sequence (`globs: ["**/*.ts", src/*.tsx]`, the common Cursor shape), read here only
// when every item is a quoted string without escapes or a plain word that cannot be anything else.
const FLOW_SEQUENCE = /^\[(.*)\]$/;
// A plain item inside `[...]`: no flow indicator, no quote, no `#`, no blank inside, no leading
// indicator (`*` would be an alias, `&` an anchor, `!` a tag).
const FLOW_PLAIN = /^[A-Za-z0-9_./][A-Za-z0-9_./*?-]*$/;
const FLOW_QUOTED = /^(?:"[^"\\,]*"|'[^',]*')$/;

/** What YAML reads from `[a, "b"]` when every item is a plain word or a simply quoted string. */
function sequenceOf(inner: string): string[] | undefined {
  if (inner.trim() === '') return [];
  const items: string[] = [];
  for (const part of inner.split(',')) {
    const item = part.trim();
    if (FLOW_QUOTED.test(item)) items.push(item.slice(1, -1));
    else if (FLOW_PLAIN.test(item) && !NOT_STRING.test(item)) items.push(item);
    else return undefined;
  }
  return items;
}

/** What YAML reads from a one-line value, when it is a string, a boolean, null or a simple list; else `undefined`. */
function scalarOf(value: string): string | boolean | null | string[] | undefined {
  if (value === '') return null;
  const sequence = FLOW_SEQUENCE.exec(value);
  if (sequence !== null) return PRINTABLE.test(value) ? sequenceOf(sequence[1] as string) : undefined;
  if (WORDS.test(value) && !KEYWORD.test(value)) return value;
  if (NULL.test(value)) return null;
  if (BOOLEAN.test(value)) return value.charAt(0).toLowerCase() === 't';
  if (!PRINTABLE.test(value)) return undefined;
  const first = value.charAt(0);
  if ((first === '"' || first === "'") && value.length >= 2 && value.endsWith(first)) {
    const inner = value.slice(1, -1);
    // Without `\` (double quotes) or `''` (single quotes) the text between the quotes is the value.
    return inner.includes(first) || (first === '"' && inner.includes('\\')) ? undefined : inner;
  }
  if (!PLAIN_START.test(value) || PLAIN_BREAK.test(value) || NOT_STRING.test(value)) return undefined;
  return value;
}
