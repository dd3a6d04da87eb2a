/**
 * A glob matcher whose time is bounded by the pattern's size times the path's length, whatever
 * the input: globs read from repository files (rule frontmatter, a project config's flows) go
 * through it, never through a backtracking regular expression (docs/security.md, "Bounds"). A glob
 * is compiled into a nondeterministic automaton (Thompson's construction) and run over the path
 * one character at a time, carrying the set of states it can be in; each state is visited at most
 * once per character. It reads the syntax picomatch reads with `dot: true`: `*`, `?`, `**` as a
 * whole segment, classes (`[a-z]`, `[!x]`, `[^x]`, `[[:alpha:]]`), braces (`{a,b}`, `{1..3}`,
 * `{a..c}`), escapes and the extglobs `@(…)`, `?(…)`, `*(…)`, `+(…)`. A negated extglob `!(…)`, a
 * pattern longer than {@link MAX_GLOB_LENGTH} or one that compiles to more than
 * {@link MAX_GLOB_STATES} states is refused.
 */

/** Longest glob accepted, in characters. */
export const MAX_GLOB_LENGTH = 1024;
/** Most automaton states one glob may compile to (a brace range counts each of its values). */
export const MAX_GLOB_STATES = 20_000;

/** How a compiled glob matches. */
export interface GlobMatchOptions {
  /** Case-insensitive. Default false. */
  readonly nocase?: boolean;
  /**
   * Most automaton states the glob may compile to; past it the glob is refused while it is read,
   * before the rest is built. Default and most: {@link MAX_GLOB_STATES}.
   */
  readonly maxStates?: number;
}

/** A compiled glob. */
export interface GlobMatcher {
  /** States of the automaton: one match visits at most `(length + 1) x (3 x size + 2)` states. */
  readonly size: number;
  /**
   * Tests a POSIX path. `work`, when given, is increased by the number of state visits, so a test
   * can bound the work without timing it.
   */
  test(subject: string, work?: { count: number }): boolean;
}

/** The outcome of {@link compileGlobMatcher}. */
export type CompiledGlobMatcher =
  | { readonly ok: true; readonly matcher: GlobMatcher }
  /** `overStates` when the glob was refused for the states it needs (its `maxStates`). */
  | { readonly ok: false; readonly problem: string; readonly overStates?: true };

/** Compiles `pattern` (no leading `!`: negation is the caller's). Never throws. */
export function compileGlobMatcher(pattern: string, options: GlobMatchOptions = {}): CompiledGlobMatcher {
  if (pattern.length > MAX_GLOB_LENGTH)
    return { ok: false, problem: `the glob is longer than ${MAX_GLOB_LENGTH} characters` };
  const nocase = options.nocase === true;
  // A leading `./` names the same paths as the pattern without it (as picomatch reads it).
  let body = pattern;
  while (body.startsWith('./')) body = body.slice(2);
  try {
    const maxStates = Math.max(0, Math.min(options.maxStates ?? MAX_GLOB_STATES, MAX_GLOB_STATES));
    const node = new GlobParser(nocase ? body.toLowerCase() : body, nocase, maxStates).parse();
    const automaton = new Builder();
    const start = automaton.build(node, MATCH);
    return { ok: true, matcher: new Automaton(automaton.states, start, nocase) };
  } catch (error) {
    if (error instanceof GlobRefusal)
      return error.overStates
        ? { ok: false, problem: error.message, overStates: true }
        : { ok: false, problem: error.message };
    throw error;
  }
}

// ---- the syntax tree -------------------------------------------------------------------------

type CharTest = (code: number) => boolean;
type Node =
  | { readonly type: 'char'; readonly test: CharTest }
  | { readonly type: 'seq'; readonly items: readonly Node[] }
  | { readonly type: 'alt'; readonly options: readonly Node[] }
  | { readonly type: 'repeat'; readonly item: Node; readonly min: 0 | 1; readonly many: boolean };

const SLASH = 0x2f;
const notSlash: CharTest = (code) => code !== SLASH;
const anyChar: CharTest = () => true;
const seq = (items: readonly Node[]): Node =>
  items.length === 1 ? (items[0] as Node) : { type: 'seq', items };
