import schema from './config-schema.generated.js';

/**
 * The JSON Schema of the config (the text of `schema/config.schema.json`). A fresh copy on every
 * call. It is generated from the zod schema by `npm run generate`, so the library entry does not
 * load zod to answer this.
 */
export function configJsonSchema(): Record<string, unknown> {
  return structuredClone(schema) as Record<string, unknown>;
}

/** The schema as the exact text committed in `schema/config.schema.json`. */
export function configJsonSchemaText(): string {
  return `${JSON.stringify(schema, null, 2)}\n`;
}
