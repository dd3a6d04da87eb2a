// The lists the docs repeat (hosts, formats, presets, commands, diagnostic codes, the config's keys), written from
// the registry, the CLI and the config's JSON Schema so that they cannot drift. A doc marks each list with a region:
//
//   <!-- generated: hook-hosts -->`codex`, `claude-code`, ...<!-- /generated -->
//
// inline as above, or with the markers on lines of their own for a block. `npm run generate`
// (scripts/generate.mjs) rewrites every region from the built code; test/doc-lists.test.ts
// rebuilds them from src/ and fails while a doc is stale. This module is pure: text in, text out.
import fs from 'node:fs';
import path from 'node:path';

const OPEN = /<!-- generated: ([a-z-]+) -->/g;
const CLOSE = '<!-- /generated -->';

/** `a`, `b` or `c` (`word` joins the last two). */
function series(items, word) {
  if (items.length < 2) return items.join('');
  return `${items.slice(0, -1).join(', ')} ${word} ${items.at(-1)}`;
}

const code = (text) => `\`${text}\``;

/** A config value as docs/config.md shows it: JSON in code (in double backticks when it holds one). */
const quoted = (value) => {
  const json = JSON.stringify(value);
  return json.includes('`') ? `\`\` ${json} \`\`` : code(json);
};

/** What `presets` prints before its first colon: the tool's name as its summary gives it. */
function presetTitle(preset) {
  const colon = preset.summary.indexOf(': ');
  return colon === -1 ? preset.summary : preset.summary.slice(0, colon);
}

/** The table of docs/diagnostics.md: one row per entry of DIAGNOSTICS, in its order. */
function diagnosticsTable(diagnostics) {
  const cell = (text) => text.replaceAll('|', '\\|');
  return [
    '| code | level | meaning | what to do |',
    '| --- | --- | --- | --- |',
    ...diagnostics.map(
      (row) => `| \`${row.code}\` | ${row.level} | ${cell(row.meaning)} | ${cell(row.action)} |`,
    ),
  ].join('\n');
}

/**
 * The text of every region, by name, from `hosts` (the registry, in its order), `formats` (the
 * config's FORMATS), `initHosts` (INIT_HOSTS of the CLI), `commands` (the CLI's commands, as
 * its help lists them), `diagnostics` (the table of src/diagnostics.ts) and `config` (the
 * published JSON Schema, the keys a project config may not widen and OpenCode's pass-through keys,
 * for docs/config.md's table of keys: {@link configTable}).
 */
export function docLists({ hosts, formats, initHosts, commands, diagnostics, config }) {
  const hookHosts = hosts.filter((host) => host.hook !== undefined);
  const hostFormats = new Set(hosts.flatMap((host) => (host.formats ?? []).map((format) => format.name)));
  const presets = hosts.flatMap((host) => host.presets.map((preset) => ({ host, preset })));
  const width = Math.max(...presets.map(({ preset }) => preset.name.length));
  return {
    formats: series(formats.map(code), 'or'),
    'engine-formats': series(formats.filter((name) => !hostFormats.has(name)).map(code), 'or'),
    'host-formats': series(
      hosts
        .filter((host) => (host.formats ?? []).length > 0)
        .map((host) => `${host.title} (${host.formats.map((format) => code(format.name)).join(', ')})`),
      'and',
    ),
    'hook-hosts': series(
      hookHosts.map((host) => code(host.id)),
      'or',
    ),
    'hook-host-names': series(
      hookHosts.map((host) => host.title),
      'and',
    ),
    'init-hosts': series(initHosts.map(code), 'or'),
    'lab-hosts': series(
      hosts.filter((host) => host.verified !== null).map((host) => host.title),
      'and',
    ),
    diagnostics: diagnosticsTable(diagnostics),
    'config-keys': configTable(config.schema, config.widening, config.passThrough),
    commands: series(commands.map(code), 'and'),
    'preset-commands': [
      '```sh runnable',
      ...presets.map(({ host, preset }) => {
        const from = preset.name === host.id && host.verified !== null ? ` (${host.verified.package})` : '';
        return `npx ctxfiles resolve --preset ${preset.name.padEnd(width)}  # ${presetTitle(preset)}${from}`;
      }),
      `${'npx ctxfiles presets'.padEnd(width + 32)}# one line per preset: name, verified host version, summary`,
      '```',
    ].join('\n'),
  };
}

