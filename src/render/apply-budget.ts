import type { Format } from '../config/types.js';
import { displayPath } from './display-path.js';
import { escapeControl } from './escape.js';
import { renderFormat, type RenderContext, type RenderFile } from './render-formats.js';

/** A file with what the budget needs to rank it. */
export interface BudgetFile extends RenderFile {
  readonly layer: string;
  readonly depth: number | null;
}

/**
 * The most a rendered block may hold, in UTF-8 bytes, whatever the budget says (docs/security.md,
 * "Caps"). Past it the budget drops and cuts files as for any budget.
 */
export const MAX_RENDERED_BYTES = 16 * 1024 * 1024;

/** The outcome of {@link applyBudget}. */
export interface BudgetResult {
  readonly text: string;
  /** Files kept whole or cut, in output order (a cut file holds its shortened text). */
  readonly kept: readonly BudgetFile[];
  /** Absolute paths of files left out whole. */
  readonly dropped: readonly string[];
  /** Absolute path of the file that was cut, if any. */
  readonly truncated: string | null;
  /** True when the whole block was over {@link MAX_RENDERED_BYTES}. */
  readonly capped: boolean;
}

/** How broad each layer is: broader files are dropped first. */
const BREADTH: Readonly<Record<string, number>> = {
  extra: 0,
  user: 1,
  chain: 2,
  // The rules layer sits between the chain and the contextPaths layers, and is dropped between them too.
  rules: 2.5,
  global: 3,
  agent: 4,
  step: 5,
  nested: 6,
};

/** How the budget spends the cap (docs/formats.md#budget); every key defaults to the first value. */
export interface BudgetOptions {
  /** `specific-first` drops the broadest files first; `root-first` keeps files in order. */
  readonly strategy?: 'specific-first' | 'root-first' | undefined;
  /** `rendered` measures the block; `content` measures the files' text only (framing is extra). */
  readonly counts?: 'rendered' | 'content' | undefined;
  /** `project` leaves user and extra files out of the measure: they are always kept. */
  readonly scope?: 'all' | 'project' | undefined;
}

/**
 * Renders `files` so that `fits(measured)` holds and the text is at most {@link MAX_RENDERED_BYTES}, where `measured` is the rendered block, or with
 * `counts: content` the counted files' text joined without separators (DESIGN §7 and
 * docs/formats.md#budget). Files outside the `scope` are always kept and never measured.
 * - `specific-first` (default): whole files are dropped broadest first (extra files, the user file,
 *   the chain from the root down, then the global, agent and step layers; within one of them
 *   shallower first, then in list order), then the most specific file is cut;
 * - `root-first`: files are kept in list order until the cap; the one that crosses it is cut and
 *   every later one dropped (Codex: openai/codex codex-rs/core/src/project_doc.rs).
 * A file is cut at a character boundary of its raw text, before escaping, so no escape is ever
 * split. A visible notice names what was left out and what was cut (none when
 * `wording.budgetNotice` is empty). When not even the notice fits, only the unmeasured files remain.
 */
