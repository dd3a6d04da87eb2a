import { readFileSync, statSync } from 'node:fs';
import { createInterface } from 'node:readline';
import type { Resolver } from '../api/create-resolver.js';
import type { ResolveRequest } from '../api/select-request.js';
import { CtxfilesError, describeJsonError } from '../errors.js';
import { writeDiagnostics, type CliIo } from './io.js';

/** Options of {@link runSession}. */
export interface RunSessionOptions {
  readonly resolver: Resolver;
  readonly request: ResolveRequest;
  /** A JSON file holding a saved state to resume from. */
  readonly statePath: string | undefined;
  readonly io: CliIo;
}

/**
 * The JSON Lines protocol of `ctxfiles session`: one output line per input line, in order, each
 * written as soon as it is ready.
 *
 * - `{"tool": "read", "input": {"file_path": "…"}, "ok": true}` → `{"inject": "…"}` (empty string
 *   when nothing is due), plus `"diagnostics": […]` when the call produced any;
 * - `{"op": "state"}` → `{"state": {…}}`, the state to resume from with `--state FILE`;
 * - anything else → `{"error": "…"}`, and the session goes on.
 */
/** A `--state` file larger than this is refused before it is read. */
const MAX_STATE_BYTES = 16_777_216;

export async function runSession(options: RunSessionOptions): Promise<number> {
  const { io } = options;
  let state: unknown;
  if (options.statePath !== undefined) {
    try {
      // A state is input like any other file: sized before it is read (docs/security.md, "Caps").
      const size = statSync(options.statePath).size;
      if (size > MAX_STATE_BYTES)
        throw new Error(`it is ${size} bytes; at most ${MAX_STATE_BYTES} are accepted`);
      const text = readFileSync(options.statePath, 'utf8');
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch (error) {
        // Never the engine's message: it quotes the file's bytes.
        throw new Error(`it is ${describeJsonError(error, text)}`);
      }
      state = unwrapState(parsed);
    } catch (error) {
      throw new CtxfilesError(
        'session-state-invalid',
        `${options.statePath}: cannot read the session state (${(error as Error).message})`,
      );
    }
  }
  // The diagnostics of what the session resolved, on stderr as `resolve` prints them (stdout is the protocol).
  writeDiagnostics((await options.resolver.resolve(options.request)).diagnostics, io);
  const session = await options.resolver.openSession({ ...options.request, state });
  if (io.stdin === undefined) return 0;
  const lines = createInterface({ input: io.stdin, crlfDelay: Infinity });
  const out = batchedWriter(io.stdout);
  try {
    for await (const line of lines) out.write(`${JSON.stringify(await answer(line, session))}\n`);
  } finally {
    out.flush();
  }
  return 0;
}

/**
 * Answers written once per turn of the event loop: the lines of one input chunk are answered in
 * microtasks, so their answers leave in one write as soon as the chunk is done (before any wait
 * for more input), instead of one system call per line (docs/performance.md).
 */
function batchedWriter(stdout: CliIo['stdout']): { write(text: string): void; flush(): void } {
  let pending = '';
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    if (pending === '') return;
    const text = pending;
    pending = '';
    stdout.write(text);
  };
  return {
    write(text) {
      pending += text;
      if (!scheduled) {
        scheduled = true;
        setImmediate(flush);
      }
    },
    flush,
  };
}

async function answer(
  line: string,
  session: Awaited<ReturnType<Resolver['openSession']>>,
): Promise<Record<string, unknown>> {
  let message: unknown;
  try {
    message = JSON.parse(line);
  } catch (error) {
    return { error: describeJsonError(error, line) };
  }
  if (typeof message !== 'object' || message === null || Array.isArray(message))
    return { error: 'expected a JSON object' };
  const record = message as Record<string, unknown>;
  if (record['op'] === 'state') return { state: session.state() };
  if (typeof record['tool'] !== 'string') return { error: 'expected "tool" (a string) or "op": "state"' };
  const input = record['input'];
  if (input !== undefined && input !== null && (typeof input !== 'object' || Array.isArray(input)))
    return { error: '"input" must be an object' };
  if (record['ok'] !== undefined && typeof record['ok'] !== 'boolean')
    return { error: '"ok" must be a boolean' };
  // The diagnostics of this call come with it: session.diagnostics keeps only the latest.
  const { text: inject, diagnostics } = await session.report({
    tool: record['tool'],
    input: (input ?? {}) as Record<string, unknown>,
    ok: record['ok'] as boolean | undefined,
  });
  return diagnostics.length > 0 ? { inject, diagnostics } : { inject };
}

/**
 * What `--state` reads: the state itself, or the whole `{"state": …}` line that `{"op": "state"}`
 * answered, so that saving that line and passing it back works.
 */
function unwrapState(value: unknown): unknown {
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const keys = Object.keys(value);
    if (keys.length === 1 && keys[0] === 'state') return (value as { state: unknown }).state;
  }
  return value;
}
