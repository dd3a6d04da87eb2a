const LINE = /^([A-Za-z_][A-Za-z0-9_-]*):(?:[ \t]+(.*?))?[ \t]*$/;
// A plain scalar that YAML 1.2 (core schema) reads as this very string: no indicator at the start,
// no `: ` or ` #` inside, and nothing a number, null or boolean could be read from.
const PLAIN = /^[A-Za-z_/][A-Za-z0-9_./*?, -]*$/;
const KEYWORD = /^(?:null|Null|NULL|true|True|TRUE|false|False|FALSE)$/;
const UNSAFE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * Reads a frontmatter block made only of one-line `key: value` pairs whose values YAML would read
 * as a string, `true`, `false` or null (`key:` alone) — the shape of nearly every rule file — and
 * returns exactly what the YAML parser would. Returns `null` for anything else (lists, nesting,
 * escapes, numbers, anchors, duplicate keys, …), which then goes to YAML. It spares the YAML parser
 * on hundreds of rule files; a property test checks it against YAML.
 */
export function readSimpleFrontmatter(block: string): Record<string, unknown> | null {
  const data: Record<string, unknown> = {};
  for (const raw of block.split('\n')) {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (line.trim() === '' || line.startsWith('#')) continue;
    const pair = LINE.exec(line);
    if (pair === null) return null;
    const key = pair[1] as string;
    if (UNSAFE_KEYS.has(key) || KEYWORD.test(key) || Object.hasOwn(data, key)) return null;
    const value = pair[2] ?? '';
    if (value === '') data[key] = null;
    else if (value === 'true' || value === 'false') data[key] = value === 'true';
    else if (
      value.length >= 2 &&
      value.startsWith('"') &&
      value.endsWith('"') &&
      !/["\\]/.test(value.slice(1, -1))
    )
      data[key] = value.slice(1, -1);
    else if (
      value.length >= 2 &&
      value.startsWith("'") &&
      value.endsWith("'") &&
      !value.slice(1, -1).includes("'")
    )
      data[key] = value.slice(1, -1);
    else if (PLAIN.test(value) && !KEYWORD.test(value) && !value.includes(' #')) data[key] = value;
    else return null;
  }
  return data;
}
