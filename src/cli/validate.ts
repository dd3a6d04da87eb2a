import { undeclaredStepAgents } from '../api/select-request.js';
import { statSync } from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../config/load-config.js';
import { HOST_REGISTRY as hosts } from '../hosts/index.js';
import { CONFIG_SEARCH_PLACES } from '../config/search-places.js';
import { DEFAULT_CONFIG, KNOWN_TOP_LEVEL_KEYS } from '../config/defaults.js';
import { lintConfig } from '../config/lint-config.js';
import { loadFlowFiles } from '../config/load-flows.js';
import { readSourceFile, relativeDisplay } from '../config/read-source.js';
import { createNodeFileSystem } from '../fs/node-file-system.js';
import { createKeyLocator, formatKeyPath, parseSourceText } from '../config/source-text.js';
import { CtxfilesError, formatProblem, type Diagnostic, type Problem } from '../errors.js';
import { sameStrings } from '../shared/same-strings.js';

/** Options of {@link validateFiles}. */
export interface ValidateOptions {
  /** Files to check: configs (recognized by name and shape) and flow files. */
  readonly files: readonly string[];
  readonly cwd: string;
  readonly configFile?: string | undefined;
  /** A preset the config is merged over (docs/presets.md). */
  readonly preset?: string | undefined;
  /** The user config (`--user-config`); default: the standard location. */
  readonly userConfig?: string | undefined;
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly displayCwd: string;
}

/** What `validate` checked and noticed. */
export interface ValidateReport {
  readonly checked: readonly string[];
  readonly diagnostics: readonly Diagnostic[];
}

/**
 * Checks configs and flow files: syntax, schema, flows (includes, templates, cycles, duplicates),
 * then static lint (unknown modes and tokens, entries that can never be inside the work dir).
 * @throws CtxfilesError `workdir-invalid` when `cwd` is not a usable directory (as `resolve`); else
 * listing every problem in every file.
 */
export async function validateFiles(options: Readonly<ValidateOptions>): Promise<ValidateReport> {
  checkWorkDir(options.cwd);
  const display = relativeDisplay(options.displayCwd);
  const checked: string[] = [];
  const diagnostics: Diagnostic[] = [];
  const problems: Problem[] = [];
  let code: CtxfilesError['code'] | undefined;
  const attempt = async (action: () => Promise<void>) => {
    try {
      await action();
    } catch (error) {
      if (!(error instanceof CtxfilesError)) throw error;
      code ??= error.code;
      problems.push(...error.problems);
    }
  };

  const named = options.files.filter((file) => looksLikeConfig(path.resolve(options.displayCwd, file)));
  const flowFiles = options.files.filter((file) => !named.includes(file));
  // `undefined` stands for "search from --cwd": used when neither --config nor any file is given.
  const configFiles: Array<string | undefined> =
    options.configFile !== undefined
      ? [options.configFile, ...named]
      : options.files.length === 0
        ? [undefined]
        : named;
  for (const file of configFiles) {
    await attempt(async () => {
      const found = await checkConfig(options, file, display);
      checked.push(...found.checked);
      diagnostics.push(...found.diagnostics);
    });
  }
  if (flowFiles.length > 0) {
    await attempt(async () => {
      const absolute = flowFiles.map((file) => path.resolve(options.displayCwd, file));
      const flows = loadFlowFiles(absolute, display);
      for (const flow of flows.values())
        checked.push(`${display(flow.file)} (flow ${flow.id}, ${flow.steps.length} steps)`);
    });
  }
  if (problems.length > 0) throw new CtxfilesError(code ?? 'config-invalid', problems);
  return { checked, diagnostics };
}

