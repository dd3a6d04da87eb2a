// Regenerates the artifacts derived from the zod schema: schema/config.schema.json, and the fast
// validator compiled from it with Ajv's standalone code generation. Run `npm run generate` after
// changing src/config/schema.ts; tests fail while either file is stale.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateConfigJsonSchemaText } from '../dist/config/generate-json-schema.js';
import { fastValidatorSource, schemaModuleSource } from './fast-validator.mjs';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const schemaText = generateConfigJsonSchemaText();
fs.writeFileSync(path.join(repo, 'schema/config.schema.json'), schemaText);
fs.writeFileSync(
  path.join(repo, 'src/config/validate-config.generated.ts'),
  fastValidatorSource(JSON.parse(schemaText)),
);
fs.writeFileSync(path.join(repo, 'src/config/config-schema.generated.ts'), schemaModuleSource(schemaText));
console.log(
  'wrote schema/config.schema.json, src/config/config-schema.generated.ts and src/config/validate-config.generated.ts',
);
