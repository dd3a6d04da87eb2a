import type { Format } from '../config/types.js';
import { renderEvent, type EventContext } from './render-events.js';
import { renderInjection } from './render-injection.js';
import { renderToolSessionFrame, type FrameFile } from './render-tool-formats.js';

/**
 * The frame that discloses a nested file in a tool result, in the format's own style
 * (docs/formats.md#session-frames): `opencode` uses its `<system-reminder># From:` frame, `codex`,
 * `claude-code` and `gemini` the frame their tool uses, `xml`, `reminder` and `magi` the
 * `Additional instructions from:` event frame. The empty string when there is nothing to show.
 */
export function renderSessionFrame(format: Format, file: FrameFile, context: EventContext): string {
  if (format === 'opencode') return renderInjection([file]);
  return (
    renderToolSessionFrame(format, [file]) ??
    renderEvent({ kind: 'new', path: file.path, dir: file.dir, text: file.text }, context)
  );
}
