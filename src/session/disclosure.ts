import { createHash } from 'node:crypto';
import path from 'node:path';
import type { NestedFile, NestedIndex } from '../discover/nested-index.js';
import type { Diagnostic } from '../errors.js';
import { isInside } from '../fs/contain.js';
import { decodeText } from '../fs/decode-text.js';
import { errorCode, isAbsent, type FileSystem } from '../fs/file-system.js';
import { renderInjection } from '../render/render-injection.js';
import { touchedDirectories, type ToolEvent } from './triggers.js';

/** One injected file in the session state. */
export interface InjectedRecord {
  /** Path relative to the work dir. */
  readonly path: string;
  readonly sha256: string;
  readonly bytes: number;
}

/** What a session has shown: plain JSON, so a runner can store it and resume. */
export interface DisclosureState {
  readonly version: 1;
  /** Files injected, in order. */
  readonly injected: readonly InjectedRecord[];
  /** Files that will not be injected (too large, unreadable, binary), relative paths. */
  readonly skipped: readonly string[];
  /** Bytes of injected text so far. */
  readonly bytes: number;
  /** True once `maxSessionBytes` stopped injection. */
  readonly exhausted: boolean;
}

/** Limits of one session. */
export interface DisclosureLimits {
  readonly maxFileBytes: number;
  readonly maxSessionBytes: number;
}

/** The disclosure engine of one session. */
export interface Disclosure {
  /** The text to append to this tool result (empty when nothing is due) and what happened. */
  afterTool(event: ToolEvent): { text: string; diagnostics: Diagnostic[] };
  state(): DisclosureState;
}

/** A fresh state. */
export function emptyDisclosureState(): DisclosureState {
  return { version: 1, injected: [], skipped: [], bytes: 0, exhausted: false };
}

/**
 * Creates the disclosure engine: on each successful file-tool call it finds every nested file
 * owning a touched directory (outermost first), and injects each one once per session, within
 * `maxFileBytes` per file and `maxSessionBytes` in all. Faults in single files are diagnostics;
 * the tool result is then returned unchanged. `index` may be `null` (disclosure off).
 */
export function createDisclosure(fs: FileSystem, workDir: string, index: NestedIndex | null, limits: DisclosureLimits, initial: DisclosureState): Disclosure {
  const injected = [...initial.injected];
  const skipped = new Set(initial.skipped);
  const done = new Set<string>([...injected.map((record) => record.path), ...skipped]);
  let bytes = initial.bytes;
  let exhausted = initial.exhausted;

  function owners(dirs: readonly string[]): NestedFile[] {
    const found: NestedFile[] = [];
    if (index === null || index.files.length === 0) return found;
    for (const dir of dirs) {
      if (dir === workDir || !isInside(workDir, dir)) continue;
      const chain: NestedFile[] = [];
      for (let current = dir; current !== workDir && current.length > workDir.length; current = path.dirname(current)) {
        const owned = index.byOwner.get(current);
        if (owned !== undefined) chain.unshift(...owned);
      }
      for (const file of chain) if (!done.has(file.relativePath) && !found.includes(file)) found.push(file);
    }
    return found;
  }

  return {
    afterTool(event) {
      const diagnostics: Diagnostic[] = [];
      if (exhausted) return { text: '', diagnostics };
      const due = owners(touchedDirectories(event, workDir));
      if (due.length === 0) return { text: '', diagnostics };
      const shown: Array<{ path: string; text: string }> = [];
      for (const file of due) {
        const read = readNested(fs, file, limits.maxFileBytes, diagnostics);
        if (read === null) {
          skipped.add(file.relativePath);
          done.add(file.relativePath);
          continue;
        }
        const size = Buffer.byteLength(renderInjection([{ path: file.path, text: read.text }]), 'utf8') + (shown.length > 0 ? 1 : 0);
        if (bytes + size > limits.maxSessionBytes) {
          exhausted = true;
          diagnostics.push({
            level: 'info',
            code: 'session-budget-exhausted',
            message: `the session has injected ${bytes} bytes; ${file.relativePath} would pass maxSessionBytes (${limits.maxSessionBytes}), so nothing more is injected`,
            path: file.path,
          });
          break;
        }
        bytes += size;
        done.add(file.relativePath);
        injected.push({ path: file.relativePath, sha256: read.sha256, bytes: read.bytes });
        shown.push({ path: file.path, text: read.text });
      }
      return { text: renderInjection(shown), diagnostics };
    },
    state() {
      return { version: 1, injected: [...injected], skipped: [...skipped], bytes, exhausted };
    },
  };
}

function readNested(fs: FileSystem, file: NestedFile, maxBytes: number, diagnostics: Diagnostic[]): { text: string; sha256: string; bytes: number } | null {
  const warn = (code: string, message: string) => diagnostics.push({ level: 'warn', code, message, path: file.path });
  let result;
  try {
    // The walk followed no symlinks; refuse a path that became one since.
    if (fs.realpath(file.path) !== file.path) {
      warn('symlink-rejected', `${file.relativePath} is now reached through a symlink and is not injected`);
      return null;
    }
    result = fs.readFile(file.path, { maxBytes });
  } catch (error) {
    if (isAbsent(error)) warn('vanished', `${file.relativePath} no longer exists and is not injected`);
    else warn('unreadable', `${file.relativePath} cannot be read (${errorCode(error)}) and is not injected`);
    return null;
  }
  if (result.truncated) {
    warn('too-large', `${file.relativePath} is larger than maxFileBytes (${maxBytes}) and is never injected`);
    return null;
  }
  const decoded = decodeText(result.bytes);
  if (!decoded.ok) {
    warn('binary', `${file.relativePath} looks binary and is not injected`);
    return null;
  }
  return { text: decoded.text, sha256: createHash('sha256').update(result.bytes).digest('hex'), bytes: result.bytes.byteLength };
}
