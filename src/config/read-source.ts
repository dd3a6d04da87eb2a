import fs from 'node:fs';
import { CtxfilesError, formatProblem, type CtxfilesErrorCode } from '../errors.js';

/** Config and flow files larger than this are refused before parsing. */
export const MAX_SOURCE_BYTES = 1_048_576;

/**
 * Reads a config or flow file as UTF-8 text, refusing anything that is not a regular file or is
 * larger than {@link MAX_SOURCE_BYTES}. `display` is the path shown in messages.
 * @throws CtxfilesError with `code` when the file is missing, not a file, too large or unreadable.
 */
export function readSourceFile(file: string, display: string, code: CtxfilesErrorCode): string {
  let stats: fs.Stats;
  try {
    stats = fs.statSync(file);
  } catch (error) {
    throw new CtxfilesError(
      code,
      [
        formatProblem(
          { file: display },
          `cannot read the file (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
        ),
      ],
      { cause: error },
    );
  }
  if (!stats.isFile())
    throw new CtxfilesError(code, [formatProblem({ file: display }, 'not a regular file')]);
  if (stats.size > MAX_SOURCE_BYTES) {
    throw new CtxfilesError(code, [
      formatProblem(
        { file: display },
        `the file is ${stats.size} bytes; at most ${MAX_SOURCE_BYTES} are accepted`,
      ),
    ]);
  }
  try {
    const fd = fs.openSync(file, fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0));
    try {
      const buffer = Buffer.alloc(MAX_SOURCE_BYTES + 1);
      let filled = 0;
      for (;;) {
        const read = fs.readSync(fd, buffer, filled, buffer.length - filled, null);
        if (read === 0) break;
        filled += read;
        if (filled > MAX_SOURCE_BYTES)
          throw new CtxfilesError(code, [
            formatProblem({ file: display }, `the file is larger than ${MAX_SOURCE_BYTES} bytes`),
          ]);
      }
      return buffer.toString('utf8', 0, filled);
    } finally {
      fs.closeSync(fd);
    }
  } catch (error) {
    if (error instanceof CtxfilesError) throw error;
    throw new CtxfilesError(
      code,
      [
        formatProblem(
          { file: display },
          `cannot read the file (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
        ),
      ],
      { cause: error },
    );
  }
}

/** True when `file` is a regular file (symlinks followed); false for anything absent or unreadable. */
export function isFile(file: string): boolean {
  try {
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}
