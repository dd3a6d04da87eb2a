// Regenerates the artifacts derived from the zod schema: schema/config.schema.json, and the fast
// validator compiled from it with Ajv's standalone code generation; then the lists of hosts,
// formats, presets and commands in the docs (scripts/doc-lists.mjs). Run `npm run generate` after
// changing src/config/schema.ts, a host, a format or a command; tests fail while a file is stale.
// The names of the hosts' presets and formats (src/config/host-names.generated.ts) come first: the
// schema lists them.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execSync } from 'node:child_process';
import { commandsFromHelp, docLists, docPages, fillRegions, hostNamesModule } from './doc-lists.mjs';
import { fastValidatorSource, schemaModuleSource, SESSION_STATE_ABOUT } from './fast-validator.mjs';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

// The preset and format names of the registry's hosts come first: the schema lists them, so when
// they change (a new host), dist/ is built again before the schema is generated from it.
const { HOSTS } = await import('../dist/hosts/index.js');
const namesFile = path.join(repo, 'src/config/host-names.generated.ts');
const names = hostNamesModule(HOSTS);
if (fs.readFileSync(namesFile, 'utf8') !== names) {
  fs.writeFileSync(namesFile, names);
  console.log('wrote src/config/host-names.generated.ts; building again');
  execSync('npm run build', { cwd: repo, stdio: 'inherit' });
}
const { generateConfigJsonSchemaText } = await import('../dist/config/generate-json-schema.js');
const { sessionStateJsonSchema } = await import('../dist/session/session-state-schema.js');
const schemaText = generateConfigJsonSchemaText();
fs.writeFileSync(path.join(repo, 'schema/config.schema.json'), schemaText);
fs.writeFileSync(
  path.join(repo, 'src/config/validate-config.generated.ts'),
  fastValidatorSource(JSON.parse(schemaText)),
);
fs.writeFileSync(path.join(repo, 'src/config/config-schema.generated.ts'), schemaModuleSource(schemaText));
fs.writeFileSync(
  path.join(repo, 'src/session/validate-session-state.generated.ts'),
  fastValidatorSource(sessionStateJsonSchema(), SESSION_STATE_ABOUT),
);
console.log(
  'wrote schema/config.schema.json, src/config/config-schema.generated.ts, src/config/validate-config.generated.ts and src/session/validate-session-state.generated.ts',
);

// The lists the docs repeat (hosts, formats, presets, commands, diagnostic codes): scripts/doc-lists.mjs.
const { FORMATS } = await import('../dist/config/types.js');
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
