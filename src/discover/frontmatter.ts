import { createRequire } from 'node:module';

// Both libraries load on the first file that has frontmatter, not at start-up.
const require = createRequire(import.meta.url);
let libraries: { matter: typeof import('gray-matter'); parseYaml: typeof import('yaml').parse } | undefined;
function load() {
  libraries ??= {
    matter: require('gray-matter') as typeof import('gray-matter'),
    parseYaml: (require('yaml') as typeof import('yaml')).parse,
  };
  return libraries;
}

/** Parsed frontmatter: its data (always a plain object) and the body after it. */
export interface Frontmatter {
  readonly data: Readonly<Record<string, unknown>>;
  readonly body: string;
}

const safeYaml = {
  parse: (text: string): Record<string, unknown> => {
    const value: unknown = load().parseYaml(text, { schema: 'core', maxAliasCount: 100 });
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {};
  },
  stringify: () => {
    throw new Error('not supported');
  },
};

// Frontmatter is data. gray-matter picks an engine from the opening fence (`---js` would run
// code), so every engine it knows is replaced with the YAML parser; a fence naming any other
// language fails and the file is treated as having no frontmatter.
const ENGINES = {
  yaml: safeYaml,
  yml: safeYaml,
  json: safeYaml,
  javascript: safeYaml,
  js: safeYaml,
  coffee: safeYaml,
  coffeescript: safeYaml,
  cson: safeYaml,
};

/**
 * Splits frontmatter from a markdown text. Never evaluates code, whatever the opening fence says;
 * malformed frontmatter yields empty data and the text as the body.
 */
export function parseFrontmatter(text: string): Frontmatter {
  if (!text.startsWith('---')) return { data: {}, body: text };
  try {
    const { matter } = load();
    const parsed = matter(text, { language: 'yaml', engines: ENGINES } as unknown as Parameters<
      typeof matter
    >[1]);
    return { data: parsed.data, body: parsed.content };
  } catch {
    return { data: {}, body: text };
  }
}
