import path from 'node:path';
import type { Resolver, ResolveResult } from '../api/create-resolver.js';
import type { ConfigInput } from '../config/schema.js';
import { renderSessionFrame, renderSessionFrames } from '../render/render-session-frame.js';
import type { FrameFile } from '../render/render-types.js';
import type { Preset } from '../registry/host.js';
import type { HostRegistry } from '../registry/registry.js';

/** Options of {@link startBlock}. */
export interface StartBlockOptions {
  readonly resolver: Resolver;
  /** The session's resolution (`resolver.resolve()`). */
  readonly result: ResolveResult;
  /** The main preset of the host the hook runs in (absent: a host without one). */
  readonly preset: Preset | undefined;
  /** The host registry: the session frames of host formats, the preset's resolution. */
  readonly hosts: HostRegistry;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly homeDir: string;
  /** How the agent gets the frames (all of them at once); default: as they are. */
  readonly present?: (text: string) => string;
  /**
   * Paths and real paths of what the agent loads itself at start (its host view,
   * src/api/host-view.ts); absent: what its preset resolves in the work dir. An empty set repeats
   * everything (`contextDiscovery.repeatHostFiles`).
   */
  readonly own?: ReadonlySet<string>;
}

/**
 * What a session start adds before the manifest: each resolved file the agent does not load
 * itself (a Cursor `alwaysApply` rule, `AGENTS.md` for Claude Code,
 * `.github/copilot-instructions.md`, ...), in the session frames of the hook's format, joined as
 * the host joins them (Gemini CLI: one wrapper). What the agent loads itself is what its
 * preset resolves in the same work dir (docs/presets.md): those files are never repeated. Files
 * are added in the block's order while their frames fit in `contextDiscovery.maxSessionBytes`;
 * the rest are named in one closing line. Empty when nothing is left.
 */
export async function startBlock(options: Readonly<StartBlockOptions>): Promise<string> {
  const { resolver, result } = options;
  if (result.files.length === 0) return '';
  const own = options.own ?? (await presetFiles(options));
  const context = {
    workDir: resolver.workDir,
    homeDir: options.homeDir,
    wording: resolver.config.wording,
    formats: options.hosts.format,
  };
  const cap = resolver.config.contextDiscovery.maxSessionBytes;
  const kept: FrameFile[] = [];
  const left: string[] = [];
  let bytes = 0;
  for (const file of result.files) {
    // One file by two names (`CLAUDE.md -> AGENTS.md`) is one: compared by real path.
    if (own.has(file.path) || own.has(file.realPath)) continue;
    // A file of the block applies everywhere: its frame names no directory.
    const framed = { path: file.path, dir: resolver.workDir, text: file.text };
    // Each file is measured in a frame of its own: never less than its share of the joined frames.
    const frame = renderSessionFrame(result.format, framed, context);
    if (frame === '') continue;
    const size = Buffer.byteLength(frame, 'utf8') + 1;
    if (left.length > 0 || bytes + size > cap) left.push(path.relative(resolver.workDir, file.path));
    else {
      kept.push(framed);
      bytes += size;
    }
  }
  const frames = renderSessionFrames(result.format, kept, context);
  const shown = frames !== '' ? (options.present ?? ((text: string) => text))(frames) : '';
  if (left.length === 0) return shown;
  const note = `(${left.length} more instruction ${left.length === 1 ? 'file' : 'files'} not shown: over contextDiscovery.maxSessionBytes, ${cap} bytes)`;
  return shown === '' ? note : `${shown}\n${note}`;
}

/** The paths and real paths of what the agent's preset resolves in the work dir. */
async function presetFiles(options: Readonly<StartBlockOptions>): Promise<ReadonlySet<string>> {
  const { createResolver } = await import('../api/create-resolver.js');
  const { preset } = options;
  const own = new Set<string>();
  if (preset === undefined) return own;
  const native = await createResolver(
    {
      workDir: options.resolver.workDir,
      // Named, so that the preset's host profile applies as well.
      config: { ...preset.config, preset: preset.name } as ConfigInput,
      env: options.env,
      homeDir: options.homeDir,
    },
    options.hosts,
  );
  for (const file of (await native.resolve()).files) {
    own.add(file.path);
    own.add(file.realPath);
  }
  return own;
}
