import type { FrontmatterKey } from './frontmatter-lines.js';
import type { AgentScope, RuleKind } from './rule.js';

/** Where a vendor keeps its rules, relative to an owner directory. */
export type RuleLocation =
  | {
      /**
       * A folder read recursively for files ending with one of `extensions` (the first that fits), or
       * for every file (`any`: the name's last extension, if any, is left out of the rule's name).
       */
      readonly type: 'folder';
      readonly path: string;
      readonly extensions: readonly string[] | 'any';
      /**
       * Files and folders whose name starts with a dot are read too (default: passed over, as editor
       * and VCS leftovers), for a tool that reads them (Roo Code).
       */
      readonly dotEntries?: boolean;
      /** Names the tool passes over (cache and system files): ending with one of `suffixes`, or equal to one of `names`. */
      readonly skip?: { readonly suffixes: readonly string[]; readonly names: readonly string[] };
      /**
       * `file-name`: the folder's files are ordered by file name ignoring case, collated (subfolders
       * interleaved; equal names by path), as Roo Code orders them. Default `path`: by the path below
       * the owner, in code units.
       */
      readonly order?: 'path' | 'file-name';
      /**
       * Set for a family of folders, one per agent: `path` is their parent and each directory in it
       * named `<agentPrefix><agent>` (`.roo/rules-code`) holds rules for that agent only.
       */
      readonly agentPrefix?: string;
    }
  | {
      /** One file with a fixed name and kind (frontmatter, if any, is still stripped). */
      readonly type: 'file';
      readonly path: string;
      readonly name: string;
      readonly kind: RuleKind;
      /** The globs of a fixed `glob` kind (Windsurf: `**` below the directory holding the file). */
      readonly globs?: readonly string[];
      /**
       * Read only in owner directories below the work dir (`nested`: Windsurf's `AGENTS.md`, whose
       * work-dir copy is the chain's file) or only in the work dir (`work-dir`: Zed's `.rules`, read
       * at the top of the project only). Default: every owner.
       */
      readonly owners?: 'nested' | 'work-dir';
    };

/** Where an owner directory is, against the work dir: a location may be read in some only. */
export type OwnerPlace = 'nested' | 'work-dir' | 'above';

/**
 * Whether `location` is read in an owner directory at `place`. A file location read in nested owners
 * only is not read there when its name is one `instructionNames` gives (Windsurf's `AGENTS.md` beside
 * the default `contextPaths`): the instructions already deliver that file as a nested file, and an
 * instruction reaches the model once (docs/rules.md, "Discovery").
 */
export function readsIn(
  location: RuleLocation,
  place: OwnerPlace,
  instructionNames: ReadonlySet<string> | undefined,
): boolean {
  if (location.type === 'folder' || location.owners === undefined) return true;
  if (location.owners === 'nested' && instructionNames?.has(location.path) === true) return false;
  return location.owners === place;
}

/** How a vendor matches its globs; turned into micromatch options in `compile-rule-globs.ts`. */
export interface GlobDialect {
  /** A pattern without a slash matches the basename at any depth. */
  readonly basename: boolean;
  /** A pattern not starting with `**\/` is matched at any depth (`**\/` is prepended). */
  readonly anywhere: boolean;
  /** Case-insensitive matching. */
  readonly nocase: boolean;
  /** A leading `!` negates one pattern; otherwise such a pattern is refused. */
  readonly negation: boolean;
  /**
   * With `negation`: `each` (a rule applies when any pattern, negated or not, matches: picomatch per
   * pattern, Cline) or `exclude` (some plain pattern matches and no negated one does; with only negated
   * patterns, every path they do not match: Continue). Default `each`.
   */
  readonly negationMode?: 'each' | 'exclude';
}

/** What an adapter reads from frontmatter. */
export type Classification =
  | {
      readonly ok: true;
      readonly kind: RuleKind;
      readonly globs: readonly string[];
      readonly description: string;
      /** Default: every agent. */
      readonly agents?: AgentScope;
      /** Content patterns (Continue's `regex`); default none. */
      readonly regex?: readonly string[];
    }
  | { readonly ok: false; readonly problem: string };

/** The frontmatter an adapter sees. */
export interface FrontmatterInput {
  readonly data: Readonly<Record<string, unknown>>;
  /** True when YAML rejected the block and the known keys were read line by line as strings. */
  readonly lenient: boolean;
}

/**
 * One vendor: the table of what it reads and the smallest mapping from frontmatter to a kind. Adding a
 * vendor is one such object in its own file, a row in `RULE_ADAPTERS` and one in docs/rules.md.
 */
export interface RuleAdapter {
  readonly source: string;
  readonly locations: readonly RuleLocation[];
  /** Where the vendor keeps a user's own rules, relative to the home directory (`rules.userFolders`). */
  readonly userLocations?: readonly RuleLocation[];
  /** Frontmatter keys read line by line when YAML rejects the block. */
  readonly keys: readonly string[];
  /** The frontmatter key a `glob` rule's patterns are written under (doctor points at it). */
  readonly globKey?: string;
  readonly globs: GlobDialect;
  /** A rule's body is cut to this many characters (UTF-16 code units), as the tool reads it. */
  readonly maxChars?: number;
  /**
   * `verbatim`: the tool sends a file's text as written, frontmatter and all, and reads no key from
   * it (Roo Code); the rule's kind is what `classify` gives for no frontmatter. Default: the
   * frontmatter is read and left out of the text.
   */
  readonly frontmatter?: 'verbatim';
  /**
   * The vendor's files reference other files as `#[[file:path]]`, relative to the owner directory
   * (Kiro): with imports on, the imports engine follows them (docs/rules.md).
   */
  readonly fileReferences?: boolean;
  classify(input: FrontmatterInput): Classification;
  /**
   * Frontmatter written in a form the vendor's tool is known to read otherwise than its author
   * meant, from the keys as written (quoted, listed): `ctxfiles doctor` reports each as a
   * `misread-frontmatter` finding at the key.
   */
  misreads?(keys: readonly FrontmatterKey[]): readonly Misread[];
}

