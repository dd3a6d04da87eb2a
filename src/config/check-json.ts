import { CtxfilesError, formatProblem, type CtxfilesErrorCode } from '../errors.js';

/** Deepest nesting of arrays and objects a config or flow file may have. */
export const MAX_NESTING = 64;

/** Where JSON text breaks a rule, and which. */
export interface JsonFault {
  /** Index into the text (UTF-16 code units) of the offending character. */
  readonly index: number;
  readonly message: string;
}

/**
 * Checks JSON text in one linear pass without building a value, the way `JSON.parse` reads it, and
 * finds what `JSON.parse` would accept but a config must not have: nesting deeper than
 * {@link MAX_NESTING} (the parsers and validators behind it recurse, and 5,000 nested arrays
 * overflow the stack) and a key repeated in one object (where the last would silently win).
 * Also reports plain syntax errors (a trailing comma, a truncated file) at their place, worded for
 * JSON. Iterative: no input makes it recurse. `null` when the text is fine.
 */
export function checkJson(text: string, options: JsonCheckOptions = {}): JsonFault | null {
  return new JsonChecker(text, options.duplicatesUnder).run();
}

/** Options of {@link checkJson}. */
export interface JsonCheckOptions {
  /**
   * Look for repeated keys only below this top-level key (`ctxfiles` of a `package.json`, whose
   * other keys belong to npm). Default: everywhere.
   */
  readonly duplicatesUnder?: string;
}

/**
 * Throws when {@link checkJson} finds a fault: `<file>:<line>:<col>: not valid JSON: <problem>`.
 * @throws CtxfilesError with `code`.
 */
export function assertJson(
  text: string,
  file: string,
  code: CtxfilesErrorCode,
  options: JsonCheckOptions = {},
): void {
  const fault = checkJson(text, options);
  if (fault === null) return;
  let line = 1;
  let lineStart = 0;
  for (
    let index = text.indexOf('\n');
    index !== -1 && index < fault.index;
    index = text.indexOf('\n', index + 1)
  ) {
    line += 1;
    lineStart = index + 1;
  }
  const column = fault.index - lineStart + 1;
  throw new CtxfilesError(code, [formatProblem({ file, line, column }, `not valid JSON: ${fault.message}`)]);
}

/** An open array or object; `check` says whether its keys (and those below) must be unique. */
type Frame =
  | { readonly kind: 'array'; readonly check: boolean }
  | { readonly kind: 'object'; readonly check: boolean; readonly keys: Set<string> };

class JsonChecker {
  #index = 0;
  readonly #stack: Frame[] = [];

  constructor(
    readonly text: string,
    readonly duplicatesUnder: string | undefined,
  ) {}

  run(): JsonFault | null {
    try {
      this.#value(this.duplicatesUnder === undefined);
      for (;;) {
        this.#space();
        const frame = this.#stack[this.#stack.length - 1];
        if (frame === undefined) break;
        this.#closeOrNext(frame);
      }
      this.#space();
      if (this.#index < this.text.length) this.#fail('unexpected text after the end of the JSON value');
      return null;
    } catch (error) {
      if (error instanceof Fault)
        return { index: Math.min(error.index, this.text.length), message: error.message };
      throw error;
    }
  }

  /** After a value inside `frame`: `,` then the next member, or the closing bracket. */
  #closeOrNext(frame: Frame): void {
    const char = this.text[this.#index];
    const close = frame.kind === 'array' ? ']' : '}';
    if (char === close) {
      this.#index += 1;
      this.#stack.pop();
      return;
    }
    if (char !== ',')
      this.#fail(char === undefined ? 'the file ends too early' : `expected "," or "${close}"`);
    this.#index += 1;
    this.#space();
    if (this.text[this.#index] === close) this.#fail(`a trailing comma before "${close}" is not JSON`);
    if (frame.kind === 'object') this.#member(frame);
    else this.#value(frame.check);
  }

  /** One value; an opened array or object is pushed and its first member read. */
  #value(check: boolean): void {
    this.#space();
    const char = this.text[this.#index];
    if (char === '[' || char === '{') {
      if (this.#stack.length >= MAX_NESTING)
        this.#fail(`arrays and objects nest deeper than ${MAX_NESTING} levels`);
      this.#index += 1;
      this.#space();
      const close = char === '[' ? ']' : '}';
      const frame: Frame =
        char === '[' ? { kind: 'array', check } : { kind: 'object', check, keys: new Set() };
      this.#stack.push(frame);
      if (this.text[this.#index] === close) {
        this.#index += 1;
        this.#stack.pop();
      } else if (frame.kind === 'object') this.#member(frame);
      else this.#value(check);
      return;
    }
    if (char === '"') return void this.#string();
    const literal = /^(?:true|false|null|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?)/y;
    literal.lastIndex = 0;
    const match = literal.exec(this.text.slice(this.#index, this.#index + 400));
    if (match === null || match[0] === '')
      this.#fail(char === undefined ? 'the file ends too early' : 'expected a JSON value');
    this.#index += match[0].length;
  }

  /** `"key": value` inside an object; a key seen before in the same object is refused. */
  #member(frame: Frame & { readonly kind: 'object' }): void {
    this.#space();
    if (this.text[this.#index] !== '"')
      this.#fail(
        this.#index >= this.text.length ? 'the file ends too early' : 'expected a double-quoted key',
      );
    const start = this.#index;
    const key = this.#string();
    if (frame.check && frame.keys.has(key))
      this.#fail(`the key ${JSON.stringify(key)} appears twice in one object`, start);
    if (frame.check) frame.keys.add(key);
    this.#space();
    if (this.text[this.#index] !== ':') this.#fail('expected ":" after the key');
    this.#index += 1;
    this.#value(frame.check || (this.#stack.length === 1 && key === this.duplicatesUnder));
  }

  /** A string token; returns its decoded value (for keys). */
  #string(): string {
    const start = this.#index;
    this.#index += 1;
    for (;;) {
      const code = this.text.charCodeAt(this.#index);
      if (Number.isNaN(code)) this.#fail('the file ends inside a string', start);
      if (code === 0x22) break;
      if (code < 0x20) this.#fail('a control character inside a string is not JSON');
      this.#index += code === 0x5c ? 2 : 1;
    }
    this.#index += 1;
    try {
      return JSON.parse(this.text.slice(start, this.#index)) as string;
    } catch {
      return this.#fail('an invalid escape in a string', start);
    }
  }

  #space(): void {
    for (;;) {
      const char = this.text[this.#index];
      if (char !== ' ' && char !== '\t' && char !== '\n' && char !== '\r') return;
      this.#index += 1;
    }
  }

  #fail(message: string, index = this.#index): never {
    throw new Fault(index, message);
  }
}

class Fault {
  constructor(
    readonly index: number,
    readonly message: string,
  ) {}
}
