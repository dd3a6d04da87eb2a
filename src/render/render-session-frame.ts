import type { Format } from '../config/types.js';
import { renderEvent, type EventContext } from './render-events.js';
import { renderInjection } from './render-injection.js';
import { hostFormat } from '../hosts/index.js';
import type { FrameFile } from './render-types.js';

/**
 * The frame that discloses a nested file in a tool result, in the format's own style
 * (docs/formats.md#session-frames): `opencode` uses its `<system-reminder># From:` frame, a host's
 * format the frame its host module defines, `xml`, `reminder` and `magi` the
 * `Additional instructions from:` event frame. The empty string when there is nothing to show.
 */
export function renderSessionFrame(format: Format, file: FrameFile, context: EventContext): string {
  if (format === 'opencode') return renderInjection([file]);
  return (
    hostFormat(format)?.sessionFrame?.([file]) ??
    renderEvent({ kind: 'new', path: file.path, dir: file.dir, text: file.text }, context)
  );
}