const star = (test: CharTest): Node => ({ type: 'repeat', item: { type: 'char', test }, min: 0, many: true });
const optional = (item: Node): Node => ({ type: 'repeat', item, min: 0, many: false });
const literal = (text: string): Node =>
  seq(Array.from({ length: text.length }, (_, index) => exact(text.charCodeAt(index))));
function exact(code: number): Node {
  return { type: 'char', test: (other) => other === code };
}
/** The one node of a literal `/` between segments, so `/**` at the end can find the slash before it. */
const SLASH_NODE: Node = exact(SLASH);

class GlobRefusal {
  constructor(
    readonly message: string,
    readonly overStates = false,
  ) {}
}

/** The characters that end the text of an alternative in braces or an extglob. */
type Stop = ',' | '|' | null;

// Long because a recursive-descent parser reads best as one class: each syntax form is a method.
class GlobParser {
  #index = 0;
  #budget: number;

  constructor(
    readonly pattern: string,
    readonly nocase: boolean,
    readonly maxStates: number,
  ) {
    this.#budget = maxStates;
  }

  parse(): Node {
    const node = this.#sequence(null, null);
    if (this.#index < this.pattern.length) this.#refuse('an unbalanced ")" or "}"');
    return node;
  }

  /** Items up to the end, or to `stop` / the closing `close` of the group being read. */
  #sequence(stop: Stop, close: string | null): Node {
    const items: Node[] = [];
    const text = this.pattern;
    while (this.#index < text.length) {
      const char = text[this.#index] as string;
      if (close !== null && (char === close || char === stop)) break;
      if (char === '*' && text[this.#index + 1] === '*' && this.#wholeSegment(items, stop, close)) {
        items.push(this.#globstar(items));
        continue;
      }
      const extglob = '@?*+!'.includes(char) && text[this.#index + 1] === '(';
      if (extglob) {
        items.push(this.#extglob(char));
        continue;
      }
      this.#index += 1;
      if (char === '*') {
        while (text[this.#index] === '*') this.#index += 1;
        items.push(this.#charged(star(notSlash)));
      } else if (char === '?') items.push(this.#charged({ type: 'char', test: notSlash }));
      else if (char === '[') items.push(this.#charged(this.#bracket()));
      else if (char === '{') items.push(this.#brace());
      else if (char === '\\' && this.#index < text.length) {
        items.push(this.#charged(exact(text.charCodeAt(this.#index))));
        this.#index += 1;
      } else items.push(this.#charged(char === '/' ? SLASH_NODE : exact(char.charCodeAt(0))));
    }
    return seq(items);
  }

  /** True when the `**` at the cursor is a whole path segment. */
  #wholeSegment(items: readonly Node[], stop: Stop, close: string | null): boolean {
    const before = this.pattern[this.#index - 1];
    const after = this.pattern[this.#index + 2];
    const starts = items.length === 0 || before === '/';
    const ends =
      after === undefined || after === '/' || (close !== null && (after === close || after === stop));
    return starts && ends;
  }

  /**
   * `**` as a whole segment: `**\/` is any run of whole segments (none included), `/**` at the end
   * the directory itself or anything below it, `**` alone any path. `items` is the sequence read so
   * far; for `/**` at the end its slash moves into the optional rest.
   */
  #globstar(items: Node[]): Node {
    this.#index += 2;
    if (this.pattern[this.#index] === '/') {
      this.#index += 1;
      return this.#charged(optional(seq([star(anyChar), exact(SLASH)])));
    }
    if (items[items.length - 1] !== SLASH_NODE) return this.#charged(star(anyChar));
    items.pop();
    return this.#charged(optional(seq([SLASH_NODE, star(anyChar)])));
  }

  #extglob(kind: string): Node {
    if (kind === '!') this.#refuse('negated extglobs "!(…)" are not supported');
    this.#index += 2;
    const options = this.#alternatives('|', ')');
    if (this.pattern[this.#index] !== ')') this.#refuse('an extglob "(" is not closed');
    this.#index += 1;
    const group: Node = options.length === 1 ? (options[0] as Node) : { type: 'alt', options };
    if (kind === '@') return group;
    if (kind === '?') return optional(group);
    return { type: 'repeat', item: group, min: kind === '+' ? 1 : 0, many: true };
  }

  #alternatives(stop: ',' | '|', close: string): Node[] {
    const options: Node[] = [this.#sequence(stop, close)];
    while (this.pattern[this.#index] === stop) {
      this.#index += 1;
      options.push(this.#sequence(stop, close));
    }
    return options;
  }

  /** `{a,b}`, `{1..3}`, `{a..c}`; anything else in braces is literal text. */
  #brace(): Node {
    const start = this.#index;
    const range = /^(-?\d+|[A-Za-z])\.\.(-?\d+|[A-Za-z])\}/.exec(this.pattern.slice(start, start + 48));
    if (range !== null) {
      this.#index += range[0].length;
      return this.#range(range[1] as string, range[2] as string);
    }
    const options = this.#alternatives(',', '}');
    if (this.pattern[this.#index] === '}' && options.length > 1) {
      this.#index += 1;
      return { type: 'alt', options };
    }
    // No comma or no closing brace: the `{` was literal; read on from just after it.
    this.#index = start;
    return this.#charged(exact(0x7b));
  }

  #range(from: string, to: string): Node {
    const numeric = /\d/.test(from) && /\d/.test(to);
    const first = numeric ? Number(from) : from.charCodeAt(0);
    const last = numeric ? Number(to) : to.charCodeAt(0);
    const count = Math.abs(last - first) + 1;
    if (!numeric && /\d/.test(from + to)) return this.#charged(literal(`{${from}..${to}}`));
    if (count * 4 > this.#budget) this.#refuse('a brace range has too many values', true);
    const step = first <= last ? 1 : -1;
    const options: Node[] = [];
    for (let value = first; value !== last + step; value += step) {
      const text = numeric ? String(value) : String.fromCharCode(value);
      options.push(this.#charged(literal(this.nocase ? text.toLowerCase() : text), text.length));
    }
    return { type: 'alt', options };
  }

  /** A class `[...]`; an unclosed `[` is a literal. The class never matches `/`. */
  #bracket(): Node {
    const start = this.#index;
    const text = this.pattern;
    const negated = text[this.#index] === '!' || text[this.#index] === '^';
    if (negated) this.#index += 1;
    const tests: CharTest[] = [];
    let firstChar = true;
    while (this.#index < text.length && (text[this.#index] !== ']' || firstChar)) {
      firstChar = false;
      const posix = /^\[:([a-z]+):\]/.exec(text.slice(this.#index, this.#index + 12));
      if (posix !== null && POSIX_CLASSES[posix[1] as string] !== undefined) {
        tests.push(POSIX_CLASSES[posix[1] as string] as CharTest);
        this.#index += posix[0].length;
        continue;
      }
      const low = this.#classChar();
      if (text[this.#index] === '-' && text[this.#index + 1] !== ']' && this.#index + 1 < text.length) {
        this.#index += 1;
        const high = this.#classChar();
        tests.push((code) => code >= low && code <= high);
      } else tests.push((code) => code === low);
    }
    if (text[this.#index] !== ']') {
      this.#index = start;
      return exact(0x5b);
    }
    this.#index += 1;
    const inClass: CharTest = this.nocase
      ? (code) => tests.some((test) => test(code) || test(upper(code)))
      : (code) => tests.some((test) => test(code));
    return {
      type: 'char',
      test: negated ? (code) => code !== SLASH && !inClass(code) : (code) => code !== SLASH && inClass(code),
    };
  }

  #classChar(): number {
    if (this.pattern[this.#index] === '\\' && this.#index + 1 < this.pattern.length) this.#index += 1;
    const code = this.pattern.charCodeAt(this.#index);
    this.#index += 1;
    return code;
  }

  /** Counts a node's states against the budget. */
  #charged(node: Node, states = 2): Node {
    this.#budget -= states;
    if (this.#budget < 0) this.#refuse(`the glob compiles to more than ${this.maxStates} states`, true);
    return node;
  }

  #refuse(message: string, overStates = false): never {
    throw new GlobRefusal(message, overStates);
  }
}

function upper(code: number): number {
  return code >= 0x61 && code <= 0x7a ? code - 0x20 : code;
}

const between =
  (low: number, high: number): CharTest =>
  (code) =>
    code >= low && code <= high;
const POSIX_CLASSES: Readonly<Record<string, CharTest>> = {
  alpha: (code) => between(0x41, 0x5a)(code) || between(0x61, 0x7a)(code),
  digit: between(0x30, 0x39),
  alnum: (code) => between(0x30, 0x39)(code) || between(0x41, 0x5a)(code) || between(0x61, 0x7a)(code),
  upper: between(0x41, 0x5a),
  lower: between(0x61, 0x7a),
  space: (code) => code === 0x20 || between(0x09, 0x0d)(code),
  xdigit: (code) => between(0x30, 0x39)(code) || between(0x41, 0x46)(code) || between(0x61, 0x66)(code),
  word: (code) =>
    code === 0x5f || between(0x30, 0x39)(code) || between(0x41, 0x5a)(code) || between(0x61, 0x7a)(code),
  punct: (code) =>
    between(0x21, 0x2f)(code) ||
    between(0x3a, 0x40)(code) ||
    between(0x5b, 0x60)(code) ||
    between(0x7b, 0x7e)(code),
};

// ---- the automaton ---------------------------------------------------------------------------

/** A state: a character test with one successor, a split with two, or the accepting state. */
type State =
  | { readonly kind: 'char'; readonly test: CharTest; out: number }
  | { readonly kind: 'split'; out: number; alt: number };

const MATCH = -1;

class Builder {
  readonly states: State[] = [];

  /** Builds `node` so that it continues to `next`; returns its entry state. */
  build(node: Node, next: number): number {
    switch (node.type) {
      case 'char':
        return this.#add({ kind: 'char', test: node.test, out: next });
      case 'seq': {
        let entry = next;
        for (let index = node.items.length - 1; index >= 0; index -= 1)
          entry = this.build(node.items[index] as Node, entry);
        return entry;
      }
      case 'alt': {
        const entries = node.options.map((option) => this.build(option, next));
        let entry = entries[entries.length - 1] as number;
        for (let index = entries.length - 2; index >= 0; index -= 1)
          entry = this.#add({ kind: 'split', out: entries[index] as number, alt: entry });
        return entry;
      }
      case 'repeat': {
        if (!node.many) {
          const body = this.build(node.item, next);
          return this.#add({ kind: 'split', out: body, alt: next });
        }
        // A loop: the split either enters the body (which comes back to it) or leaves.
        const loop = this.#add({ kind: 'split', out: MATCH, alt: next });
        const body = this.build(node.item, loop);
        (this.states[loop] as Extract<State, { kind: 'split' }>).out = body;
        return node.min === 1 ? body : loop;
      }
    }
  }

  #add(state: State): number {
    this.states.push(state);
    return this.states.length - 1;
  }
}

class Automaton implements GlobMatcher {
  readonly size: number;

  constructor(
    readonly states: readonly State[],
    readonly start: number,
    readonly nocase: boolean,
  ) {
    this.size = states.length;
  }

  test(subject: string, work?: { count: number }): boolean {
    const text = this.nocase ? subject.toLowerCase() : subject;
    // `seen[state]` holds the step at which the state was last added, so each is added once a step.
    const seen = new Int32Array(this.states.length).fill(-1);
    let current: number[] = [];
    let visits = 0;
    let matched = false;
    const add = (list: number[], from: number, step: number) => {
      const stack = [from];
      while (stack.length > 0) {
        const state = stack.pop() as number;
        visits += 1;
        if (state === MATCH) {
          if (step === text.length) matched = true;
          continue;
        }
        if (seen[state] === step) continue;
        seen[state] = step;
        const node = this.states[state] as State;
        if (node.kind === 'char') list.push(state);
        else stack.push(node.alt, node.out);
      }
    };
    add(current, this.start, 0);
    for (let index = 0; index < text.length && current.length > 0; index += 1) {
      const code = text.charCodeAt(index);
      const next: number[] = [];
      for (const state of current) {
        visits += 1;
        const node = this.states[state] as Extract<State, { kind: 'char' }>;
        if (node.test(code)) add(next, node.out, index + 1);
      }
      current = next;
    }
    if (work !== undefined) work.count += visits;
    return matched;
  }
}
