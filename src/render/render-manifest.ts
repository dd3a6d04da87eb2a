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
 * and ends with `... N more files not shown`. No files and no cap hit → the empty string (a cap hit
 * is always said, even when every file found was inlined). Deterministic.
 */
export function renderManifest(entries: readonly ManifestEntry[], options: ManifestOptions): string {
  if (entries.length === 0 && options.truncatedAt === undefined) return '';
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
 * path). No rules → the empty string. See {@link boundRuleCatalog} for its cap.
 */
export function renderRuleCatalog(
  entries: readonly CatalogEntry[],
  intro: string,
  maxBytes = Infinity,
): string {
  return boundRuleCatalog(entries, intro, maxBytes).text;
}

/**
 * The catalog within `maxBytes` (`contextDiscovery.maxManifestBytes`, the same cap as the
 * manifest's): over it the lines lose their descriptions, then the list is cut and ends with
 * `... N more rules not shown`. `degraded` says which, for the caller's warning.
 */
export function boundRuleCatalog(
  entries: readonly CatalogEntry[],
  intro: string,
  maxBytes: number,
): { readonly text: string; readonly degraded: 'no' | 'descriptions' | 'cut' } {
  if (entries.length === 0) return { text: '', degraded: 'no' };
  const oneLine = (text: string) => escapeFramePath(text.replace(/\s*[\r\n]+\s*/g, ' ').trim());
  const head = [RULE_CATALOG_HEADING, ...(intro === '' ? [] : [intro])];
  const heads = entries.map(({ name, path }) => `- ${oneLine(name)} (${oneLine(path)})`);
  // Each description is cut before it is escaped: no line costs more than the cap.
  const cap = Number.isFinite(maxBytes) ? maxBytes : Infinity;
  const full = entries.map(({ description }, index) => {
    const trimmed = description.trim();
    const line = heads[index] as string;
    return trimmed === '' ? line : `${line}: ${oneLine(trimmed.slice(0, Math.min(trimmed.length, cap)))}`;
  });
  const text = [...head, ...full].join('\n');
  if (byteLength(text) <= maxBytes) return { text, degraded: 'no' };
  const names = [...head, ...heads].join('\n');
  if (byteLength(names) <= maxBytes) return { text: names, degraded: 'descriptions' };
  const lines = [...head];
  let size = byteLength(lines.join('\n'));
  let shown = 0;
  for (const line of heads) {
    const summary = byteLength(`\n... ${heads.length - shown - 1} more rules not shown`);
    if (size + 1 + byteLength(line) + summary > maxBytes) break;
    lines.push(line);
    size += 1 + byteLength(line);
    shown += 1;
  }
  lines.push(`... ${heads.length - shown} more rules not shown`);
  return { text: lines.join('\n'), degraded: 'cut' };
}
