// Writes the sources generated from other sources, before tsc compiles them (npm run build runs it
// first; so do `npm run typecheck` and the test setup when one is missing). They are built, not
// committed (.gitignore):
// - src/config/host-names.generated.ts: the preset and format names of the host registry, which
//   the config vocabulary (src/config/types.ts, schema) takes;
// - src/config/config-schema.generated.ts: the published JSON Schema as a module (read without zod);
// - src/config/validate-config.generated.ts and src/session/validate-session-state.generated.ts:
//   validators compiled from the JSON Schemas with Ajv's standalone code, so that start-up loads
//   neither Ajv nor zod.
// The sources are read with esbuild (a bundle of the modules needed, in memory), so no earlier
// build is needed. A file is written only when its text changes. schema/config.schema.json and
// the docs' lists are committed: `npm run generate` (scripts/generate.mjs) rewrites them.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import esbuild from 'esbuild';
import { hostIndexModule, hostNamesModule } from './doc-lists.mjs';
import { fastValidatorSource, schemaModuleSource, SESSION_STATE_ABOUT } from './fast-validator.mjs';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const scratch = path.join(repo, 'node_modules', '.cache', 'ctxfiles-generate');

/** Loads TypeScript sources of the repository through an esbuild bundle (packages stay external). */
async function load(name, contents) {
  const result = await esbuild.build({
    stdin: { contents, resolveDir: repo, loader: 'ts', sourcefile: `${name}.ts` },
    bundle: true,
    write: false,
    platform: 'node',
    format: 'esm',
    packages: 'external',
    logLevel: 'silent',
  });
  fs.mkdirSync(scratch, { recursive: true });
  const file = path.join(scratch, `${name}-${process.pid}.mjs`);
  fs.writeFileSync(file, result.outputFiles[0].contents);
  try {
    return await import(pathToFileURL(file).href);
  } finally {
    fs.rmSync(file, { force: true });
  }
}

/** Writes a generated file when its text differs; says which. */
function write(relative, text, written) {
  const file = path.join(repo, relative);
  const before = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : null;
  if (before === text) return;
  fs.writeFileSync(file, text);
  written.push(relative);
}

/** Generates every built source; returns the ones written. */
export async function generateSources() {
  const written = [];
  // The names first: the config vocabulary the schema is built from imports them.
  const { HOSTS, hostIndexOf } = await load(
    'hosts',
    [
      "export { HOSTS } from './src/hosts/index.ts';",
      "export { hostIndexOf } from './src/registry/lazy-registry.ts';",
    ].join('\n'),
  );
  write('src/config/host-names.generated.ts', hostNamesModule(HOSTS), written);
  write('src/registry/host-index.generated.ts', hostIndexModule(hostIndexOf(HOSTS)), written);
  const { generateConfigJsonSchemaText, sessionStateJsonSchema } = await load(
    'schemas',
    [
      "export { generateConfigJsonSchemaText } from './src/config/generate-json-schema.ts';",
      "export { sessionStateJsonSchema } from './src/session/session-state-schema.ts';",
    ].join('\n'),
  );
  const schemaText = generateConfigJsonSchemaText();
  write('src/config/config-schema.generated.ts', schemaModuleSource(schemaText), written);
  write('src/config/validate-config.generated.ts', fastValidatorSource(JSON.parse(schemaText)), written);
  write(
    'src/session/validate-session-state.generated.ts',
    fastValidatorSource(sessionStateJsonSchema(), SESSION_STATE_ABOUT),
    written,
  );
  return written;
}

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const written = await generateSources();
  if (written.length > 0) console.log(`generated ${written.join(', ')}`);
}
