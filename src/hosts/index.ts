import type { Format } from '../config/types.js';
import { claudeCodeHost } from './claude-code/index.js';
import { clineHost } from './cline/index.js';
import { codexHost } from './codex/index.js';
import { continueHost } from './continue/index.js';
import { copilotHost } from './copilot/index.js';
import { cursorHost } from './cursor/index.js';
import { geminiCliHost } from './gemini-cli/index.js';
import type { Host, HostFormat, HookProtocol } from './host.js';
import { kiloHost } from './kilo/index.js';
import { opencodeGoHost } from './opencode-go/index.js';
import { opencodeHost } from './opencode/index.js';
import { piHost } from './pi/index.js';
import { qwenCodeHost } from './qwen-code/index.js';

export type {
  Host,
  HostFormat,
  HostSettings,
  HostSettingsFile,
  HostSettingsPlace,
  HostSettingsRead,
  HookProtocol,
  HookTool,
  HostView,
  Preset,
} from './host.js';

/**
 * Every host ctxfiles reproduces, in the order `ctxfiles presets` lists their presets. The one
 * place that names them: the engine reaches a host's formats, presets and hook protocol only
 * through the lookups below.
 */
export const HOSTS: readonly Host[] = Object.freeze([
  opencodeHost,
  opencodeGoHost,
  codexHost,
  claudeCodeHost,
  cursorHost,
  copilotHost,
  geminiCliHost,
  continueHost,
  qwenCodeHost,
  kiloHost,
  piHost,
  clineHost,
]);

const FORMAT_TABLE: ReadonlyMap<string, HostFormat> = new Map(
  HOSTS.flatMap((host) => host.formats ?? []).map((format) => [format.name, format]),
);

/** The host format of that name, or `undefined` for the engine's own formats. */
export function hostFormat(name: Format): HostFormat | undefined {
  return FORMAT_TABLE.get(name);
}

/** The ids of the hosts with a hook protocol, in registry order (`ctxfiles hook <id>`). */
export const HOOK_HOSTS: readonly string[] = Object.freeze(
  HOSTS.filter((host) => host.hook !== undefined).map((host) => host.id),
);

/** The hook protocol of a host, or `undefined` when it has none. */
export function hookProtocol(id: string): HookProtocol | undefined {
  return HOSTS.find((host) => host.id === id)?.hook;
}

/** The host that defines a preset, or `undefined` for a name that is not a preset. */
export function hostOfPreset(name: string): Host | undefined {
  return HOSTS.find((host) => host.presets.some((preset) => preset.name === name));
}

/** The host of that id, or `undefined`. */
export function hostById(id: string): Host | undefined {
  return HOSTS.find((host) => host.id === id);
}
