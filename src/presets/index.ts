import { claudeCode } from './claude-code.js';
import { codex } from './codex.js';
import { copilot } from './copilot.js';
import { cursor } from './cursor.js';
import { geminiCli } from './gemini-cli.js';
import { opencode } from './opencode.js';
import { opencodeGo } from './opencode-go.js';
import type { Preset } from './preset.js';

export type { Preset } from './preset.js';

/** Every preset, in the order `ctxfiles presets` lists them (docs/presets.md). */
export const PRESETS: readonly Preset[] = Object.freeze([
  opencode,
  opencodeGo,
  codex,
  claudeCode,
  cursor,
  copilot,
  geminiCli,
]);

/** The names `preset` and `--preset` accept. */
export const PRESET_NAMES: readonly string[] = Object.freeze(PRESETS.map((preset) => preset.name));

/** One line per preset, by name, for `ctxfiles presets`. */
export const PRESET_SUMMARIES: Readonly<Record<string, string>> = Object.freeze(
  Object.fromEntries(PRESETS.map((preset) => [preset.name, preset.summary])),
);

/**
 * The config object of a preset, deeply frozen; `undefined` for a name that is not a preset
 * (names are exact: `codex`, not `Codex`).
 */
export function getPreset(name: string): Readonly<Record<string, unknown>> | undefined {
  return PRESETS.find((preset) => preset.name === name)?.config;
}
