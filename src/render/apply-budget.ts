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
  const full = renderFormat(format, files, context);
  const capped = !underCap(full);
  const budget: Budget = { format, files, context, fits, options, capped };
  if (!capped && fits(measure(budget, files, full)))
    return { text: full, kept: files, dropped: [], truncated: null, capped };
  const candidates = files.flatMap((file, index) => (counted(budget, file) ? [index] : []));
  const outcome =
    options.strategy === 'root-first' ? rootFirst(budget, candidates) : specificFirst(budget, candidates);
  return Array.isArray(outcome) ? fallback(budget, outcome) : outcome;
}

/** What one call of {@link applyBudget} works with. */
interface Budget {
  readonly format: Format;
  readonly files: readonly BudgetFile[];
  readonly context: RenderContext;
  readonly fits: (measured: string) => boolean;
  readonly options: BudgetOptions;
  /** True when the whole block was over the hard cap. */
  readonly capped: boolean;
}

/** A file cut short: its index and the text it keeps. */
interface Cut {
  readonly index: number;
  readonly text: string;
}

/** An attempt with the text the budget measured. */
type Attempt = BudgetResult & { measured: string };

/**
 * Keeps files in list order until the cap; the one that crosses it is cut and every later one
 * dropped. A file whose cut would hold only whitespace is dropped instead, spending nothing, and the
 * files after it are tried with the budget it left (Codex: `read_agents_md` in openai/codex
 * codex-rs/core/src/agents_md.rs). Returns the result, or the files to drop when the fallback must
 * decide.
 */
function rootFirst(budget: Budget, candidates: readonly number[]): BudgetResult | number[] {
  const blank: number[] = [];
  const droppedFrom = (at: number) => [...blank, ...candidates.slice(at)];
  let whole = 0;
  while (whole < candidates.length) {
    while (whole < candidates.length && fitsAll(budget, result(budget, droppedFrom(whole + 1)))) whole += 1;
    if (whole === candidates.length) break;
    const index = candidates[whole] as number;
    const cut = cutToFit(budget, droppedFrom(whole + 1), index);
    if (cut === null) break;
    if (cut.cutText.trim() !== '') return done(cut);
    blank.push(index);
    whole += 1;
  }
  const dropped = droppedFrom(whole);
  if (whole > blank.length) return done(result(budget, dropped));
  return dropped;
}

/**
 * Drops whole files broadest first, then cuts the most specific one. Returns the result, or the
 * files to drop when the fallback must decide.
 */
function specificFirst(budget: Budget, candidates: number[]): BudgetResult | number[] {
  const files = budget.files;
  const order = candidates.sort(
    (a, b) =>
      (BREADTH[(files[a] as BudgetFile).layer] ?? 3) - (BREADTH[(files[b] as BudgetFile).layer] ?? 3) ||
      ((files[a] as BudgetFile).depth ?? 0) - ((files[b] as BudgetFile).depth ?? 0) ||
      a - b,
  );
  const dropped: number[] = [];
  for (const index of order.slice(0, -1)) {
    dropped.push(index);
    const attempt = result(budget, dropped);
    if (fitsAll(budget, attempt)) return done(attempt);
  }
  const last = order[order.length - 1];
  if (last !== undefined) {
    const cut = cutToFit(budget, dropped, last);
    if (cut !== null) return done(cut);
    dropped.push(last);
  }
  return dropped;
}

/**
 * With `dropped` left out: the notice in full, else the short notice, else (not even the notice
 * fits) only the unmeasured files.
 */
function fallback(budget: Budget, dropped: readonly number[]): BudgetResult {
  for (const short of [false, true]) {
    const attempt = result(budget, dropped, undefined, short);
    if (fitsAll(budget, attempt)) return done(attempt);
  }
  const kept = keep(budget.files, new Set(dropped));
  const paths = dropped.map((index) => (budget.files[index] as BudgetFile).path);
  return {
    text: kept.length === 0 ? '' : renderFormat(budget.format, kept, budget.context),
    kept,
    dropped: paths,
    truncated: null,
    capped: budget.capped,
  };
}

