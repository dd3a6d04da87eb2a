import { augmentAdapter } from './adapters/augment.js';
import { claudeAdapter } from './adapters/claude.js';
import { clineAdapter } from './adapters/cline.js';
import { continueAdapter } from './adapters/continue.js';
import { copilotAdapter } from './adapters/copilot.js';
import { cursorAdapter } from './adapters/cursor.js';
import { junieAdapter, zedAdapter } from './adapters/single-file.js';
import { kiroAdapter } from './adapters/kiro.js';
import { qwenAdapter } from './adapters/qwen.js';
import { kiloAdapter, rooAdapter } from './adapters/roo.js';
import { windsurfAdapter } from './adapters/windsurf.js';
import { readsIn, type RuleAdapter } from './rule-adapter.js';

/** Every vendor adapter by source name (the values of `rules.sources`). One row per vendor. */
export const RULE_ADAPTERS: ReadonlyMap<string, RuleAdapter> = new Map(
  [
    cursorAdapter,
    claudeAdapter,
    copilotAdapter,
    windsurfAdapter,
    clineAdapter,
    kiroAdapter,
    continueAdapter,
    rooAdapter,
    kiloAdapter,
    junieAdapter,
    zedAdapter,
    augmentAdapter,
    qwenAdapter,
  ].map((adapter) => [adapter.source, adapter]),
);

/** The accepted `rules.sources` names, in table order. */
export const RULE_SOURCES: readonly string[] = [...RULE_ADAPTERS.keys()];

/**
 * The first path segment of every location the given sources read in a directory below the work dir
 * (`.cursor`, `.github`, …): a walk that skips dot entries can use it to tell which directories may
 * own rules. With `instructionNames`, a file location those names already read as a nested file is
 * left out ({@link readsIn}: a directory holding only its `AGENTS.md` owns no rule then), and so is
 * one read only in the work dir (Zed's `.rules`).
 */
export function ruleEntryNames(
  sources: readonly string[],
  instructionNames?: ReadonlySet<string>,
): ReadonlySet<string> {
  const names = new Set<string>();
  for (const source of sources)
    for (const location of RULE_ADAPTERS.get(source)?.locations ?? [])
      if (instructionNames === undefined || readsIn(location, 'nested', instructionNames))
        names.add(location.path.split('/')[0] as string);
  return names;
}
