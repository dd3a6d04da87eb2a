import fs from 'node:fs';
import path from 'node:path';
import { projectAnchor, starter, type InitHost, type Launch, type LaunchForm } from './init-hosts.js';

/** What `init` writes, and the line that says so. */
export interface ChosenForm {
  readonly form: LaunchForm;
  readonly note: string;
}

const INSTALLED_BIN = ['node_modules', 'ctxfiles', 'dist', 'bin', 'ctxfiles.cjs'];

/**
 * The form a team can commit when it works: in a project where ctxfiles is installed
 * (`node_modules/ctxfiles` in the project or a folder above it in the same repository), on a POSIX
 * system, a command relative to the project; else this machine's absolute paths, with a line
 * saying why. `--user` settings serve every project: absolute paths.
 */
export function chooseForm(
  host: InitHost,
  options: { readonly scope: 'project' | 'user'; readonly platform?: NodeJS.Platform | undefined },
  workDir: string,
  launch: () => Launch,
): ChosenForm {
  const absolute: LaunchForm = { kind: 'absolute', ...launch() };
  if (options.scope === 'user')
    return {
      form: absolute,
      note: "Written with this machine's absolute paths to node and ctxfiles (--user).\n",
    };
  const machine = (why: string) => ({
    form: absolute,
    note: `Written with this machine's absolute paths to node and ctxfiles: ${why}. Keep these files out of version control (or commit them knowing they name this machine).\n`,
  });
  if ((options.platform ?? process.platform) === 'win32')
    return machine('project-relative commands are written on POSIX systems only');
  const found = installedBin(workDir);
  if (found === null)
    return machine(
      'ctxfiles is not installed in this project (no node_modules/ctxfiles here or above it in the repository); install it (npm install --save-dev ctxfiles) and run init again for a form a team can commit',
    );
  const form: LaunchForm = { kind: 'project', ...found };
  if (starter(host, form) === null)
    return machine(
      `outside a git repository, ${host.id} has no way to find the project's ctxfiles from a sub-folder`,
    );
  const anchor = projectAnchor(host);
  const bin = host.init.anchor.kind === 'git-root' ? found.fromRoot : found.bin;
  return {
    form,
    note: `Written with a command relative to the project (${anchor}/${bin}): these files can be committed.\n`,
  };
}

/**
 * The installed bin, relative to the project and to the repository root: looked for in the
 * project, then in each folder above up to the one holding `.git` (a workspace of a monorepo);
 * outside a repository only in the project. `null` when ctxfiles is not installed there.
 */
function installedBin(workDir: string): { bin: string; fromRoot: string | null } | null {
  const root = repositoryRoot(workDir);
  for (let dir = workDir; ; dir = path.dirname(dir)) {
    const file = path.join(dir, ...INSTALLED_BIN);
    if (isFile(file))
      return {
        bin: posix(path.relative(workDir, file)),
        fromRoot: root === null ? null : posix(path.relative(root, file)),
      };
    if (root === null || dir === root || path.dirname(dir) === dir) return null;
  }
}

/** The nearest folder at or above `dir` that holds `.git` (a folder, or a worktree's file). */
function repositoryRoot(dir: string): string | null {
  for (let current = dir; ; current = path.dirname(current)) {
    if (fs.existsSync(path.join(current, '.git'))) return current;
    if (path.dirname(current) === current) return null;
  }
}

function isFile(file: string): boolean {
  try {
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

const posix = (file: string) => file.split(path.sep).join('/');