/** The commands of `ctxfiles --help` (its `Commands:` section), without commander's own `help`. */
export function commandsFromHelp(help) {
  const section = help.slice(help.indexOf('\nCommands:\n'));
  return [...section.matchAll(/^ {2}([a-z][a-z-]*)\b/gm)]
    .map((match) => match[1])
    .filter((name) => name !== 'help');
}

/**
 * `text` with every region rewritten from `lists`. Throws, naming `file` and the line, on a region
 * without its closing marker or with a name `lists` does not have.
 */
export function fillRegions(text, lists, file) {
  let out = '';
  let at = 0;
  for (const match of text.matchAll(OPEN)) {
    if (match.index < at) continue;
    const name = match[1];
    const line = text.slice(0, match.index).split('\n').length;
    const start = match.index + match[0].length;
    const end = text.indexOf(CLOSE, start);
    if (end === -1) throw new Error(`${file}:${line}: the region "${name}" has no ${CLOSE}`);
    if (!Object.hasOwn(lists, name)) throw new Error(`${file}:${line}: no generated list is named "${name}"`);
    const block = text[start] === '\n';
    out += text.slice(at, start) + (block ? `\n${lists[name]}\n` : lists[name]);
    at = end;
  }
  return out + text.slice(at);
}

/** The names of the regions in `text`, in order. */
export function regionNames(text) {
  return [...text.matchAll(OPEN)].map((match) => match[1]);
}

/** The pages that may hold regions: README.md, CONTRIBUTING.md, ARCHITECTURE.md and docs/ (paths from `repo`). */
export function docPages(repo) {
  const walk = (dir) =>
    fs
      .readdirSync(path.join(repo, dir), { withFileTypes: true })
      .flatMap((entry) =>
        entry.isDirectory()
          ? walk(path.join(dir, entry.name))
          : entry.name.endsWith('.md')
            ? [path.join(dir, entry.name)]
            : [],
      );
  return ['README.md', 'CONTRIBUTING.md', 'ARCHITECTURE.md', ...walk('docs')].sort();
}

/**
 * src/config/host-names.generated.ts: the preset and format names the hosts of the registry define,
 * in registry order. The config vocabulary (schema, `--preset` and `--format` choices) takes them
 * from there, so that no engine module imports a host.
 */
export function hostNamesModule(hosts) {
  const list = (names) => `[\n${names.map((name) => `  '${name}',\n`).join('')}] as const`;
  return [
    '// Generated by scripts/generate-sources.mjs (npm run build) from the host registry',
    '// (src/hosts/index.ts). Do not edit; it is not committed.',
    '',
    "/** The presets of the registry's hosts, in registry order. */",
    `export const HOST_PRESET_NAMES = ${list(hosts.flatMap((host) => host.presets.map((preset) => preset.name)))};`,
    '',
    "/** The output formats of the registry's hosts, in registry order. */",
    `export const HOST_FORMAT_NAMES = ${list(hosts.flatMap((host) => (host.formats ?? []).map((format) => format.name)))};`,
    '',
  ].join('\n');
}

/**
 * The module of `src/registry/host-index.generated.ts`: each host's id and the names it defines
 * (`hostIndexOf`, src/registry/lazy-registry.ts), which the CLI's registry answers without loading
 * the host.
 */
export function hostIndexModule(rows) {
  return [
    '// Generated by scripts/generate-sources.mjs (npm run build) from the host registry',
    '// (src/hosts/index.ts). Do not edit; it is not committed.',
    "import type { HostIndexRow } from './lazy-registry.js';",
    '',
    "/** The registry's hosts by what they name, in registry order (src/registry/lazy-registry.ts). */",
    `export const HOST_INDEX: readonly HostIndexRow[] = ${JSON.stringify(rows, null, 2)};`,
    '',
  ].join('\n');
}

/** The name a record's key stands for in docs/config.md, by the record's key path. */
const RECORD_KEYS = { agents: '<id>', subagents: '<name>', modes: '<mode>', 'session.tools': '<name>' };

