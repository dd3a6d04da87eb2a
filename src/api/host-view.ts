import path from 'node:path';
import type { ConfigInput } from '../config/schema.js';
import type { HostProfile } from '../config/types.js';
import type { FileSystem } from '../fs/file-system.js';
import type { HostView as HostViewData } from '../registry/host.js';
import type { HostRegistry } from '../registry/registry.js';
import type { InViewTest, ShownItem } from '../session/identity.js';

/** Options of {@link openHostView}. */
export interface HostViewOptions {
  /** The host's main preset (its name and config), or `undefined` for a host without one. */
  readonly preset:
    | {
        readonly name: string;
        readonly config: Readonly<Record<string, unknown>>;
        readonly profile?: Readonly<Partial<HostProfile>> | undefined;
      }
    | undefined;
  /** The host's view after tool calls; absent: the host adds nothing by itself after a tool call. */
  readonly view: HostViewData | undefined;
  readonly workDir: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly homeDir: string;
  /** Default: Node's. */
  readonly fs?: FileSystem;
  /** The host registry, handed down: the preset's settings files and its resolution need it. */
  readonly hosts: HostRegistry;
}

/** A host's own view in one work dir (DESIGN §13, "A host's own view"). */
export interface HostView {
  /**
   * Real paths (and paths) of the files the host loads by itself at start: what its preset, with
   * the host's own settings files (Gemini CLI's `context.fileName`), resolves in the work dir.
   */
  start(): Promise<ReadonlySet<string>>;
  /** True for a nested file or rule the host shows by itself once a tool works near it. */
  readonly test: InViewTest;
}

/**
 * Opens the view of a host in a work dir. Start files are resolved on first use; the test checks,
 * for a nested file or rule, whether one of the host's own names in its directory leads to the
 * same file (a link twin counts), or whether the host reads the rule's source itself.
 */
export async function openHostView(options: Readonly<HostViewOptions>): Promise<HostView> {
  const fs = options.fs ?? (await import('../fs/node-file-system.js')).createNodeFileSystem();
  const own = await ownConfig(options, fs);
  let start: Promise<ReadonlySet<string>> | undefined;
  const fallbackNames = options.preset?.profile?.fallbackCandidates ?? [];
  const names = ownNames(own, fallbackNames, options.view, options.workDir, fs);
  const sources = new Set(options.view?.rules?.sources ?? []);
  return {
    start: () => (start ??= startFiles(options, own, fs)),
    test: (item: ShownItem) => {
      if (item.source !== undefined && sources.has(item.source)) return true;
      const real = item.realPath ?? item.path;
      return names.some((name) => leadsTo(fs, path.join(item.ownerDir, name), real));
    },
  };
}

/** The host's preset with its own settings files layered over it; `null` without a preset. */
async function ownConfig(
  options: Readonly<HostViewOptions>,
  fs: FileSystem,
): Promise<Readonly<Record<string, unknown>> | null> {
  const { preset } = options;
  if (preset === undefined) return null;
  const [{ readHostSettings }, { mergeLayers }] = await Promise.all([
    import('../config/host-settings.js'),
    import('../config/trust.js'),
  ]);
  const settings = options.hosts.hostOfPreset(preset.name)?.settings;
  const layers = await readHostSettings(settings, preset.name, preset.config, {
    fs,
    cwd: options.workDir,
    homeDir: options.homeDir,
    env: options.env,
    trusted: false,
    display: (file) => file,
    diagnostics: [],
  });
  return mergeLayers(preset.config, layers.value);
}

async function startFiles(
  options: Readonly<HostViewOptions>,
  own: Readonly<Record<string, unknown>> | null,
  fs: FileSystem,
): Promise<ReadonlySet<string>> {
  const files = new Set<string>();
  if (own === null) return files;
  const { createResolver } = await import('./create-resolver.js');
  const native = await createResolver(
    {
      workDir: options.workDir,
      // Named, so that the preset's host profile applies as well.
      config: { ...own, preset: options.preset?.name } as ConfigInput,
      env: options.env,
      homeDir: options.homeDir,
      fs,
    },
    options.hosts,
  );
  for (const file of (await native.resolve()).files) {
    files.add(file.path);
    files.add(file.realPath);
  }
  return files;
}

/**
 * The file names the host loads by itself in a directory a tool works in: its preset's candidates
 * that name a file (after its settings), and its fallback names when the project holds none of
 * them from the work dir up (Claude Code's AGENTS.md where there is no CLAUDE.md).
 */
function ownNames(
  own: Readonly<Record<string, unknown>> | null,
  fallbackNames: readonly string[],
  view: HostViewData | undefined,
  workDir: string,
  fs: FileSystem,
): string[] {
  const nested = view?.nested;
  if (nested === undefined) return [];
  const instructions = (own?.['instructions'] ?? {}) as Record<string, unknown>;
  const plain = (value: unknown): string[] =>
    (Array.isArray(value) ? value : []).filter(
      (name): name is string => typeof name === 'string' && !name.startsWith('@') && !name.includes('/'),
    );
  const names = nested.names === 'candidates' ? plain(instructions['candidates']) : [...nested.names];
  if (nested.fallback !== true) return names;
  const fallback = plain(fallbackNames);
  return fallback.length > 0 && !heldUpward(fs, workDir, names) ? [...names, ...fallback] : names;
}

/** True when a directory from `dir` up to the filesystem root holds a file of one of `names`. */
function heldUpward(fs: FileSystem, dir: string, names: readonly string[]): boolean {
  for (let current = dir; ; current = path.dirname(current)) {
    if (names.some((name) => probe(fs, path.join(current, name)))) return true;
    if (path.dirname(current) === current) return false;
  }
}

function probe(fs: FileSystem, file: string): boolean {
  try {
    return fs.probe(file) !== null;
  } catch {
    return false;
  }
}

function leadsTo(fs: FileSystem, file: string, real: string): boolean {
  try {
    return fs.realpath(file) === real;
  } catch {
    return false;
  }
}
