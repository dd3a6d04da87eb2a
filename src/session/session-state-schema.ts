import { z } from 'zod';

/**
 * The schema of a saved session state (`session.state()`): the source of truth. Its JSON Schema
 * gives the validator generated at build time (`npm run generate`,
 * src/session/validate-session-state.generated.ts), which answers a valid state without loading
 * zod; zod runs only to say what is wrong with an invalid one.
 */
export const sessionStateSchema = z.strictObject({
  version: z.literal(1),
  injected: z.array(
    z.strictObject({
      path: z.string().min(1),
      sha256: z.string().regex(/^[0-9a-f]{64}$/),
      bytes: z.number().int().min(0),
    }),
  ),
  skipped: z.array(z.string().min(1)),
  bytes: z.number().int().min(0),
  exhausted: z.boolean(),
  tracked: z
    .array(
      z.strictObject({
        path: z.string().min(1),
        sha256: z.string().regex(/^[0-9a-f]{64}$/),
        size: z.number().int().min(0),
        mtimeMs: z.number().min(0),
        scope: z.string().min(1).nullable(),
        removed: z.boolean(),
      }),
    )
    .default([]),
});

/** The JSON Schema of a session state (input side: `tracked` may be left out). */
export function sessionStateJsonSchema(): Record<string, unknown> {
  return z.toJSONSchema(sessionStateSchema, { target: 'draft-2020-12', io: 'input' }) as Record<
    string,
    unknown
  >;
}