export function applyBudget(
  format: Format,
  files: readonly BudgetFile[],
  context: RenderContext,
  fits: (measured: string) => boolean,
  options: BudgetOptions = {},
): BudgetResult {
  const counted = (file: BudgetFile) =>
    options.scope !== 'project' || (file.layer !== 'user' && file.layer !== 'extra');
  const measure = (kept: readonly BudgetFile[], notice?: string) =>
    options.counts === 'content'
      ? kept
          .filter(counted)
          .map((file) => file.text)
          .join('')
      : renderFormat(format, kept.filter(counted), context, notice);
  const underCap = (text: string) =>
    text.length <= MAX_RENDERED_BYTES && Buffer.byteLength(text, 'utf8') <= MAX_RENDERED_BYTES;
  const full = renderFormat(format, files, context);
  const capped = !underCap(full);
  if (!capped && fits(measure(files)))
    return { text: full, kept: files, dropped: [], truncated: null, capped };
  /** Within the budget and under the hard cap. */
  const fitsAll = (attempt: { text: string; measured: string }) =>
    underCap(attempt.text) && fits(attempt.measured);

  const show = (file: string) => escapeControl(displayPath(file, context.workDir, context.homeDir));
  const notice = (dropped: readonly string[], truncated: string | null, short = false) => {
    if (context.wording.budgetNotice === '') return undefined;
    const parts = [context.wording.budgetNotice];
    if (dropped.length > 0)
      parts.push(
        short
          ? `Left out: ${dropped.length} file${dropped.length === 1 ? '' : 's'}.`
          : `Left out: ${dropped.map(show).join(', ')}.`,
      );
    if (truncated !== null) parts.push(`Cut short: ${show(truncated)}.`);
    return parts.join(' ');
  };
  /** The files left after dropping `dropped` (indexes), with file `cut.index` holding `cut.text`. */
  const keep = (dropped: ReadonlySet<number>, cut?: { index: number; text: string }) =>
    files.flatMap((file, index) =>
      dropped.has(index) ? [] : index === cut?.index ? [{ ...file, text: cut.text }] : [file],
    );
  const result = (
    dropped: readonly number[],
    cut?: { index: number; text: string },
    short = false,
  ): BudgetResult & { measured: string } => {
    const kept = keep(new Set(dropped), cut);
    const paths = dropped.map((index) => (files[index] as BudgetFile).path);
    const truncated = cut === undefined ? null : (files[cut.index] as BudgetFile).path;
    const shown = notice(paths, truncated, short);
    return {
      text: renderFormat(format, kept, context, shown),
      measured: measure(kept, shown),
      kept,
      dropped: paths,
      truncated,
      capped,
    };
  };
  /** The longest cut of file `index` (at least one character) that fits, if any. */
  const cutToFit = (dropped: readonly number[], index: number) => {
    const chars = Array.from((files[index] as BudgetFile).text);
    const attempt = (count: number) => result(dropped, { index, text: chars.slice(0, count).join('') });
    if (chars.length === 0 || !fitsAll(attempt(1))) return null;
    let low = 1;
    let high = chars.length - 1;
    while (low < high) {
      const middle = Math.ceil((low + high) / 2);
      if (fitsAll(attempt(middle))) low = middle;
      else high = middle - 1;
    }
    return attempt(low);
  };
  const done = ({ measured: _measured, ...budget }: BudgetResult & { measured: string }): BudgetResult =>
    budget;

  const candidates = files.flatMap((file, index) => (counted(file) ? [index] : []));
  let dropped: number[];
  if (options.strategy === 'root-first') {
    let whole = 0;
    while (whole < candidates.length && fitsAll(result(candidates.slice(whole + 1)))) whole += 1;
    if (whole < candidates.length) {
      const cut = cutToFit(candidates.slice(whole + 1), candidates[whole] as number);
      if (cut !== null) return done(cut);
    }
    dropped = candidates.slice(whole);
    if (whole > 0) return done(result(dropped));
  } else {
    const order = candidates.sort(
      (a, b) =>
        (BREADTH[(files[a] as BudgetFile).layer] ?? 3) - (BREADTH[(files[b] as BudgetFile).layer] ?? 3) ||
        ((files[a] as BudgetFile).depth ?? 0) - ((files[b] as BudgetFile).depth ?? 0) ||
        a - b,
    );
    dropped = [];
    for (const index of order.slice(0, -1)) {
      dropped.push(index);
      const attempt = result(dropped);
      if (fitsAll(attempt)) return done(attempt);
    }
    const last = order[order.length - 1];
    if (last !== undefined) {
      const cut = cutToFit(dropped, last);
      if (cut !== null) return done(cut);
      dropped.push(last);
    }
  }
  for (const short of [false, true]) {
    const attempt = result(dropped, undefined, short);
    if (fitsAll(attempt)) return done(attempt);
  }
  const kept = keep(new Set(dropped));
  const paths = dropped.map((index) => (files[index] as BudgetFile).path);
  return {
    text: kept.length === 0 ? '' : renderFormat(format, kept, context),
    kept,
    dropped: paths,
    truncated: null,
    capped,
  };
}
