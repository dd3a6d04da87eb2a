import fs from 'node:fs';
import { describe, expect, test } from 'vitest';
import { INIT_HOSTS } from '../src/cli/init-hosts.js';
import { FORMATS, KNOWN_RULE_SOURCES } from '../src/config/types.js';
import { DIAGNOSTICS } from '../src/diagnostics.js';
import { HOSTS, HOST_REGISTRY } from '../src/hosts/index.js';
import { commandsFromHelp, docLists, docPages, fillRegions, regionNames } from '../scripts/doc-lists.mjs';
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
  ruleSources: KNOWN_RULE_SOURCES,
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
    expect(used.get('docs/config.md')).toEqual(
      expect.arrayContaining([
        'preset-values',
        'engine-format-values',
        'host-format-values',
        'rule-source-values',
      ]),
    );
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
    expect(lists['preset-values']?.match(/`"[^`]+"`/g)).toEqual(
      presets.map((preset) => `\`"${preset.name}"\``),
    );
    const formatValues = `${lists['engine-format-values']}, ${lists['host-format-values']}`.match(
      /`"[^`]+"`/g,
    );
    expect(formatValues?.map((value) => value.slice(2, -2)).sort()).toEqual([...FORMATS].sort());
    expect(lists['rule-source-values']?.match(/`"[^`]+"`/g)).toHaveLength(KNOWN_RULE_SOURCES.length);
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
