// Rewrites the committed files derived from the code: schema/config.schema.json (the JSON Schema
// editors fetch), then the lists of hosts, formats, presets, commands and diagnostic codes in the
// docs (scripts/doc-lists.mjs). Run `npm run generate` after changing src/config/schema.ts, a host,
// a format or a command; tests fail while a file is stale. The sources generated for the build
// (validators, host names) are not committed: scripts/generate-sources.mjs writes them.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { commandsFromHelp, docLists, docPages, fillRegions } from './doc-lists.mjs';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

// The published JSON Schema, from the built zod schema (the sources generated from it are built,
// not committed: scripts/generate-sources.mjs).
const { generateConfigJsonSchemaText } = await import('../dist/config/generate-json-schema.js');
fs.writeFileSync(path.join(repo, 'schema/config.schema.json'), generateConfigJsonSchemaText());
console.log('wrote schema/config.schema.json');

// The lists the docs repeat (hosts, formats, presets, commands, diagnostic codes) and the table of
// config keys, from the schema just written: scripts/doc-lists.mjs.
const { FORMATS } = await import('../dist/config/types.js');
const { WIDENING_KEYS } = await import('../dist/config/trust.js');
const { OPENCODE_KEYS } = await import('../dist/config/defaults.js');
const { HOSTS } = await import('../dist/hosts/index.js');
const { INIT_HOSTS } = await import('../dist/cli/init-hosts.js');
const { run } = await import('../dist/cli/run.js');
const { DIAGNOSTICS } = await import('../dist/diagnostics.js');
let help = '';
await run(['--help'], {
  stdout: { write: (text) => (help += text) },
  stderr: { write() {} },
  env: {},
  cwd: repo,
});
const lists = docLists({
  hosts: HOSTS,
  formats: FORMATS,
  initHosts: INIT_HOSTS,
  commands: commandsFromHelp(help),
  diagnostics: DIAGNOSTICS,
  config: {
    schema: JSON.parse(fs.readFileSync(path.join(repo, 'schema/config.schema.json'), 'utf8')),
    widening: WIDENING_KEYS,
    passThrough: OPENCODE_KEYS,
  },
});
const rewritten = [];
for (const page of docPages(repo)) {
  const text = fs.readFileSync(path.join(repo, page), 'utf8');
  const filled = fillRegions(text, lists, page);
  if (filled !== text) {
    fs.writeFileSync(path.join(repo, page), filled);
    rewritten.push(page);
  }
}
console.log(
  rewritten.length === 0 ? 'the docs lists were up to date' : `rewrote the lists in ${rewritten.join(', ')}`,
);