/** One key a vendor's tool misreads (see {@link RuleAdapter.misreads}). */
export interface Misread {
  readonly key: FrontmatterKey;
  /** What the tool does with it. */
  readonly problem: string;
  /** How to write it instead. */
  readonly fix: string;
  /** The rule's text then never reaches the model: an error, not a warning. */
  readonly lost?: boolean;
}

/** The key of a frontmatter named `name`, if written. */
export function keyNamed(keys: readonly FrontmatterKey[], name: string): FrontmatterKey | undefined {
  return keys.find((key) => key.key === name);
}

/** A `description` as a string: strings and numbers are kept, anything else is ignored. */
export function descriptionOf(data: Readonly<Record<string, unknown>>): string {
  const value = data['description'];
  if (typeof value === 'string') return value.trim();
  if (typeof value === 'number') return String(value);
  return '';
}

/**
 * A glob value: absent (`undefined`, `null`: the key with nothing after it), a string split at commas
 * outside braces and brackets (empty pieces dropped, as every vendor does for a trailing comma), or a
 * list of strings (kept as written, so an empty entry reaches the glob check and is reported). A blank
 * string (`paths: ""`) is one empty glob, refused by the glob check: it never widens a rule's kind
 * (docs/rules.md, "Globs").
 */
export function globList(
  value: unknown,
  key: string,
):
  | { readonly ok: true; readonly globs: readonly string[] | null }
  | { readonly ok: false; readonly problem: string } {
  if (value === undefined || value === null) return { ok: true, globs: null };
  if (typeof value === 'string') {
    const globs = splitGlobs(value);
    return { ok: true, globs: globs.length === 0 ? [''] : globs };
  }
  if (Array.isArray(value)) {
    if (!value.every((item) => typeof item === 'string'))
      return { ok: false, problem: `${key} must be a string or a list of strings, received ${show(value)}` };
    return { ok: true, globs: value.map((item: string) => item.trim()) };
  }
  return { ok: false, problem: `${key} must be a string or a list of strings, received ${show(value)}` };
}

/**
 * A pattern value read as the tools that take it as a pattern list read it (Kiro's `fileMatchPattern`,
 * Continue's `globs` and `regex`): absent, one string (one pattern, commas and all), or a list of
 * strings. A blank string or an empty list is one empty pattern, refused later (never "no value").
 */
export function patternList(
  value: unknown,
  key: string,
):
  | { readonly ok: true; readonly patterns: readonly string[] | null }
  | { readonly ok: false; readonly problem: string } {
  if (value === undefined || value === null) return { ok: true, patterns: null };
  if (typeof value === 'string') return { ok: true, patterns: [value.trim()] };
  if (Array.isArray(value) && value.every((item) => typeof item === 'string'))
    return { ok: true, patterns: value.length === 0 ? [''] : value.map((item: string) => item.trim()) };
  return { ok: false, problem: `${key} must be a string or a list of strings, received ${show(value)}` };
}

/** `true`/`false`, or absent; the strings `true`/`false` count only when read leniently. */
export function booleanOf(
  value: unknown,
  key: string,
  lenient: boolean,
): { readonly ok: true; readonly value: boolean | null } | { readonly ok: false; readonly problem: string } {
  if (value === undefined || value === null) return { ok: true, value: null };
  if (typeof value === 'boolean') return { ok: true, value };
  if (lenient && typeof value === 'string' && (value === 'true' || value === 'false'))
    return { ok: true, value: value === 'true' };
  if (lenient && value === '') return { ok: true, value: null };
  return { ok: false, problem: `${key} must be true or false, received ${show(value)}` };
}

/** Splits a comma-separated glob string; commas inside `{}` or `[]` belong to the glob. */
export function splitGlobs(text: string): string[] {
  // One glob, the usual case: nothing to split (this runs once per rule file, before any code is hot).
  if (!text.includes(',')) {
    const glob = text.trim();
    return glob === '' ? [] : [glob];
  }
  const pieces: string[] = [];
  let depth = 0;
  let bracket = false;
  let start = 0;
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index];
    if (char === '\\') index += 1;
    else if (bracket) bracket = char !== ']';
    else if (char === '[') bracket = true;
    else if (char === '{') depth += 1;
    else if (char === '}' && depth > 0) depth -= 1;
    else if (char === ',' && depth === 0) {
      pieces.push(text.slice(start, index));
      start = index + 1;
    }
  }
  pieces.push(text.slice(start));
  return pieces.map((piece) => piece.trim()).filter((piece) => piece !== '');
}

/** A value as it appears in messages. */
export function show(value: unknown): string {
  const text = JSON.stringify(value);
  return text === undefined ? String(value) : text.length > 60 ? `${text.slice(0, 59)}…` : text;
}

/**
 * The classification shared by vendors whose rules are scoped by a `paths` key (Claude Code,
 * Cline): `paths` → glob; no `paths` → always; an empty list is refused.
 */
export const classifyByPaths: RuleAdapter['classify'] = ({ data }) => {
  const globs = globList(data['paths'], 'paths');
  if (!globs.ok) return globs;
  const description = descriptionOf(data);
  if (globs.globs === null) return { ok: true, kind: 'always', globs: [], description };
  if (globs.globs.length === 0) return { ok: false, problem: 'paths is an empty list' };
  return { ok: true, kind: 'glob', globs: globs.globs, description };
};
