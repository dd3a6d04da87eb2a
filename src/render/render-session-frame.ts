import type { Format } from '../config/types.js';
import { renderEvent, type EventContext } from './render-events.js';
import { renderInjection } from './render-injection.js';
import type { FrameFile } from './render-types.js';

/**
 * The frame that discloses a nested file in a tool result, in the format's own style
 * (docs/formats.md#session-frames): `opencode` uses its `<system-reminder># From:` frame, a host's
 * format the frame its host module defines, `xml`, `reminder` and `magi` the
 * `Additional instructions from:` event frame. The empty string when there is nothing to show.
 */
export function renderSessionFrame(format: Format, file: FrameFile, context: EventContext): string {
  return renderSessionFrames(format, [file], context);
}

/**
 * The frames of every file one tool result discloses, in order. A host format gets them all at
 * once and joins them as its host does (Gemini CLI puts them in one wrapper); the engine's formats
 * frame each file and join the frames with a newline. The empty string when nothing shows.
 */
export function renderSessionFrames(
  format: Format,
  files: readonly FrameFile[],
  context: EventContext,
): string {
  if (files.length === 0) return '';
  if (format === 'opencode') return renderInjection(files);
  const host = context.formats(format)?.sessionFrame;
  if (host !== undefined) return host(files, context);
  return files
    .map((file) => renderEvent({ kind: 'new', path: file.path, dir: file.dir, text: file.text }, context))
    .filter((frame) => frame !== '')
    .join('\n');
}
