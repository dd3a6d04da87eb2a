import { z } from 'zod';
import { DEFAULT_CONFIG } from './defaults.js';
import { configSchema } from './schema.js';
import { HOST_PRESET_NAMES } from './host-names.generated.js';
import { FORMATS } from './types.js';
import { isPlainObject } from '../shared/is-plain-object.js';

/** Where the published schema lives; editors fetch it by this id. */
export const CONFIG_SCHEMA_ID =
  'https://raw.githubusercontent.com/ctxfiles/ctxfiles/main/schema/config.schema.json';

/**
 * The JSON Schema of the config, generated from the zod schema (`npm run generate` writes it to
 * `schema/config.schema.json` and `src/config/config-schema.generated.ts`). Every property carries
 * a default taken from `DEFAULT_CONFIG`; the top level is closed (`additionalProperties: false`) so
 * that editors flag a misspelt key, while the CLI only warns with a "did you mean" hint: a config the
 * fast validator generated from this schema refuses (an unknown key included) takes the slow path,
 * which warns (src/config/read-config.ts, `isQuickValid`).
 */
export function generateConfigJsonSchema(): Record<string, unknown> {
  const generated = z.toJSONSchema(configSchema, { target: 'draft-2020-12', io: 'input' }) as Record<
    string,
    unknown
  >;
  const properties = generated['properties'] as Record<string, Record<string, unknown>>;
  // The names `preset` and `format` take: the config checks them against the host registry it is
  // handed; the published schema lists those of the hosts ctxfiles ships, for editors.
  if (properties['preset'] !== undefined) properties['preset']['enum'] = [...HOST_PRESET_NAMES];
  if (properties['format'] !== undefined) properties['format']['enum'] = [...FORMATS];
  for (const [key, value] of Object.entries(DEFAULT_CONFIG)) {
    const property = properties[key];
    if (property === undefined) continue;
    if (isPlainObject(value)) {
      const children = property['properties'] as Record<string, Record<string, unknown>>;
      for (const [child, childValue] of Object.entries(value)) {
        const target = children[child];
        if (target !== undefined) target['default'] = structuredClone(childValue);
      }
      property['default'] = {};
    } else property['default'] = structuredClone(value);
  }
  // Maps that are empty unless the user fills them: none mapped.
  for (const key of ['agents', 'subagents', 'modes'])
    if (properties[key] !== undefined) properties[key]['default'] = {};
  return {
    $schema: generated['$schema'],
    $id: CONFIG_SCHEMA_ID,
    title: 'ctxfiles configuration',
    ...Object.fromEntries(Object.entries(generated).filter(([key]) => key !== '$schema')),
    additionalProperties: false,
  };
}

/** The schema as the exact text committed in `schema/config.schema.json`. */
export function generateConfigJsonSchemaText(): string {
  return `${JSON.stringify(generateConfigJsonSchema(), null, 2)}\n`;
}
