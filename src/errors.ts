// The diagnostic types live with their codes (diagnostics.ts imports nothing); the API names them here.
export type { Diagnostic, DiagnosticLevel } from './diagnostics.js';

/**
 * The two channels of failure (see docs/embedding.md, "Errors and diagnostics"): invalid user input throws a
 * {@link CtxfilesError}; faults in individual context files become {@link Diagnostic}s and never fail a
 * resolution.
 */

/** Every code a {@link CtxfilesError} can carry. */
export type CtxfilesErrorCode =
  | 'config-not-found'
  | 'config-syntax'
  | 'config-invalid'
  | 'flow-syntax'
  | 'flow-invalid'
  | 'flow-cycle'
  | 'flow-duplicate'
  | 'flow-unknown-template'
  | 'unknown-agent'
  | 'unknown-flow'
  | 'unknown-step'
  | 'workdir-invalid'
  | 'session-state-invalid'
  | 'prompt-fragment-invalid'
  | 'prompt-invalid'
  | 'output-failed'
  | 'usage';

/** Where in a user's file a problem sits. Lines and columns are 1-based. */
export interface ProblemLocation {
  readonly file?: string;
  readonly line?: number;
  readonly column?: number;
  readonly keyPath?: string;
}

/** One problem found in user input, already formatted as a message line. */
export interface Problem extends ProblemLocation {
  readonly message: string;
}

/**
 * Invalid user input: config, flows, CLI arguments, an unknown agent, flow or step.
 * `message` holds one line per problem, each shaped `<file>:<line>:<col>: <key.path>: <problem>`.
 */
export class CtxfilesError extends Error {
  override readonly name = 'CtxfilesError';
  readonly code: CtxfilesErrorCode;
  readonly problems: readonly Problem[];
  readonly file: string | undefined;
  readonly line: number | undefined;
  readonly column: number | undefined;
  readonly keyPath: string | undefined;

  constructor(
    code: CtxfilesErrorCode,
    problems: readonly Problem[] | string,
    options: { cause?: unknown } = {},
  ) {
    const list: readonly Problem[] = typeof problems === 'string' ? [{ message: problems }] : problems;
    super(
      list.map((problem) => problem.message).join('\n'),
      options.cause === undefined ? undefined : { cause: options.cause },
    );
    this.code = code;
    this.problems = list;
    const first = list[0];
    this.file = first?.file;
    this.line = first?.line;
    this.column = first?.column;
    this.keyPath = first?.keyPath;
  }
}

/**
 * Formats a problem line: `<file>:<line>:<col>: <key.path>: <problem>`; parts that are unknown
 * are left out.
 */
export function formatProblem(location: ProblemLocation, problem: string): Problem {
  let prefix = '';
  if (location.file !== undefined) {
    prefix = location.file;
    if (location.line !== undefined) prefix += `:${location.line}:${location.column ?? 1}`;
    prefix += ': ';
  }
  if (location.keyPath !== undefined && location.keyPath !== '') prefix += `${location.keyPath}: `;
  return { ...location, message: prefix + problem };
}

/** `agents.coder.context.paths[0]`. */
export function formatKeyPath(keyPath: readonly PropertyKey[]): string {
  let text = '';
  for (const key of keyPath) {
    if (typeof key === 'number') text += `[${key}]`;
    else text += text === '' ? String(key) : `.${String(key)}`;
  }
  return text;
}

/** The closest candidate to `word` within a small edit distance, for "did you mean" hints. */
export function suggest(word: string, candidates: Iterable<string>): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  const lower = word.toLowerCase();
  for (const candidate of candidates) {
    const distance = candidate.toLowerCase() === lower ? 0 : editDistance(lower, candidate.toLowerCase());
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  const limit = Math.max(2, Math.floor(word.length / 3));
  return bestDistance <= limit ? best : undefined;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost);
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

/**
 * Why a text is not JSON, without any of its bytes: `JSON.parse` quotes the text it failed on, and
 * that text may be a secret or terminal escapes. `not valid JSON at position 12`, or `not valid
 * JSON` when the engine names no position.
 */
export function describeJsonError(error: unknown, text?: string): string {
  const message = error instanceof Error ? error.message : '';
  const position = /\bat position (\d+)/.exec(message)?.[1];
  if (position !== undefined) return `not valid JSON at position ${position}`;
  if (/end of (?:JSON )?input/i.test(message) && text !== undefined)
    return `not valid JSON at position ${text.length} (it ends too early)`;
  return 'not valid JSON';
}
