import { isBlankText } from '../discover/chain-candidates.js';
import type { Diagnostic } from '../errors.js';
import type { FileSystem } from '../fs/file-system.js';
import { MAX_INLINE_BYTES } from '../fs/read-instruction.js';
import type { Rule } from '../rules/rule.js';
import type { Candidate } from './expand-entries.js';
import { contextFileOf, readContextFile, type ContextFile } from './read-context-file.js';

// Reading the ordered, deduped candidates of one resolution: one file at a time through
// read-context-file.ts (a rule's text from the rules engine), within the total read cap, with blank
// chain files left out.

/**
 * Total bytes read for one resolution (docs/security.md, "caps"). Files past it are not read:
 * together with the `xml` escaping (at most 5 bytes per byte), it keeps a rendered block far below
 * the longest string a JavaScript engine can build.
 */
export const MAX_TOTAL_READ_BYTES = 8 * 1024 * 1024;

/**
 * Reads the kept candidates in order within the total read cap (files past it are reported, not
 * read); a rule's text is the engine's (no frontmatter); a blank chain file is skipped: a
 * whitespace-only one, or with `skipBlank: empty` only an empty one; `skipBlank: none` keeps them
 * (Copilot CLI and Continue show a blank file).
 */
export function readWithinCap(
  fs: FileSystem,
  kept: readonly Candidate[],
  ruleOf: ReadonlyMap<Candidate, Rule>,
  skipBlank: 'whitespace' | 'empty' | 'none',
  diagnostics: Diagnostic[],
): ContextFile[] {
  const files: ContextFile[] = [];
  let total = 0;
  const over: Candidate[] = [];
  for (const candidate of kept) {
    // Checked before reading, with the size the file had when it was found (a file over the
    // per-file cap is left to readContextFile, which reads cap + 1 bytes and reports `too-large`);
    // what a read returned is what counts afterwards.
    const expected = Math.min(candidate.info.size, MAX_INLINE_BYTES);
    if (over.length > 0 || total + expected > MAX_TOTAL_READ_BYTES) {
      over.push(candidate);
      continue;
    }
    const rule = ruleOf.get(candidate);
    const read =
      rule === undefined ? readContextFile(fs, candidate, diagnostics) : contextFileOf(candidate, rule);
    if (read === null) continue;
    const file = read;
    total += file.bytes;
    // A blank chain file is skipped, not replaced by the next candidate (Codex does the same:
    // `read_project_docs` in openai/codex, codex-rs/core/src/project_doc.rs).
    if (
      file.source === 'chain' &&
      skipBlank !== 'none' &&
      (skipBlank === 'empty' ? file.text === '' : isBlankText(file.text))
    ) {
      diagnostics.push({
        level: 'info',
        code: 'blank-file',
        message: `${file.path} ${skipBlank === 'empty' ? 'is empty' : 'holds only whitespace'} and is skipped`,
        layer: file.layer,
        entry: file.entry,
        path: file.path,
      });
      continue;
    }
    files.push(file);
  }
  reportReadCap(over, total, diagnostics);
  return files;
}

/** One `warn` for the cap, then a `debug` per file left unread, so each file still has an outcome. */
function reportReadCap(over: readonly Candidate[], total: number, diagnostics: Diagnostic[]): void {
  const first = over[0];
  if (first === undefined) return;
  diagnostics.push({
    level: 'warn',
    code: 'read-cap',
    message: `${over.length} file${over.length === 1 ? ' is' : 's are'} not read: the files before ${first.path} already hold ${total} bytes, and one resolution reads at most ${MAX_TOTAL_READ_BYTES} bytes`,
  });
  for (const candidate of over)
    diagnostics.push({
      level: 'debug',
      code: 'read-cap-skipped',
      message: `${candidate.path} is not read: the total read cap of ${MAX_TOTAL_READ_BYTES} bytes is reached`,
      layer: candidate.layer,
      entry: candidate.entry,
      path: candidate.path,
    });
}
