import path from 'node:path';
import type { ResolveResult } from '../api/create-resolver.js';
import type { Config } from '../config/types.js';
import { HOST_REGISTRY as hosts } from '../hosts/index.js';
import { escapeControl } from '../render/escape.js';

/**
 * Why `resolve` or `manifest` printed nothing, as one line for stderr (docs/cli.md, "When nothing is
 * printed"): what was looked for, what kept entries out, which rules wait for a path or a name, and
 * which other preset would read files here. Only called when the output is empty, so the presets it
 * tries cost nothing on an ordinary run.
 */
export async function emptyOutputLine(input: Readonly<EmptyOutputInput>): Promise<string> {
  const { kind, config, result } = input;
  if (kind === 'block' && result.diagnostics.some((diagnostic) => diagnostic.code === 'budget-dropped'))
    return 'ctxfiles: nothing to print: the budget (budget.maxBytes or budget.maxTokens) leaves every file out\n';
  const parts = [kind === 'block' ? lookedForBlock(config) : lookedForManifest(config)];
  // Entries skipped for a token explain an empty block; the manifest has no entries of its own.
  if (kind === 'block')
    for (const diagnostic of result.diagnostics)
      if (diagnostic.code === 'empty-token' || diagnostic.code === 'unknown-token')
        parts.push(diagnostic.message);
  const waiting = waitingRules(result);
  if (waiting !== '') parts.push(waiting);
  // A hint kept by an earlier run whose every question has the same answer now is the same hint.
  let hint = input.hints?.lookup();
  if (hint === undefined) {
    hint = await presetHint(input);
    input.hints?.keep(hint);
  }
  if (hint !== '') parts.push(hint);
  return `ctxfiles: nothing to print: ${escapeControl(parts.join('; '))}\n`;
}

/** What {@link emptyOutputLine} needs. */
export interface EmptyOutputInput {
  readonly kind: 'block' | 'manifest';
  readonly config: Config;
  readonly result: ResolveResult;
  /** The preset in use (`--preset` or the config's), not suggested again. */
  readonly preset: string | undefined;
  /** The presets that may be suggested, in order. */
  readonly presets: readonly string[];
  /** The same request with another preset, manifest included, and its config; `null` when that fails. */
  tryPreset(name: string): Promise<{ readonly result: ResolveResult; readonly config: Config } | null>;
  /**
   * Where the preset hint is kept between runs (src/cli/hint-cache.ts): `tryPreset` must then learn
   * the filesystem only through the port whose questions the cache hears.
   */
  readonly hints?: { lookup(): string | undefined; keep(hint: string): void };
}

/** The presets never suggested: `opencode-go` inlines rule folders raw, which rules on already read. */
const NOT_SUGGESTED = new Set(['opencode-go']);

function lookedForBlock(config: Config): string {
  const looked: string[] = [];
  if (config.contextPaths.length > 0) looked.push(listed(config.contextPaths));
  if (config.instructions.walk !== 'off')
    looked.push(`${listed(config.instructions.candidates)} from the ${config.instructions.walk} down`);
  const sources = config.rules?.sources ?? [];
  if (sources.length > 0) looked.push(`the rule folders of ${sources.join(', ')}`);
  return looked.length === 0
    ? 'the config names no file to look for'
    : `no instruction file applies here (looked for ${looked.join(', and ')})`;
}

function lookedForManifest(config: Config): string {
  if (!config.contextDiscovery.enabled || config.contextDiscovery.mode === 'off')
    return 'nested disclosure is off (contextDiscovery)';
  const names = [
    ...new Set([
      ...config.contextPaths.filter((entry) => !entry.endsWith('/')).map((entry) => path.basename(entry)),
      ...(config.instructions.walk === 'off'
        ? []
        : config.instructions.candidates.filter((name) => name !== '@rules')),
    ]),
  ];
  if (names.length === 0) return 'no file names to look for below the work dir, and no rule on request';
  return `no nested instruction file below the work dir (looked for ${listed(names)}) and no rule on request`;
}

/** Rules found that wait for a matching path or their name: they explain an empty block. */
function waitingRules(result: ResolveResult): string {
  const rules = result.rules ?? [];
  const glob = rules.filter((rule) => rule.kind === 'glob' && !rule.applied).length;
  const named = rules.filter(
    (rule) => (rule.kind === 'manual' || rule.kind === 'requested') && !rule.applied,
  ).length;
  const parts: string[] = [];
  if (glob > 0) parts.push(`${count(glob, 'glob rule')} ${verb(glob)} only to matching paths (--paths P)`);
  if (named > 0) parts.push(`${count(named, 'rule')} ${verb(named)} only when named (--rule NAME)`);
  return parts.join('; ');
}

async function presetHint(input: Readonly<EmptyOutputInput>): Promise<string> {
  let best: { name: string; files: string[]; names: number } | undefined;
  // Every preset is tried: their hosts load at once.
  void hosts.hosts;
  for (const name of input.presets) {
    if (name === input.preset || NOT_SUGGESTED.has(name)) continue;
    const other = await input.tryPreset(name);
    if (other === null) continue;
    const { result, config } = other;
    // The manifest lists nested files only: a preset's block says nothing about it.
    const block = input.kind === 'block' ? result.files.map((file) => file.path) : [];
    const files = [...block, ...result.nested.map((file) => file.path)];
    // On a tie the preset that looks for fewer names is the closer fit (gemini-cli over copilot for
    // GEMINI.md files, which both read).
    const names = config.contextPaths.length + config.instructions.candidates.length;
    if (
      files.length > 0 &&
      (best === undefined ||
        files.length > best.files.length ||
        (files.length === best.files.length && names < best.names))
    )
      best = { name, files, names };
  }
  if (best === undefined) return '';
  const names = [...new Set(best.files.map((file) => path.basename(file)))].sort();
  const what =
    names.length === 1
      ? count(best.files.length, `${names[0] as string} file`)
      : count(best.files.length, 'instruction file');
  // A host whose own settings can name other files (Gemini CLI's `context.fileName`) is told how;
  // another tool's preset would not change what this host loads.
  const settings = input.preset === undefined ? undefined : hosts.hostOfPreset(input.preset)?.settings;
  if (settings?.readsNamesWhen !== undefined) return `${what} here: ${settings.readsNamesWhen(names)}`;
  return `${what} here: try \`--preset ${best.name}\``;
}

/** `AGENTS.md, CLAUDE.md, … (12)`: the first four names and how many there are. */
function listed(names: readonly string[]): string {
  return names.length <= 4 ? names.join(', ') : `${names.slice(0, 4).join(', ')}, … (${names.length} names)`;
}

function verb(n: number): string {
  return n === 1 ? 'applies' : 'apply';
}

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}