/** Text for a table cell: `|` escaped, and `<` outside code spans, so that `rules-<mode>/` is not read as HTML. */
const cellText = (text) =>
  text
    .split('`')
    .map((part, at) => (at % 2 === 0 ? part.replaceAll('<', '&lt;') : part))
    .join('`')
    .replaceAll('|', '\\|');

/** `docs/rules.md` and `docs/security.md, "Trust tiers"` in a description, as links from docs/. */
function linkDocs(text) {
  return text.replace(/docs\/([a-z0-9-]+\.md)(?:#([a-z0-9-]+)|, "([^"]+)")?/g, (_, page, anchor, section) => {
    const slug =
      anchor ??
      (section === undefined
        ? ''
        : section
            .toLowerCase()
            .replace(/[^a-z0-9 -]/g, '')
            .replaceAll(' ', '-'));
    return `[${page}${slug === '' ? '' : `, "${section ?? anchor}"`}](${page}${slug === '' ? '' : `#${slug}`})`;
  });
}

/** The type cell of a schema node. */
function typeOf(node) {
  if (node.enum !== undefined) return node.enum.map(quoted).join(', ');
  if (node.anyOf !== undefined) {
    const types = node.anyOf.filter((branch) => branch.type !== 'null').map(typeOf);
    const nullable = node.anyOf.some((branch) => branch.type === 'null');
    return `${types.join(', or ')}${nullable ? ', or `null`' : ''}`;
  }
  switch (node.type) {
    case 'integer':
      return node.maximum === undefined || node.maximum >= Number.MAX_SAFE_INTEGER
        ? `integer ≥ ${node.minimum ?? 0}`
        : `integer ${node.minimum ?? 0}–${node.maximum}`;
    case 'array':
      // A list of chosen values: "any of" them; else the items' type as a list.
      return node.items?.enum !== undefined
        ? `any of ${typeOf(node.items)}`
        : `${typeOf(node.items ?? {})}[]`;
    case 'object':
      return 'object';
    case undefined:
      return 'anything';
    default:
      return node.type;
  }
}

/** The default cell: the schema's default as a config writes it. */
function defaultOf(node) {
  const value = node.default;
  if (value === undefined) return 'none';
  if (Array.isArray(value)) return value.length === 0 ? '`[]`' : value.map(quoted).join(', ');
  return quoted(value);
}

/**
 * docs/config.md's table of keys, one row per leaf of the published JSON Schema (`schema`), in its
 * order: the key (a record's keys as `<id>`), its type, its default and its description, with a
 * note for the keys of `widening` (src/config/trust.ts: a project config may not widen them).
 * `passThrough` are keys named on the page instead (OpenCode's own).
 */
export function configTable(schema, widening, passThrough) {
  const skip = new Set(passThrough);
  const widens = new Map(widening.map((row) => [row.keyPath.join('.'), row.reason]));
  const rows = [];
  const row = (key, node, match, fallback) => {
    const reason = widens.get(match);
    const trust =
      reason === undefined
        ? ''
        : ` From a project config a value is dropped where ${reason} ([security.md, "Trust tiers"](security.md#trust-tiers)).`;
    rows.push(
      `| \`${key}\` | ${cellText(typeOf(node))} | ${cellText(defaultOf(node))} | ${cellText(linkDocs(node.description ?? fallback ?? ''))}${trust} |`,
    );
  };
  // `fallback`: the description of the record a value belongs to, for a value without its own.
  const walk = (node, key, match, fallback) => {
    const object = node.properties !== undefined ? node : node.anyOf?.find((branch) => branch.properties);
    if (object !== node && object !== undefined) row(key, node, match);
    if (object === undefined && typeof node.additionalProperties !== 'object')
      return row(key, node, match, fallback);
    for (const [name, child] of Object.entries(object?.properties ?? {})) {
      if (key === '' && skip.has(name)) continue;
      walk(child, key === '' ? name : `${key}.${name}`, key === '' ? name : `${match}.${name}`, fallback);
    }
    const each = node.additionalProperties;
    if (typeof each !== 'object') return;
    if (Object.keys(each).length === 0) return row(`${key}.*`, {}, `${match}.*`, node.description);
    walk(each, `${key}.${RECORD_KEYS[match] ?? '<name>'}`, `${match}.*`, node.description);
  };
  walk(schema, '', '');
  return ['| key | type | default | meaning |', '| --- | --- | --- | --- |', ...rows].join('\n');
}
