import { z } from 'zod';
import { configSchema } from './schema.js';

/** The JSON Schema of the config, generated from the zod schema. */
export function configJsonSchema(): Record<string, unknown> {
  const generated = z.toJSONSchema(configSchema, { target: 'draft-2020-12', io: 'input' }) as Record<
    string,
    unknown
  >;
  return {
    $schema: generated['$schema'],
    title: 'ctxfiles configuration',
    ...Object.fromEntries(Object.entries(generated).filter(([key]) => key !== '$schema')),
  };
}

/** The schema as the exact text committed in `schema/config.schema.json`. */
export function configJsonSchemaText(): string {
  return `${JSON.stringify(configJsonSchema(), null, 2)}\n`;
}
