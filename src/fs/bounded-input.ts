import fs from 'node:fs';

/** One line of {@link readLines}: its text, or how long it was when it passed the cap. */
export type InputLine = { readonly text: string } | { readonly overBytes: number };

/** A whole input of {@link readAllBounded}: its text, or how long it was when it passed the cap. */
export type BoundedInput = string | { readonly overBytes: number };

const LF = 0x0a;
const CHUNK = 65_536;
const CR = 0x0d;

/**
 * The lines of a stream, split at LF (a CR before it is dropped; a last line without LF counts),
 * each decoded as UTF-8. A line longer than `maxBytes` is never held whole: its bytes are counted
 * and dropped as they arrive, and it comes out as `{ overBytes }`, so one huge line costs at most
 * `maxBytes` of memory and the lines after it are still read.
 */
export async function* readLines(
  input: AsyncIterable<Buffer | string> | Iterable<Buffer | string>,
  maxBytes: number,
): AsyncGenerator<InputLine> {
  let parts: Buffer[] = [];
  let held = 0;
  let over = 0; // Bytes of the current line dropped so far; 0 while it is within the cap.
  const take = (piece: Buffer): void => {
    if (over > 0) over += piece.length;
    else if (held + piece.length > maxBytes) {
      over = held + piece.length;
      parts = [];
      held = 0;
    } else if (piece.length > 0) {
      parts.push(piece);
      held += piece.length;
    }
  };
  const end = (): InputLine => {
    let line: InputLine;
    if (over > 0) line = { overBytes: over };
    else {
      const bytes = parts.length === 1 ? (parts[0] as Buffer) : Buffer.concat(parts, held);
      const length = bytes.length > 0 && bytes[bytes.length - 1] === CR ? bytes.length - 1 : bytes.length;
      line = { text: bytes.toString('utf8', 0, length) };
    }
    parts = [];
    held = 0;
    over = 0;
    return line;
  };
  for await (const chunk of input) {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    let start = 0;
    for (let newline = buffer.indexOf(LF); newline !== -1; newline = buffer.indexOf(LF, start)) {
      take(buffer.subarray(start, newline));
      yield end();
      start = newline + 1;
    }
    take(buffer.subarray(start));
  }
  if (held > 0 || over > 0) yield end();
}

/** Reads a whole stream, holding at most `maxBytes`: past that, the rest is read and dropped. */
export async function readAllBounded(
  input: AsyncIterable<Buffer | string> | undefined,
  maxBytes: number,
): Promise<BoundedInput> {
  if (input === undefined) return '';
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of input) {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    total += buffer.length;
    if (total <= maxBytes) chunks.push(buffer);
    else chunks.length = 0;
  }
  return total > maxBytes ? { overBytes: total } : Buffer.concat(chunks, total).toString('utf8');
}

/**
 * Reads a file descriptor to its end in blocking reads (a hook's stdin), holding at most
 * `maxBytes`: past that, the rest is read into a scratch buffer and dropped, so the writer is never
 * left with a broken pipe.
 * @throws the read's error (`EAGAIN` on a non-blocking descriptor: read it as a stream instead).
 */
export function readFdBounded(fd: number, maxBytes: number): BoundedInput {
  const chunks: Buffer[] = [];
  let total = 0;
  let scratch: Buffer | undefined;
  for (;;) {
    const buffer = total <= maxBytes ? Buffer.allocUnsafe(Math.min(maxBytes + 1 - total, CHUNK)) : undefined;
    const target = buffer ?? (scratch ??= Buffer.allocUnsafe(CHUNK));
    const read = fs.readSync(fd, target, 0, target.length, null);
    if (read === 0) break;
    total += read;
    if (buffer !== undefined) chunks.push(buffer.subarray(0, read));
  }
  return total > maxBytes ? { overBytes: total } : Buffer.concat(chunks, total).toString('utf8');
}
