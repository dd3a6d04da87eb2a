import { z } from 'zod';
import { CtxfilesError } from '../errors.js';
import type { DisclosureState } from './disclosure.js';

const stateSchema = z.strictObject({
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

/**
 * Checks a saved session state (as returned by `session.state()`).
 * @throws CtxfilesError `session-state-invalid` naming the first wrong key.
 */
export function parseSessionState(value: unknown): DisclosureState {
  const parsed = stateSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const where = issue === undefined || issue.path.length === 0 ? '' : `${issue.path.map(String).join('.')}: `;
  throw new CtxfilesError('session-state-invalid', `session state: ${where}${issue?.message ?? 'invalid'}`);
}
