import path from 'node:path';
import { isBlankText } from '../discover/chain-candidates.js';
import type { Diagnostic } from '../errors.js';
import { errorCode, isAbsent, type FileSystem } from '../fs/file-system.js';
import { MAX_INLINE_BYTES, readInstruction } from '../fs/read-instruction.js';
import { identityOf, type Candidate } from './expand-entries.js';
import type { SourceOptions } from './source-options.js';

// The person's own files as candidates: the user file (one path, or a list whose first usable file
// wins, with `${env.NAME}` and `~`) and the extra files. They belong to whoever runs the agent, so
// they are not contained in the work dir and their symlinks are followed.

/** `${env.NAME}` in a user file entry. */
const ENV_TOKEN = /\$\{env\.([A-Za-z_][A-Za-z0-9_]*)\}/g;

/**
 * The user file: one path, or a list of which the first existing non-empty file wins (non-blank,
 * or with `skipBlank: empty` not empty). An entry
 * whose `${env.NAME}` is unset or empty is skipped with a `debug` (Codex reads `$CODEX_HOME`, else
 * `~/.codex`: `["${env.CODEX_HOME}/AGENTS.md", "~/.codex/AGENTS.md"]`). Diagnostics show entries
 * as written, never an environment value.
 */
export function userFileCandidates(
  fs: FileSystem,
  userFile: string | readonly string[],
  options: SourceOptions,
  diagnostics: Diagnostic[],
): Candidate[] {
  const list = typeof userFile === 'string' ? [userFile] : userFile;
  for (const entry of list) {
    let unset = false;
    const expanded = entry.replace(ENV_TOKEN, (_, name: string) => {
      const value = options.env?.[name];
      if (value === undefined || value === '') unset = true;
      return value ?? '';
    });
    if (unset) {
      diagnostics.push({
        level: 'debug',
        code: 'empty-token',
        message: `${JSON.stringify(entry)} is skipped: an environment variable it names is unset or empty`,
        layer: 'user',
        entry,
      });
      continue;
    }
    // As for contextPaths entries (expand-entries.ts), a diagnostic about an entry expanded from
    // the environment shows the entry as written, never the expanded path.
    const fromEnv = expanded !== entry;
    const scratch: Diagnostic[] = [];
    const found = userCandidate(fs, expandHome(expanded, options.homeDir), entry, 'user', scratch);
    const [first] = found;
    const blank = list.length > 1 && first !== undefined && skipsUserFile(fs, first, options);
    if (blank)
      scratch.push({
        level: 'debug',
        code: 'blank-file',
        message: `${first.path} is empty or only whitespace; the next user file is tried`,
        layer: 'user',
        entry,
        path: first.path,
      });
    for (const diagnostic of scratch)
      diagnostics.push(
        fromEnv
          ? {
              level: diagnostic.level,
              code: diagnostic.code,
              message: `${JSON.stringify(entry)} (expanded from the environment): ${diagnostic.code}`,
              layer: 'user',
              entry,
            }
          : diagnostic,
      );
    if (first === undefined || blank) continue;
    return found;
  }
  return [];
}

/** Expands a leading `~`, `~/` or `~\` against the home directory. */
export function expandHome(value: string, homeDir: string): string {
  if (value === '~') return homeDir;
  if (value.startsWith('~/') || value.startsWith('~\\')) return path.join(homeDir, value.slice(2));
  return path.resolve(value);
}

/** User and extra files belong to the person running the agent: symlinks are followed. */
export function userCandidate(
  fs: FileSystem,
  file: string,
  entry: string,
  kind: 'user' | 'extra',
  diagnostics: Diagnostic[],
): Candidate[] {
  const where = { layer: kind, entry, path: file };
  try {
    const realPath = fs.realpath(file);
    const info = fs.stat(realPath);
    if (info.kind !== 'file') {
      diagnostics.push({
        level: 'warn',
        code: 'not-regular',
        message: `${file} is a ${info.kind}, not a regular file`,
        ...where,
      });
      return [];
    }
    return [
      {
        path: file,
        realPath,
        source: kind,
        layer: kind,
        entry,
        depth: null,
        identity: identityOf(info),
        info,
      },
    ];
  } catch (error) {
    if (isAbsent(error))
      diagnostics.push({ level: 'debug', code: 'missing', message: `${file} does not exist`, ...where });
    else
      diagnostics.push({
        level: 'warn',
        code: 'unreadable',
        message: `${file} cannot be read (${errorCode(error)})`,
        ...where,
      });
    return [];
  }
}

/**
 * Whether a user file of a list is passed over for the next one: a blank one, or with
 * `skipBlank` other than `whitespace` only an empty one.
 */
function skipsUserFile(fs: FileSystem, first: Candidate, options: SourceOptions): boolean {
  return (options.instructions.skipBlank ?? 'whitespace') === 'whitespace'
    ? isBlankUserFile(fs, first)
    : first.info.size === 0;
}

/**
 * True when a user file holds nothing but whitespace: Codex passes over such a file and tries the
 * next one (a whitespace-only text counts as empty: `LoadedAgentsMd::new_user` in openai/codex
 * codex-rs/core/src/agents_md.rs). A file that cannot be read here is not blank: its own read
 * reports why.
 */
function isBlankUserFile(fs: FileSystem, candidate: Candidate): boolean {
  if (candidate.info.size === 0) return true;
  if (candidate.info.size > MAX_INLINE_BYTES) return false;
  const read = readInstruction(fs, candidate.realPath, {
    maxBytes: MAX_INLINE_BYTES,
    expect: { dev: candidate.info.dev, ino: candidate.info.ino },
  });
  return read.ok && isBlankText(read.text);
}
