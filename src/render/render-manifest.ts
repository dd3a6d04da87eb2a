import { escapeFramePath } from './escape.js';

/** Heading of the nested-file manifest (docs/disclosure.md, "The manifest"). */
export const MANIFEST_HEADING = '# Nested Context Files';

/** The sentence under the heading: what the list is and that bodies are not loaded. */
export const MANIFEST_INTRO =
  'These instruction files govern subdirectories of the work dir. Their text is not loaded yet: ' +
  "a file's text is appended to a tool result once you first work in its directory.";

/** One manifest line's data. */
export interface ManifestEntry {
  /** Path relative to the work dir. */
  readonly path: string;
  readonly label: string;
}

/** Options of {@link renderManifest}. */
export interface ManifestOptions {
  /** Byte budget of the whole manifest; past it, lines lose their labels, then the list is cut. */
  readonly maxBytes: number;
  /** Set when the discovery walk stopped at `maxFiles`. */
  readonly truncatedAt?: number | undefined;
}

/**
 * Renders the manifest: heading, intro, one `- path: label` line per file (control characters and
 * `system-reminder` tags escaped as `\uXXXX`), and a note when the walk was truncated. Over `maxBytes` it degrades to paths only, then keeps as many paths as fit
 * and ends with `... N more files not shown`. No files → the empty string. Deterministic.
 */
export function renderManifest(entries: readonly ManifestEntry[], options: ManifestOptions): string {
  if (entries.length === 0) return '';
  // Paths and labels come from the repository; the manifest lands in `<system-reminder>` frames
  // (sessions, hooks), so neither may hold a control character or a frame tag.
  entries = entries.map((entry) => ({
    path: escapeFramePath(entry.path),
    label: escapeFramePath(entry.label),
  }));
  const head = [MANIFEST_HEADING, MANIFEST_INTRO];
  const tail =
    options.truncatedAt === undefined
      ? []
      : [`The discovery walk stopped at ${options.truncatedAt} files; more may exist.`];
  const full = [
    ...head,
    ...entries.map((entry) => (entry.label === '' ? `- ${entry.path}` : `- ${entry.path}: ${entry.label}`)),
    ...tail,
  ].join('\n');
  if (byteLength(full) <= options.maxBytes) return full;
  const pathsOnly = [...head, ...entries.map((entry) => `- ${entry.path}`), ...tail].join('\n');
  if (byteLength(pathsOnly) <= options.maxBytes) return pathsOnly;

  // Keep as many paths as fit together with the summary line.
  const lines = [...head];
  let size = byteLength(lines.join('\n'));
  let shown = 0;
  for (const entry of entries) {
    const line = `- ${entry.path}`;
    const rest = entries.length - shown - 1;
    const summary = rest > 0 ? `\n... ${rest} more files not shown` : '';
    const tailBytes = tail.length > 0 ? byteLength(`\n${tail.join('\n')}`) : 0;
    if (size + 1 + byteLength(line) + byteLength(summary) + tailBytes > options.maxBytes) break;
    lines.push(line);
    size += 1 + byteLength(line);
    shown += 1;
  }
  if (shown < entries.length) lines.push(`... ${entries.length - shown} more files not shown`);
  return [...lines, ...tail].join('\n');
}

function byteLength(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

/** Heading of the catalog of rules fetched on request (docs/rules.md, "How each kind surfaces"). */
export const RULE_CATALOG_HEADING = '# Rules on Request';

/** One catalog line's data: a rule's name, file and description. */
export interface CatalogEntry {
  readonly name: string;
  /**
   * The rule file relative to the work dir: the model reads it with its own read tool, which
   * works in every context (hooks, prompts, sessions); runners may also send the session event
   * `{"tool":"rule","input":{"name":…}}` (docs/rules.md).
   */
  readonly path: string;
  readonly description: string;
}

/**
 * Renders the catalog of `requested` rules: heading, `intro` (`wording.ruleCatalogIntro`), one
 * `- name (path): description` line per rule
 * (each on one line; control characters and `system-reminder` tags escaped as in a session frame's
 * path). No rules → the empty string.
 */
export function renderRuleCatalog(entries: readonly CatalogEntry[], intro: string): string {
  if (entries.length === 0) return '';
  const oneLine = (text: string) => escapeFramePath(text.replace(/\s*[\r\n]+\s*/g, ' ').trim());
  return [
    RULE_CATALOG_HEADING,
    ...(intro === '' ? [] : [intro]),
    ...entries.map(({ name, path, description }) => {
      const head = `- ${oneLine(name)} (${oneLine(path)})`;
      return description.trim() === '' ? head : `${head}: ${oneLine(description)}`;
    }),
  ].join('\n');
}
