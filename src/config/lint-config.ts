import type { Diagnostic } from '../errors.js';
import { checkRelativeEntry, describeRefusal } from '../fs/contain.js';
import { KNOWN_MODES, KNOWN_RULE_SOURCES } from './types.js';
import type { Config, ContextLayer, Flow } from './types.js';
import { formatKeyPath } from '../errors.js';

/**
 * The place a finding names before its problem: `<file>:<line>:<col>: <key.path>: ` (`file` is the
 * config or flow file the key is in, `null` when it is not known).
 */
export type PlaceKey = (file: string | null, keyPath: readonly PropertyKey[]) => string;

/** `contextPaths[1]: `: the key path alone. */
const keyPathOnly: PlaceKey = (_file, keyPath) => `${formatKeyPath(keyPath)}: `;

const TOKEN = /\$\{([^}]*)\}/g;
const KNOWN_TOKEN = /^(agent|flow\.id|flow\.step|env\.[A-Za-z_][A-Za-z0-9_]*)$/;
/**
 * What makes an entry look like a glob: `*`, `?`, or a `{a,b}` alternation. Entries are literal
 * paths (docs/config.md, "Entries"). Brackets and parentheses alone are not flagged: they name real
 * directories (`app/[id]/`, `app/(shop)/` in Next.js).
 */
const GLOB_LIKE = /[*?]|\{[^{}]*,[^{}]*\}/;

/**
 * Static checks that need no filesystem: unknown modes, unknown tokens, and entries that can never
 * be inside the work dir. Each finding is a `warn` diagnostic, because at run time these entries
 * are skipped rather than failing the resolution.
 */
export function lintConfig(
  config: Config,
  flows: ReadonlyMap<string, Flow>,
  { file = null, place = keyPathOnly }: { file?: string | null; place?: PlaceKey } = {},
): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  checkEntries(diagnostics, (index) => place(file, ['contextPaths', index]), 'global', config.contextPaths);
  for (const source of config.rules?.sources ?? [])
    if (!(KNOWN_RULE_SOURCES as readonly string[]).includes(source))
      diagnostics.push({
        level: 'warn',
        code: 'rule-source',
        message: `${place(file, ['rules', 'sources'])}unknown source ${JSON.stringify(source)} is ignored (known sources: ${KNOWN_RULE_SOURCES.join(', ')})`,
      });
  for (const [id, agent] of Object.entries(config.agents))
    checkLayer(
      diagnostics,
      (keys) => place(file, ['agents', id, 'context', ...keys]),
      'agent',
      agent.context,
    );
  for (const flow of flows.values()) {
    for (const [index, step] of flow.steps.entries())
      checkLayer(
        diagnostics,
        (keys) => place(flow.file, ['steps', index, 'context', ...keys]),
        'step',
        step.context,
      );
  }
  return diagnostics;
}

/** Unknown tokens, glob-like entries and entries that can never be inside the work dir. */
function checkEntries(
  diagnostics: Diagnostic[],
  placeOf: (index: number) => string,
  layer: string,
  entries: readonly string[],
): void {
  for (const [index, entry] of entries.entries()) {
    const where = placeOf(index);
    for (const match of entry.matchAll(TOKEN)) {
      if (!KNOWN_TOKEN.test(match[1] as string)) {
        diagnostics.push({
          level: 'warn',
          code: 'unknown-token',
          message: `${where}${JSON.stringify(entry)} holds the unknown token ${match[0]}; the entry will always be skipped`,
          layer,
          entry,
        });
      }
    }
    if (GLOB_LIKE.test(entry.replace(TOKEN, 'x'))) {
      diagnostics.push({
        level: 'warn',
        code: 'glob-entry',
        message: `${where}${JSON.stringify(entry)} looks like a glob, but entries are matched literally, so it names nothing; list the files or name their directory with a trailing "/"`,
        layer,
        entry,
      });
    }
    const refusal = checkRelativeEntry(entry.replace(TOKEN, 'x'));
    if (refusal !== null) {
      diagnostics.push({
        level: 'warn',
        code: 'invalid-entry',
        message: `${where}${JSON.stringify(entry)} will be skipped: ${describeRefusal(refusal)}`,
        layer,
        entry,
      });
    }
  }
}

/** An unknown mode of one context layer, and the entries of its paths. */
function checkLayer(
  diagnostics: Diagnostic[],
  placeOf: (keys: readonly PropertyKey[]) => string,
  layer: string,
  context: ContextLayer | undefined,
): void {
  if (context === undefined) return;
  if (context.mode !== undefined && !(KNOWN_MODES as readonly string[]).includes(context.mode)) {
    diagnostics.push({
      level: 'warn',
      code: 'unknown-mode',
      message: `${placeOf(['mode'])}unknown mode ${JSON.stringify(context.mode)} acts as "append" (known modes: replace, append)`,
      layer,
    });
  }
  if (context.paths !== undefined)
    checkEntries(diagnostics, (index) => placeOf(['paths', index]), layer, context.paths);
}