/** Whether a file is measured: with `scope: project`, user and extra files are not. */
function counted(budget: Budget, file: BudgetFile): boolean {
  return budget.options.scope !== 'project' || (file.layer !== 'user' && file.layer !== 'extra');
}

/**
 * What the budget measures of `kept`: the rendered block, or with `counts: content` the text. When
 * every kept file is counted (the default scope), the block measured is `rendered`, the block of
 * `kept` already made: it is not rendered twice.
 */
function measure(budget: Budget, kept: readonly BudgetFile[], rendered: string, notice?: string): string {
  const measured = kept.filter((file) => counted(budget, file));
  if (budget.options.counts === 'content') return measured.map((file) => file.text).join('');
  return measured.length === kept.length
    ? rendered
    : renderFormat(budget.format, measured, budget.context, notice);
}

function underCap(text: string): boolean {
  return text.length <= MAX_RENDERED_BYTES && Buffer.byteLength(text, 'utf8') <= MAX_RENDERED_BYTES;
}

/** Within the budget and under the hard cap. */
function fitsAll(budget: Budget, attempt: { text: string; measured: string }): boolean {
  return underCap(attempt.text) && budget.fits(attempt.measured);
}

/** The visible notice of what was left out and cut; none when `wording.budgetNotice` is empty. */
function notice(
  context: RenderContext,
  dropped: readonly string[],
  truncated: string | null,
  short = false,
): string | undefined {
  if (context.wording.budgetNotice === '') return undefined;
  const show = (file: string) => escapeControl(displayPath(file, context.workDir, context.homeDir));
  const parts = [context.wording.budgetNotice];
  if (dropped.length > 0)
    parts.push(
      short
        ? `Left out: ${dropped.length} file${dropped.length === 1 ? '' : 's'}.`
        : `Left out: ${dropped.map(show).join(', ')}.`,
    );
  if (truncated !== null) parts.push(`Cut short: ${show(truncated)}.`);
  return parts.join(' ');
}

/** The files left after dropping `dropped` (indexes), with file `cut.index` holding `cut.text`. */
function keep(files: readonly BudgetFile[], dropped: ReadonlySet<number>, cut?: Cut): BudgetFile[] {
  return files.flatMap((file, index) =>
    dropped.has(index) ? [] : index === cut?.index ? [{ ...file, text: cut.text }] : [file],
  );
}

/** The attempt that drops `dropped` and cuts `cut`, with its notice. */
function result(budget: Budget, dropped: readonly number[], cut?: Cut, short = false): Attempt {
  const { files, format, context } = budget;
  const kept = keep(files, new Set(dropped), cut);
  const paths = dropped.map((index) => (files[index] as BudgetFile).path);
  const truncated = cut === undefined ? null : (files[cut.index] as BudgetFile).path;
  const shown = notice(context, paths, truncated, short);
  const text = renderFormat(format, kept, context, shown);
  return {
    text,
    measured: measure(budget, kept, text, shown),
    kept,
    dropped: paths,
    truncated,
    capped: budget.capped,
  };
}

/** The longest cut of file `index` (at least one character) that fits, if any, and the text it keeps. */
function cutToFit(
  budget: Budget,
  dropped: readonly number[],
  index: number,
): (Attempt & { readonly cutText: string }) | null {
  const chars = Array.from((budget.files[index] as BudgetFile).text);
  const attempt = (count: number) => result(budget, dropped, { index, text: chars.slice(0, count).join('') });
  if (chars.length === 0 || !fitsAll(budget, attempt(1))) return null;
  let low = 1;
  let high = chars.length - 1;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (fitsAll(budget, attempt(middle))) low = middle;
    else high = middle - 1;
  }
  return { ...attempt(low), cutText: chars.slice(0, low).join('') };
}

function done({ measured: _measured, ...budget }: Attempt & { readonly cutText?: string }): BudgetResult {
  const { cutText: _cutText, ...rest } = budget;
  return rest;
}
