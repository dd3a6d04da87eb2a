import type { Format } from '../config/types.js';
import { displayPath } from './display-path.js';
import { escapeControl } from './escape.js';
import { renderFormat, type RenderContext, type RenderFile } from './render-formats.js';

/**
 * The most a rendered block may hold, in UTF-8 bytes, whatever the budget says (docs/security.md,
 * "caps"). Past it the budget drops and cuts files as for any budget.
 */
export const MAX_RENDERED_BYTES = 16 * 1024 * 1024;

/** A file with what the budget needs to rank it. */
export interface BudgetFile extends RenderFile {
  readonly layer: string;
  readonly depth: number | null;
}

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
  global: 3,
  agent: 4,
  step: 5,
};

/**
 * Renders `files` so that `fitsBudget(text)` holds and the text is at most {@link MAX_RENDERED_BYTES} (DESIGN §7). The most specific files are kept: whole
 * files are dropped broadest first (extra files, the user file, the chain from the root down, then
 * the global, agent and step layers; within one of them shallower first, then in list order),
 * then the most specific file is cut at a character boundary (its raw text is cut before escaping,
 * so no escape is ever split). A visible notice names what was left out and what was cut. When
 * not even the notice fits, the result is the empty string.
 */
export function applyBudget(
  format: Format,
  files: readonly BudgetFile[],
  context: RenderContext,
  fitsBudget: (text: string) => boolean,
): BudgetResult {
  const underCap = (text: string) =>
    text.length <= MAX_RENDERED_BYTES && Buffer.byteLength(text, 'utf8') <= MAX_RENDERED_BYTES;
  const fits = (text: string) => underCap(text) && fitsBudget(text);
  const full = renderFormat(format, files, context);
  const capped = !underCap(full);
  if (fits(full)) return { text: full, kept: files, dropped: [], truncated: null, capped };

  const show = (file: string) => escapeControl(displayPath(file, context.workDir, context.homeDir));
  const notice = (dropped: readonly string[], truncated: string | null, short = false) => {
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

  const order = files
    .map((file, index) => ({ file, index }))
    .sort(
      (a, b) =>
        (BREADTH[a.file.layer] ?? 3) - (BREADTH[b.file.layer] ?? 3) ||
        (a.file.depth ?? 0) - (b.file.depth ?? 0) ||
        a.index - b.index,
    );
  const droppedIndexes = new Set<number>();
  const dropped: string[] = [];
  for (const { file, index } of order.slice(0, -1)) {
    droppedIndexes.add(index);
    dropped.push(file.path);
    const kept = files.filter((_, position) => !droppedIndexes.has(position));
    const text = renderFormat(format, kept, context, notice(dropped, null));
    if (fits(text)) return { text, kept, dropped, truncated: null, capped };
  }

  const last = order[order.length - 1];
  if (last !== undefined) {
    const chars = Array.from(last.file.text);
    const attempt = (count: number) => {
      const cut = { ...last.file, text: chars.slice(0, count).join('') };
      return { cut, text: renderFormat(format, [cut], context, notice(dropped, last.file.path)) };
    };
    if (chars.length > 0 && fits(attempt(1).text)) {
      let low = 1;
      let high = chars.length - 1;
      while (low < high) {
        const middle = Math.ceil((low + high) / 2);
        if (fits(attempt(middle).text)) low = middle;
        else high = middle - 1;
      }
      const { cut, text } = attempt(low);
      return { text, kept: [cut], dropped, truncated: last.file.path, capped };
    }
    dropped.push(last.file.path);
  }
  for (const short of [false, true]) {
    const text = renderFormat(format, [], context, notice(dropped, null, short));
    if (fits(text)) return { text, kept: [], dropped, truncated: null, capped };
  }
  return { text: '', kept: [], dropped, truncated: null, capped };
}
