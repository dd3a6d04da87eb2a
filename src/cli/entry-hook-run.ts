/**
 * The entry of the `hook-run` bundle (`dist/bin/hook-run.cjs`): the whole hook, loaded by the hook
 * bundle (src/cli/entry-hook.ts) for an event its quick check cannot answer.
 */
export { runHook } from '../hooks/run-hook.js';
