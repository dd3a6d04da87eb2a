import fs from 'node:fs';
import { describe, expect, test } from 'vitest';
import { INIT_HOSTS } from '../src/cli/init-hosts.js';
import { OPENCODE_KEYS } from '../src/config/defaults.js';
import { WIDENING_KEYS } from '../src/config/trust.js';
import { FORMATS } from '../src/config/types.js';
import { DIAGNOSTICS } from '../src/diagnostics.js';
import { HOSTS, HOST_REGISTRY } from '../src/hosts/index.js';
import {
  commandsFromHelp,
  configTable,
  docLists,
  docPages,
  fillRegions,
  regionNames,
} from '../scripts/doc-lists.mjs';
import { cli } from './helpers/cli.js';

// The lists of hosts, formats, presets and commands in the docs are generated from the registry
// and the CLI, and the table of diagnostic codes from src/diagnostics.ts (scripts/doc-lists.mjs): each
// doc is compared with what `npm run generate` would write.

const commands = commandsFromHelp((await cli(['--help'], { cwd: process.cwd() })).stdout);
const lists = docLists({
  hosts: HOSTS,
  formats: FORMATS,
  initHosts: INIT_HOSTS,
  commands,
  diagnostics: DIAGNOSTICS,
  config: {
    schema: JSON.parse(fs.readFileSync('schema/config.schema.json', 'utf8')) as unknown,
    widening: WIDENING_KEYS,
    passThrough: OPENCODE_KEYS,
  },
});
const pages = docPages('.');

