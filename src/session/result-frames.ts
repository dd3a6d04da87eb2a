import type { Diagnostic } from '../errors.js';
import { renderSessionFrame, renderSessionFrames } from '../render/render-session-frame.js';
import type { FrameFile } from '../render/render-types.js';
import type { Session } from './disclosure-types.js';

// What one tool call appends to its result, kept within the session's byte budget
// (`maxSessionBytes`): the steps of src/session/disclosure-steps.ts add frames, and the call
// renders them once at its end.

export type Frames = ReturnType<typeof createFrames>;

/**
 * The frames of one tool result, within the session budget: a frame that would pass
 * `maxSessionBytes` exhausts the session (reported once) and nothing more is injected. Files that
 * follow each other are framed together at the end ({@link renderSessionFrames}: a host joins them
 * as it does); each is counted as its own frame when it is added, which is never less than its
 * share of the group, and the budget holds the exact size of the result once it is done.
 */
export function createFrames(session: Session, diagnostics: Diagnostic[]) {
  const { budget, options, frameOptions } = session;
  const start = budget.bytes;
  const parts: (string | FrameFile[])[] = [];
  const fits = (frame: string, what: string): boolean => {
    const size = Buffer.byteLength(frame, 'utf8') + (parts.length > 0 ? 1 : 0);
    if (budget.bytes + size > options.maxSessionBytes) {
      budget.exhausted = true;
      diagnostics.push({
        level: 'info',
        code: 'session-budget-exhausted',
        message: `the session has injected ${budget.bytes} bytes; ${what} would pass maxSessionBytes (${options.maxSessionBytes}), so nothing more is injected`,
      });
      return false;
    }
    budget.bytes += size;
    return true;
  };
  return {
    /** A frame rendered already (a change event). False when the budget ran out. */
    add(frame: string, what: string): boolean {
      if (!fits(frame, what)) return false;
      parts.push(frame);
      return true;
    },
    /** A file to frame with the files around it. True when it fits or shows nothing. */
    addFile(file: FrameFile, what: string): boolean {
      const alone = renderSessionFrame(options.format, file, frameOptions);
      if (alone === '') return true;
      if (!fits(alone, what)) return false;
      const last = parts[parts.length - 1];
      if (Array.isArray(last)) last.push(file);
      else parts.push([file]);
      return true;
    },
    done() {
      const text = parts
        .map((part) =>
          typeof part === 'string' ? part : renderSessionFrames(options.format, part, frameOptions),
        )
        .join('\n');
      budget.bytes = start + Buffer.byteLength(text, 'utf8');
      return { text, diagnostics };
    },
  };
}
