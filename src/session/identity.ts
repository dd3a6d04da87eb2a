import path from 'node:path';
import type { NestedIndex } from '../discover/nested-index.js';
import type { FileSystem } from '../fs/file-system.js';
import type { Rule } from '../rules/rule.js';

/**
 * Something a session may show: a nested file, a rule, or an imported file. `realPath` is where the
 * path leads (the path itself when it is no link); `source` is set for rules.
 */
export interface ShownItem {
  readonly path: string;
  readonly realPath?: string | undefined;
  readonly ownerDir: string;
  /** The rule source that read it (`claude`, `windsurf`, ...); absent for a nested or imported file. */
  readonly source?: string | undefined;
  /** The rule's kind (`always`, `glob`, ...); absent for a nested or imported file. */
  readonly kind?: string | undefined;
}

/**
 * Tells whether the host shows an item by itself (DESIGN §13, "A host's own view"): such an item
 * is never injected. Absent: the host shows nothing by itself.
 */
export type InViewTest = (item: ShownItem) => boolean;

/**
 * The identities a session has shown (DESIGN §13, "Identity"): one instruction is one file, found
 * by its device and inode where the port gives them, else by its real path. A link twin
 * (`CLAUDE.md -> AGENTS.md`), a rule source reading a nested file, an import of a file already
 * shown: each is the identity shown already. Two files with equal text stay two.
 */
export interface ShownIdentities {
  /** True when an item with the same identity was shown. */
  has(item: ShownItem): boolean;
  add(item: ShownItem): void;
}

/**
 * The identities shown so far, starting from the relative paths a resumed state injected (mapped
 * to their real paths through the session's nested files and rules).
 */
export function shownIdentities(
  fs: FileSystem,
  workDir: string,
  injected: readonly string[],
  index: NestedIndex | null,
  rules: readonly Rule[],
): ShownIdentities {
  const keys = new Map<string, string>();
  const keyOf = (real: string): string => {
    let key = keys.get(real);
    if (key === undefined) {
      key = fileKey(fs, real);
      keys.set(real, key);
    }
    return key;
  };
  const shown = new Set<string>();
  if (injected.length > 0) {
    const real = new Map<string, string>();
    for (const file of index?.files ?? []) real.set(file.relativePath, file.realPath ?? file.path);
    for (const rule of rules) real.set(rule.relativePath, rule.realPath);
    for (const relative of injected) shown.add(keyOf(real.get(relative) ?? path.join(workDir, relative)));
  }
  return {
    has: (item) => shown.has(keyOf(item.realPath ?? item.path)),
    add: (item) => void shown.add(keyOf(item.realPath ?? item.path)),
  };
}

/** `dev:ino` of a file, or its real path when the port gives no inode (or cannot stat it). */
function fileKey(fs: FileSystem, real: string): string {
  try {
    const info = fs.stat(real);
    if (info.ino !== 0) return `${info.dev}:${info.ino}`;
  } catch {
    // Gone or unreadable: the path is all there is to go by.
  }
  return real;
}
