import { CtxfilesError, type Diagnostic } from '../errors.js';
import { isAbsent, type FileSystem } from '../fs/file-system.js';
import type { HostSettings, HostSettingsFile } from '../registry/host.js';
import { readSourceFile, statKind } from './read-source.js';
import { mergeLayers, sanitizeProjectConfig, type DroppedKey } from './trust.js';

/** What loading needs to read a host's settings files (see {@link readHostSettings}). */
export interface HostSettingsContext {
  readonly fs: FileSystem;
  readonly cwd: string;
  readonly homeDir: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** True when the user config trusts the project: then project-tier settings keep every key. */
  readonly trusted: boolean;
  readonly display: (file: string) => string;
  /** Warnings are pushed here. */
  readonly diagnostics: Diagnostic[];
}

/** The host settings layered over a preset, and where they came from. */
export interface HostSettingsLayers {
  /** The values of every file, merged in order (lowest precedence first). */
  readonly value: Record<string, unknown>;
  /** One entry per file that set something: its path, tier and top-level keys. */
  readonly files: ReadonlyArray<{ readonly source: string; readonly keys: readonly string[] }>;
  /** Keys a project-tier file may not set (DESIGN §12), dropped. */
  readonly dropped: readonly DroppedKey[];
  /**
   * The `instructions.globs` patterns each file added to the ones before it, with its path and
   * tier: a project-tier file's patterns match only in its directory and below (src/config/trust.ts).
   */
  readonly globs: ReadonlyArray<{
    readonly pattern: string;
    readonly file: string;
    readonly tier: 'user' | 'project';
  }>;
}

/**
 * Reads the settings files of the host that defines `preset` (`settings`, from the host registry:
 * Codex's `config.toml`, ...), as config
 * values to layer over the preset (docs/presets.md, "Host settings"). A file that is absent is passed
 * over; one that cannot be read or parsed is a `warn` `host-settings-invalid` and leaves the preset's
 * values standing: a host's settings never fail a resolution. A project-tier file loses the keys that
 * widen reads unless the project is trusted.
 */
export async function readHostSettings(
  settings: HostSettings | undefined,
  preset: string,
  presetConfig: Readonly<Record<string, unknown>>,
  context: HostSettingsContext,
): Promise<HostSettingsLayers> {
  let value: Record<string, unknown> = {};
  const files: Array<{ source: string; keys: string[] }> = [];
  const dropped: DroppedKey[] = [];
  const globs: Array<{ pattern: string; file: string; tier: 'user' | 'project' }> = [];
  if (settings === undefined) return { value, files, dropped, globs };
  const { cwd, homeDir, env, display, diagnostics } = context;
  // The environment is the user's: its values are user-tier, as a file in the home is.
  const fromEnvironment = settings.environment?.({ preset, cwd, homeDir, env }) ?? null;
  if (fromEnvironment !== null && Object.keys(fromEnvironment.config).length > 0) {
    files.push({ source: fromEnvironment.name, keys: Object.keys(fromEnvironment.config) });
    value = mergeLayers(value, fromEnvironment.config);
  }
  for (const file of settings.files({ preset, cwd, homeDir, env })) {
    // Most of these files are absent: asked first, with no shown path and no error built for them.
    if (isAbsentFile(context.fs, file.path)) continue;
    const shown = display(file.path);
    const text = readSettingsFile(context.fs, file, shown, diagnostics);
    if (text === null) continue;
    const read = await settings.read(text, { ...file, shown }, mergeLayers(presetConfig, value));
    diagnostics.push(...read.diagnostics);
    let config = read.config;
    if (file.tier === 'project' && !context.trusted) {
      const sanitized = sanitizeProjectConfig(config, file.path, shown, diagnostics);
      config = sanitized.value;
      dropped.push(...sanitized.dropped);
    }
    if (Object.keys(config).length === 0) continue;
    files.push({ source: file.path, keys: Object.keys(config) });
    const before = new Set(globsOf(mergeLayers(presetConfig, value)));
    for (const pattern of globsOf(config))
      if (!before.has(pattern)) globs.push({ pattern, file: file.path, tier: file.tier });
    value = mergeLayers(value, config);
  }
  return { value, files, dropped, globs };
}

/** The `instructions.globs` strings of a config value (none when it sets no list). */
export function globsOf(value: Readonly<Record<string, unknown>>): string[] {
  const globs = (value['instructions'] as { globs?: unknown } | undefined)?.globs;
  return Array.isArray(globs) ? globs.filter((glob): glob is string => typeof glob === 'string') : [];
}

/**
 * True when nothing is at `file` (`stat` would say `ENOENT` or `ENOTDIR`); any other answer is left
 * to {@link readSettingsFile}, which reads it through `stat` and words what it finds.
 */
function isAbsentFile(fs: FileSystem, file: string): boolean {
  try {
    return statKind(fs, file) === null;
  } catch (error) {
    return isAbsent(error);
  }
}

/** The text of a settings file; `null` when it is absent, or unreadable (with a warning). */
function readSettingsFile(
  fs: FileSystem,
  file: HostSettingsFile,
  shown: string,
  diagnostics: Diagnostic[],
): string | null {
  try {
    return readSourceFile(fs, file.path, shown, 'config-syntax');
  } catch (error) {
    if (isAbsent(error) || isAbsent((error as { cause?: unknown }).cause)) return null;
    const problem = error instanceof CtxfilesError ? error.message : `${shown}: cannot read the file`;
    diagnostics.push({
      level: 'warn',
      code: 'host-settings-invalid',
      message: `${problem}; the preset's values apply`,
      path: file.path,
    });
    return null;
  }
}