/** Loads one config as `resolve` would (`file` undefined: searched from --cwd), then lints it. */
async function checkConfig(
  options: Readonly<ValidateOptions>,
  file: string | undefined,
  display: (file: string) => string,
): Promise<{ checked: string[]; diagnostics: Diagnostic[] }> {
  const checked: string[] = [];
  const diagnostics: Diagnostic[] = [];
  const loaded = await loadConfig(
    {
      cwd: options.cwd,
      configFile: file === undefined ? undefined : path.resolve(options.displayCwd, file),
      preset: options.preset,
      displayCwd: options.displayCwd,
      userConfig: options.userConfig,
      env: options.env,
      thorough: true,
    },
    hosts,
  );
  const name = loaded.filepath === null ? 'no config file found; defaults apply' : display(loaded.filepath);
  const flows = `${loaded.flows.size} flow${loaded.flows.size === 1 ? '' : 's'}`;
  const trust = describeDropped(loaded.dropped ?? []);
  checked.push(`${name} (${flows}${trust})`);
  for (const layer of loaded.layers ?? [])
    if (layer.tier === 'user' || layer.tier === 'preset' || layer.tier === 'host')
      checked.push(
        `${layer.tier === 'preset' ? `preset ${layer.source}` : display(layer.source)} (${layer.tier})`,
      );
  // Each finding names the file, line and column of its key (src/config/source-text.ts).
  const locate = createKeyLocator(createNodeFileSystem());
  const place = (at: string | null, keyPath: readonly PropertyKey[]) =>
    at === null
      ? `${formatKeyPath(keyPath)}: `
      : formatProblem({ file: display(at), ...locate(at, keyPath) }, '').message;
  diagnostics.push(
    ...loaded.diagnostics,
    ...lintConfig(loaded.config, loaded.flows, { file: loaded.filepath, place }),
  );
  const undeclared = undeclaredStepAgents(loaded.config, loaded.flows);
  if (undeclared.length > 0)
    throw new CtxfilesError(
      'unknown-agent',
      undeclared.map((message) => ({ message })),
    );
  if (loaded.flows.size === 0 && !sameStrings(loaded.config.flows, DEFAULT_CONFIG.flows)) {
    diagnostics.push({
      level: 'warn',
      code: 'flows-unmatched',
      message: `${place(loaded.filepath, ['flows'])}the globs ${loaded.config.flows.map((glob) => JSON.stringify(glob)).join(', ')} match no file (they are relative to ${loaded.filepath === null ? 'the work dir' : 'the config file'})`,
    });
  }
  return { checked, diagnostics };
}

/**
 * A file given to `validate` is a config when it is named like a config search place or a
 * `ctxfiles.config.*` / `*.opencode.json` file, or when it holds an object with a config key and
 * no `steps` (a flow always has steps). Anything else is checked as a flow file.
 */
function looksLikeConfig(file: string): boolean {
  const name = path.basename(file);
  if (CONFIG_SEARCH_PLACES.includes(name) || /^ctxfiles\.config\.|\.opencode\.json$/.test(name)) return true;
  if (!/\.(json|ya?ml)$/i.test(name)) return false;
  let value: unknown;
  try {
    // The bounded read of every config and flow file: a FIFO or an oversized file is refused here
    // (and reported when it is checked as a flow file), never read whole or waited on.
    value = parseSourceText(
      readSourceFile(createNodeFileSystem(), file, name, 'config-syntax'),
      name,
      'config-syntax',
    ).value;
  } catch {
    return false;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const keys = Object.keys(value);
  return (
    !keys.includes('steps') && keys.some((key) => KNOWN_TOP_LEVEL_KEYS.includes(key) && key !== '$schema')
  );
}

/** The work dir must be an existing directory, as for every other command (exit 1 otherwise). */
function checkWorkDir(dir: string): void {
  let isDirectory: boolean;
  try {
    isDirectory = statSync(dir).isDirectory();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'error';
    throw new CtxfilesError('workdir-invalid', `the work dir ${dir} cannot be used (${code})`, {
      cause: error,
    });
  }
  if (!isDirectory) throw new CtxfilesError('workdir-invalid', `the work dir ${dir} is not a directory`);
}

/** `; not trusted, ignored: a, b; preset claude-code: c` for the keys a trust tier dropped. */
function describeDropped(dropped: readonly { readonly keyPath: string; readonly preset?: string }[]): string {
  if (dropped.length === 0) return '';
  const own = dropped.filter((key) => key.preset === undefined).map((key) => key.keyPath);
  const byPreset = new Map<string, string[]>();
  for (const key of dropped)
    if (key.preset !== undefined)
      byPreset.set(key.preset, [...(byPreset.get(key.preset) ?? []), key.keyPath]);
  const parts = [
    ...(own.length === 0 ? [] : [own.join(', ')]),
    ...[...byPreset].map(([name, keys]) => `preset ${name}: ${keys.join(', ')}`),
  ];
  return `; not trusted, ignored: ${parts.join('; ')}`;
}
