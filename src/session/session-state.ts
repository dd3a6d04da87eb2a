import { CtxfilesError } from '../errors.js';
import type { DisclosureState } from './disclosure-state.js';
import validate from './validate-session-state.generated.js';

/**
 * Checks a saved session state (as returned by `session.state()`). A valid state is answered by the
 * validator generated from the schema at build time, without zod (every hook call and MCP session
 * opens one: docs/performance.md, "Agent paths"); zod loads only to name what is wrong.
 * @throws CtxfilesError `session-state-invalid` naming the first wrong key.
 */
export async function parseSessionState(value: unknown): Promise<DisclosureState> {
  if ((validate as (value: unknown) => boolean)(value)) {
    const state = value as Omit<DisclosureState, 'tracked'> & { tracked?: DisclosureState['tracked'] };
    const { version, injected, skipped, bytes, exhausted, tracked } = state;
    return {
      version,
      injected: [...injected],
      skipped: [...skipped],
      bytes,
      exhausted,
      tracked: [...(tracked ?? [])],
    };
  }
  const { sessionStateSchema } = await import('./session-state-schema.js');
  const parsed = sessionStateSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const where = issue === undefined || issue.path.length === 0 ? '' : `${issue.path.map(String).join('.')}: `;
  throw new CtxfilesError('session-state-invalid', `session state: ${where}${issue?.message ?? 'invalid'}`);
}
