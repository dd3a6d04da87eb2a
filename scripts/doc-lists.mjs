// The lists the docs repeat (hosts, formats, presets, commands, diagnostic codes), written from the registry and the
// CLI so that they cannot drift. A doc marks each list with a region:
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

/** A config value as docs/config.md shows it: JSON in code. */
const quoted = (text) => code(JSON.stringify(text));

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
 * its help lists them), `diagnostics` (the table of src/diagnostics.ts) and `ruleSources` (the
 * config's KNOWN_RULE_SOURCES).
 */
export function docLists({ hosts, formats, initHosts, commands, diagnostics, ruleSources }) {
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
    // The values of docs/config.md's table, JSON-quoted as a config writes them.
    'preset-values': presets.map(({ preset }) => quoted(preset.name)).join(', '),
    'engine-format-values': formats
      .filter((name) => !hostFormats.has(name))
      .map(quoted)
      .join(', '),
    'host-format-values': formats
      .filter((name) => hostFormats.has(name))
      .map(quoted)
      .join(', '),
    'rule-source-values': ruleSources.map(quoted).join(', '),
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