describe('the generated lists in the docs', () => {
  test.each(pages.filter((page) => regionNames(fs.readFileSync(page, 'utf8')).length > 0))(
    '%s is up to date',
    (page) => {
      const text = fs.readFileSync(page, 'utf8');
      const fresh = fillRegions(text, lists, page);
      // On a failure: run `npm run generate`, which rewrites the lists from the registry and the CLI.
      expect(fresh === text, `${page} is stale: run \`npm run generate\``).toBe(true);
    },
  );

  test('every list is used, and the main ones where a reader looks for them', () => {
    const used = new Map(pages.map((page) => [page, regionNames(fs.readFileSync(page, 'utf8'))]));
    const all = new Set([...used.values()].flat());
    expect([...Object.keys(lists)].filter((name) => !all.has(name))).toEqual([]);
    expect(used.get('docs/cli.md')).toEqual(
      expect.arrayContaining(['formats', 'commands', 'hook-hosts', 'init-hosts']),
    );
    expect(used.get('docs/hooks.md')).toEqual(expect.arrayContaining(['hook-hosts', 'init-hosts']));
    expect(used.get('README.md')).toEqual(expect.arrayContaining(['preset-commands', 'host-formats']));
    expect(used.get('docs/diagnostics.md')).toEqual(['diagnostics']);
    expect(used.get('docs/config.md')).toEqual(['config-keys']);
  });

  test('the lists hold every host, format, preset and command', () => {
    expect(lists['formats']?.match(/`[^`]+`/g)).toHaveLength(FORMATS.length);
    expect(lists['hook-hosts']?.match(/`[^`]+`/g)).toEqual(HOST_REGISTRY.hookHosts.map((id) => `\`${id}\``));
    expect(lists['init-hosts']?.match(/`[^`]+`/g)).toHaveLength(INIT_HOSTS.length);
    const presets = HOSTS.flatMap((host) => host.presets);
    expect(lists['preset-commands']?.match(/--preset \S+/g)).toEqual(
      presets.map((preset) => `--preset ${preset.name}`),
    );
    expect(commands).toEqual(expect.arrayContaining(['resolve', 'hook', 'init', 'doctor', 'mcp']));
    expect(commands).not.toContain('help');
    expect(lists['diagnostics']?.split('\n')).toHaveLength(DIAGNOSTICS.length + 2);
  });

  test('the command table of docs/cli.md has one row per command of the CLI', () => {
    const rows = [...fs.readFileSync('docs/cli.md', 'utf8').matchAll(/^\| `([a-z-]+)[ `]/gm)].map(
      (match) => match[1],
    );
    expect([...rows].sort()).toEqual([...commands].sort());
  });
});

describe('fillRegions', () => {
  const small = { a: 'A', b: 'one\ntwo' };

  test('inline and block regions are rewritten; the rest is kept byte for byte', () => {
    expect(
      fillRegions(
        'x <!-- generated: a -->old<!-- /generated --> y\n<!-- generated: b -->\nold\n<!-- /generated -->\nz',
        small,
        'f.md',
      ),
    ).toBe(
      'x <!-- generated: a -->A<!-- /generated --> y\n<!-- generated: b -->\none\ntwo\n<!-- /generated -->\nz',
    );
  });

  test('an unknown name or a missing end marker is an error naming the file and line', () => {
    expect(() => fillRegions('\n<!-- generated: c -->x<!-- /generated -->', small, 'f.md')).toThrow(
      'f.md:2: no generated list is named "c"',
    );
    expect(() => fillRegions('<!-- generated: a -->x', small, 'f.md')).toThrow(
      'f.md:1: the region "a" has no <!-- /generated -->',
    );
  });
});

describe("docs/config.md's table of keys, from the JSON Schema", () => {
  const schema = {
    type: 'object',
    properties: {
      mode: {
        type: 'string',
        enum: ['a', 'b'],
        default: 'a',
        description: 'Which (docs/rules.md), not `<a>` but <b>.',
      },
      caps: {
        type: 'object',
        properties: {
          most: { type: 'integer', minimum: 0, maximum: 32, default: 5, description: 'How many.' },
          size: {
            anyOf: [{ type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER }, { type: 'null' }],
            default: null,
            description: 'Bytes; a | in text.',
          },
        },
      },
      tools: {
        type: 'object',
        description: 'Tools by name.',
        additionalProperties: { type: 'object', properties: { as: { type: 'string' } } },
      },
      agents: {
        type: 'object',
        description: 'Agents (docs/security.md, "Trust tiers").',
        additionalProperties: { type: 'string' },
      },
      note: { type: 'string', default: 'under `{dir}`', description: 'A sentence.' },
      failed: {
        description: 'Per reason.',
        anyOf: [
          { type: 'string', enum: ['keep'] },
          { type: 'object', properties: { missing: { type: 'string', description: 'Gone.' } } },
        ],
      },
      extra: { type: 'array', items: { type: 'string' }, default: [], description: 'More.' },
      kinds: { type: 'array', items: { type: 'string', enum: ['x', 'y'] }, description: 'Some.' },
      data: { description: "OpenCode's own." },
    },
  };
  const table = configTable(schema, [{ keyPath: ['extra'], reason: 'it reads outside' }], ['data']).split(
    '\n',
  );

  test('one row per leaf, in schema order, with type, default and meaning', () => {
    expect(table.slice(2)).toEqual([
      '| `mode` | `"a"`, `"b"` | `"a"` | Which ([rules.md](rules.md)), not `<a>` but &lt;b>. |',
      '| `caps.most` | integer 0–32 | `5` | How many. |',
      '| `caps.size` | integer ≥ 0, or `null` | `null` | Bytes; a \\| in text. |',
      '| `tools.<name>.as` | string | none | Tools by name. |',
      '| `agents.<id>` | string | none | Agents ([security.md, "Trust tiers"](security.md#trust-tiers)). |',
      '| `note` | string | `` "under `{dir}`" `` | A sentence. |',
      '| `failed` | `"keep"`, or object | none | Per reason. |',
      '| `failed.missing` | string | none | Gone. |',
      '| `extra` | string[] | `[]` | More. From a project config a value is dropped where it reads outside ([security.md, "Trust tiers"](security.md#trust-tiers)). |',
      '| `kinds` | any of `"x"`, `"y"` | none | Some. |',
    ]);
  });

  test("the page's table is the real schema's: every widening key carries its note", () => {
    const page = fs.readFileSync('docs/config.md', 'utf8');
    for (const row of WIDENING_KEYS)
      expect(page).toMatch(new RegExp(`\\| \`${row.keyPath.join('\\.')}\` \\|.*dropped where ${row.reason}`));
  });
});
