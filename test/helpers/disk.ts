import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach } from 'vitest';

const created: string[] = [];

afterEach(() => {
  for (const dir of created.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/** A tree on disk: file contents, or `{ symlink }` for links. */
export type DiskTree = Record<string, string | { symlink: string }>;

/** Writes `tree` into a fresh temp dir (canonical path) and removes it after the test. */
export function tempTree(tree: DiskTree = {}): string {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'ctxfiles-')));
  created.push(root);
  writeTree(root, tree);
  return root;
}

/** Adds files to an existing directory. */
export function writeTree(root: string, tree: DiskTree): void {
  for (const [file, content] of Object.entries(tree)) {
    const target = path.join(root, file);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    if (typeof content === 'string') fs.writeFileSync(target, content);
    else fs.symlinkSync(content.symlink, target);
  }
}
