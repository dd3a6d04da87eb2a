import fc from 'fast-check';
import fs from 'node:fs';
import { describe, expect, test } from 'vitest';
import { parseSessionState } from '../src/session/session-state.js';
import { sessionStateJsonSchema, sessionStateSchema } from '../src/session/session-state-schema.js';
import fastValidate from '../src/session/validate-session-state.generated.js';
// @ts-expect-error: a plain ES module without types
import { fastValidatorSource, SESSION_STATE_ABOUT } from '../scripts/fast-validator.mjs';

/**
 * The session state is checked without zod on the agent paths (hooks, MCP: docs/performance.md,
 * "Agent paths"): by a validator generated from the zod schema at build time. Both must accept
 * exactly the same states.
 */
describe('the session state validator generated from the zod schema', () => {
  test('is up to date with src/session/session-state-schema.ts', () => {
    expect(fs.readFileSync('src/session/validate-session-state.generated.ts', 'utf8')).toBe(
      (fastValidatorSource as (schema: unknown, about: unknown) => string)(
        sessionStateJsonSchema(),
        SESSION_STATE_ABOUT,
      ),
    );
  });

  const digest = 'a'.repeat(64);
  const record = fc.record(
    {
      path: fc.constantFrom('', 'a/AGENTS.md', 3 as unknown as string),
      sha256: fc.constantFrom(digest, 'A'.repeat(64), 'abc', `${digest}\n`),
      bytes: fc.constantFrom(0, 12, -1, 1.5, Number.MAX_SAFE_INTEGER + 2, Infinity, '1' as unknown as number),
    },
    { requiredKeys: [] },
  );
  const tracked = fc.record(
    {
      path: fc.constantFrom('AGENTS.md', ''),
      sha256: fc.constantFrom(digest, 'x'),
      size: fc.constantFrom(0, 5, -2, 0.5),
      mtimeMs: fc.constantFrom(0, 1.5, -1, NaN, Infinity),
      scope: fc.constantFrom(null, 'pkg', ''),
      removed: fc.constantFrom(true, false, 0 as unknown as boolean),
    },
    { requiredKeys: [] },
  );
  const state = fc.record(
    {
      version: fc.constantFrom(1, 2, '1' as unknown as number),
      injected: fc.oneof(fc.array(record, { maxLength: 2 }), fc.constant(null)),
      skipped: fc.array(fc.constantFrom('a', '', 1 as unknown as string), { maxLength: 2 }),
      bytes: fc.constantFrom(0, 10, -1, 2.5),
      exhausted: fc.constantFrom(true, false, 'no' as unknown as boolean),
      tracked: fc.array(tracked, { maxLength: 2 }),
      extra: fc.constant(1),
    },
    { requiredKeys: ['version', 'injected', 'skipped', 'bytes', 'exhausted'] },
  );

  test('property: it accepts exactly what zod accepts, and both parse to the same state', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(state, fc.constantFrom<unknown>(null, [], 'state', 1)), async (value) => {
        const zod = sessionStateSchema.safeParse(value);
        expect((fastValidate as (value: unknown) => boolean)(value)).toBe(zod.success);
        if (zod.success) expect(await parseSessionState(value)).toEqual(zod.data);
        else await expect(parseSessionState(value)).rejects.toMatchObject({ code: 'session-state-invalid' });
      }),
      { numRuns: 500 },
    );
  });

  test('an invalid state is still explained by zod, naming the key', async () => {
    await expect(
      parseSessionState({
        version: 1,
        injected: [{ path: 'a', sha256: 'x', bytes: 1 }],
        skipped: [],
        bytes: 0,
        exhausted: false,
      }),
    ).rejects.toThrow(/session state: injected\.0\.sha256: /);
  });
});
