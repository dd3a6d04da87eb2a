import { getPreset, PRESET_NAMES, PRESET_SUMMARIES } from '../presets/index.js';
import { EXIT, type CliIo } from './io.js';

/**
 * `ctxfiles presets` lists the presets, one line each; `ctxfiles presets show NAME` prints one as
 * JSON (docs/presets.md). An unknown action or name is a usage error (exit 2) that lists the names.
 */
export function presetsCommand(action: string | undefined, name: string | undefined, io: CliIo): number {
  if (action === undefined) {
    const width = Math.max(...PRESET_NAMES.map((preset) => preset.length));
    for (const preset of PRESET_NAMES)
      io.stdout.write(`${preset.padEnd(width)}  ${PRESET_SUMMARIES[preset]}\n`);
    return EXIT.ok;
  }
  if (action !== 'show') {
    io.stderr.write(`ctxfiles: error: unknown action "${action}"; use: ctxfiles presets [show NAME]\n`);
    return EXIT.usage;
  }
  const preset = name === undefined ? undefined : getPreset(name);
  if (preset === undefined) {
    const what = name === undefined ? 'name a preset' : `"${name}" is not a preset`;
    io.stderr.write(`ctxfiles: error: ${what}; the presets are: ${PRESET_NAMES.join(', ')}\n`);
    return EXIT.usage;
  }
  io.stdout.write(`${JSON.stringify(preset, null, 2)}\n`);
  return EXIT.ok;
}
