import type { BudgetConfig, Format } from '../config/types.js';
import type { Diagnostic } from '../errors.js';
import { applyBudget, MAX_RENDERED_BYTES } from '../render/apply-budget.js';
import type { TokenCounter } from '../render/count-tokens.js';
import { frameBreaks, type RenderContext } from '../render/render-formats.js';
import type { ContextFile } from '../resolve/read-context-file.js';

/** A rendered block and what the budget did to it. */
export interface RenderedBlock {
  /** The files shown (a file cut by the budget is listed with its full text). */
  readonly files: readonly ContextFile[];
  readonly text: string;
  /** `budget-dropped` and `budget-truncated` warnings. */
  readonly diagnostics: readonly Diagnostic[];
}

/**
 * Renders resolved files in a format within the configured budget (bytes, and tokens when a
 * counter is given), spent as `budget.strategy`, `budget.counts` and `budget.scope` say
 * (docs/formats.md#budget). A zero budget renders nothing, except the files `scope: project`
 * does not count. Each file left out or cut is a warning.
 */
export function renderBlock(
  format: Format,
  files: readonly ContextFile[],
  context: RenderContext,
  budget: BudgetConfig,
  countTokens: TokenCounter | null,
): RenderedBlock {
  if ((budget.maxBytes === 0 || budget.maxTokens === 0) && budget.scope !== 'project') {
    return { files: Object.freeze([]), text: '', diagnostics: files.map(budgetDropped) };
  }
  const fits = (text: string) =>
    (budget.maxBytes === null || Buffer.byteLength(text, 'utf8') <= budget.maxBytes) &&
    (countTokens === null || budget.maxTokens === null || countTokens(text) <= budget.maxTokens);
  const result = applyBudget(format, files, context, fits, {
    strategy: budget.strategy,
    counts: budget.counts,
    scope: budget.scope,
  });
  const byPath = new Map(files.map((file) => [file.path, file]));
  const diagnostics = result.dropped.map((file) => budgetDropped(byPath.get(file) as ContextFile));
  const cut = result.truncated === null ? undefined : byPath.get(result.truncated);
  if (cut !== undefined) {
    diagnostics.push({
      level: 'warn',
      code: 'budget-truncated',
      message: `${cut.path} is cut short to fit the budget`,
      layer: cut.layer,
      entry: cut.entry,
      path: cut.path,
    });
  }
  if (result.capped)
    diagnostics.unshift({
      level: 'warn',
      code: 'render-cap',
      message: `the rendered block would pass ${MAX_RENDERED_BYTES} bytes, the most ctxfiles renders; files are left out or cut as for a budget`,
    });
  const dropped = new Set(result.dropped);
  for (const file of files)
    if (!dropped.has(file.path)) {
      const breaks = frameBreaks(format, file.text, context.formats);
      if (breaks !== null) diagnostics.push(frameEscaped(file, breaks));
    }
  return {
    files: Object.freeze(files.filter((file) => !dropped.has(file.path))),
    text: result.text,
    diagnostics,
  };
}

/** A file whose text holds its host's frame: ctxfiles shows it escaped, the host would not. */
function frameEscaped(file: ContextFile, breaks: string): Diagnostic {
  return {
    level: 'warn',
    code: 'frame-escaped',
    message: `${file.path} holds ${breaks}; ctxfiles shows it escaped, so the block above is not what the host sends`,
    layer: file.layer,
    entry: file.entry,
    path: file.path,
  };
}

function budgetDropped(file: ContextFile): Diagnostic {
  return {
    level: 'warn',
    code: 'budget-dropped',
    message: `${file.path} is left out to fit the budget`,
    layer: file.layer,
    entry: file.entry,
    path: file.path,
  };
}
