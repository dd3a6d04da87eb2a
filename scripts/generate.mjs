// Regenerates the artifacts derived from the zod schema: schema/config.schema.json, and the fast
// validator compiled from it with Ajv's standalone code generation. Run `npm run generate` after
// changing src/config/schema.ts; tests fail while either file is stale.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateConfigJsonSchemaText } from '../dist/config/generate-json-schema.js';
import { sessionStateJsonSchema } from '../dist/session/session-state-schema.js';
import { fastValidatorSource, schemaModuleSource, SESSION_STATE_ABOUT } from './fast-validator.mjs';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
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
