import fs from 'node:fs';
import { describe, expect, test } from 'vitest';
import { OPENCODE_KEYS } from '../src/config/defaults.js';

// docs/config.md's table of keys against the published JSON Schema: every key a config may set has
// a row, and every row names a key the schema has. A row `a.<id>.b` stands for every `a.*.b`, and a
// row names also the keys below it (`imports.failed` covers `imports.failed.missing`).

type Node = Record<string, unknown>;
const schema = JSON.parse(fs.readFileSync('schema/config.schema.json', 'utf8')) as Node;

/** The leaf key paths of the schema, with `*` for a segment any name may take. */
function leafKeys(node: Node, prefix: readonly string[], out: string[]): string[] {
  const object = [node, ...((node['anyOf'] ?? node['oneOf'] ?? []) as Node[])].find(
    (candidate) =>
      candidate['properties'] !== undefined || typeof candidate['additionalProperties'] === 'object',
  );
  if (object === undefined) {
    out.push(prefix.join('.'));
    return out;
  }
  for (const [name, child] of Object.entries((object['properties'] ?? {}) as Record<string, Node>))
    leafKeys(child, [...prefix, name], out);
  if (typeof object['additionalProperties'] === 'object')
    leafKeys(object['additionalProperties'] as Node, [...prefix, '*'], out);
  return out;
}

function tableKeys(): string[] {
  const text = fs.readFileSync('docs/config.md', 'utf8');
  const start = text.indexOf('\n## Keys\n');
  const section = text.slice(start, text.indexOf('\n## ', start + 1));
  return [...section.matchAll(/^\| `([^`]+)` \|/gm)].map((match) => match[1]!.replace(/<[^>]+>/g, '*'));
}

const covers = (row: string, key: string): boolean => {
  const rowParts = row.split('.');
  const keyParts = key.split('.');
  return (
    rowParts.length <= keyParts.length && rowParts.every((part, at) => part === '*' || part === keyParts[at])
  );
};

describe('docs/config.md, the table of keys', () => {
  const keys = leafKeys(schema, [], []);
  // OpenCode's own top-level keys pass through unread; the page names them in a sentence, not the table.
  const passThrough = new Set<string>(OPENCODE_KEYS);
  const rows = tableKeys();

  test('the schema has the keys the test expects to walk', () => {
    expect(keys).toEqual(expect.arrayContaining(['preset', 'instructions.globs', 'session.tools.*.as']));
    expect(keys.length).toBeGreaterThan(60);
  });

  test('every key of the schema has a row', () => {
    const missing = keys.filter((key) => !passThrough.has(key) && !rows.some((row) => covers(row, key)));
    expect(missing).toEqual([]);
  });

  test('every row names a key of the schema', () => {
    expect(rows.filter((row) => !keys.some((key) => covers(row, key)))).toEqual([]);
  });

  test("OpenCode's pass-through keys are named on the page", () => {
    const text = fs.readFileSync('docs/config.md', 'utf8');
    expect([...passThrough].filter((key) => !text.includes(`\`${key}\``))).toEqual([]);
  });
});
