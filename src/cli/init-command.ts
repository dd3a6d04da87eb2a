import fs from 'node:fs';
import path from 'node:path';
import { homeDirectory } from '../fs/home-dir.js';
import { escapeControl } from '../render/escape.js';
import { editJson, editScript, editToml, type InitMode } from './init-edit.js';
import { deleteHostConfig, readHostConfig, writeHostConfig, type InitPlace } from './init-files.js';
import { chooseForm } from './init-form.js';
import {
  INIT_HOSTS,
  initHost,
  initTargets,
  starter,
  type InitHost,
  type InitTarget,
  type Launch,
  type LaunchForm,
  type Starter,
} from './init-hosts.js';
import type { CliIo } from './io.js';
import { unifiedDiff } from './text-diff.js';

/** Options of `ctxfiles init`. */
export interface InitOptions {
  readonly host: string;
  readonly scope: 'project' | 'user';
  readonly dryRun: boolean;
  readonly remove: boolean;
  /** The project directory (default: the current directory). */
  readonly cwd?: string | undefined;
  /** Default: this node and this bin ({@link currentLaunch}). */
  readonly launch?: Launch;
  /** Default: the user's home directory. */
  readonly homeDir?: string;
  /** Default: `process.platform`. */
  readonly platform?: NodeJS.Platform;
}

/** The running node and the real path of the running bin. */
export function currentLaunch(): Launch {
  const script = process.argv[1] ?? '';
  let bin = path.resolve(script);
  try {
    bin = fs.realpathSync(bin);
  } catch {
    // Kept as given.
  }
  return { node: process.execPath, bin };
}

/** One file's change: its text before and after, or its deletion. */
interface Edit {
  readonly target: InitTarget;
  readonly before: string;
  readonly after: string;
  /** `--remove` of a file that holds exactly what init writes into a new one: it is deleted. */
  readonly drop: boolean;
}

/**
 * `ctxfiles init <host>`: writes the host's hook and MCP server configuration (docs/hooks.md,
 * docs/mcp.md), merged into what is there, in the form a team can commit when the host and the
 * project allow it ({@link chooseForm}). Every file is read, checked and edited in memory first;
 * when one cannot be (malformed, a value of another type, a link in a project), nothing is
 * written. `--dry-run` prints the diffs, `--remove` takes ctxfiles' entries out (and deletes a file
 * that held nothing else). Returns 0, or 2 for an unknown host.
 * @throws CtxfilesError for a host config that cannot be edited.
 */
export function initCommand(options: Readonly<InitOptions>, io: CliIo): number {
  const host = initHost(options.host);
  if (host === undefined) {
    io.stderr.write(
      `ctxfiles: error: unknown host "${escapeControl(options.host)}" (${INIT_HOSTS.join(', ')})\n`,
    );
    return 2;
  }
  const workDir = path.resolve(io.cwd, options.cwd ?? '.');
  const homeDir = options.homeDir ?? homeDirectory();
  const chosen = chooseForm(host, options, workDir, () => options.launch ?? currentLaunch());
  const start = starter(host, chosen.form) as Starter;
  const targets = initTargets(host, options.scope, start, { workDir, homeDir, env: io.env });
  const place: InitPlace = {
    base: options.scope === 'project' ? workDir : homeDir,
    followLinks: options.scope === 'user',
  };
  const mode: InitMode = options.remove ? 'remove' : 'add';
  const edits = targets.map((target): Edit => {
    const found = readHostConfig(target.file, place);
    const after = edit(found.text, target, mode);
    const drop =
      found.exists &&
      mode === 'remove' &&
      (target.kind === 'script' ? after === '' : found.text === edit('', target, 'add'));
    return { target, before: found.text, after, drop };
  });
  const shown = (file: string) => {
    const relative = path.relative(io.cwd, file);
    return escapeControl(relative.startsWith('..') ? file : relative);
  };
  for (const change of edits) applyEdit(change, shown(change.target.file), options, place, io);
  if (!options.remove && edits.some((change) => change.before !== change.after)) {
    io.stdout.write(chosen.note);
    if (!options.dryRun) notes(host, chosen.form, io);
  }
  return 0;
}

/** Writes (or with `--dry-run` shows) one file's change. */
function applyEdit(
  change: Edit,
  name: string,
  options: Readonly<InitOptions>,
  place: InitPlace,
  io: CliIo,
): void {
  const { target, before, after, drop } = change;
  if (before === after && !drop) {
    io.stdout.write(`${name}: nothing to change\n`);
    return;
  }
  if (options.dryRun) {
    io.stdout.write(escapeTerminal(unifiedDiff(name, before, drop ? '' : after)));
    if (drop) io.stdout.write(`${name}: would be deleted (init had created it)\n`);
    return;
  }
  if (drop) deleteHostConfig(target.file, place);
  // A script the host runs is executable (its shebang names the shell either way).
  else writeHostConfig(target.file, after, place, target.kind === 'script' ? 0o755 : 'keep');
  io.stdout.write(
    `${name}: ${drop ? 'deleted (init had created it)' : options.remove ? 'ctxfiles removed' : 'updated'}\n`,
  );
}

/**
 * Text of a settings file shown on a terminal (`--dry-run`): C0 and C1 controls and DEL as
 * `\uXXXX`, but line ends, tabs and the CR of a CRLF line kept, so a comment cannot send escape
 * sequences (clear the screen, set a title, hide a line).
 */
export function escapeTerminal(text: string): string {
  return text.replace(
    /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]|\r(?!\n)/g,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/**
 * The form the documentation's snippets show: ctxfiles installed in the project, which is the
 * repository's root.
 */
const DOC_FORM: LaunchForm = {
  kind: 'project',
  bin: 'node_modules/ctxfiles/dist/bin/ctxfiles.cjs',
  fromRoot: 'node_modules/ctxfiles/dist/bin/ctxfiles.cjs',
};

/**
 * What `ctxfiles init <host>` writes into a new project where ctxfiles is installed, keyed
 * `<host> <file>`: the snippets of docs/hooks.md and docs/mcp.md, each after a
 * `<!-- ctxfiles init: <key> -->` line (test/init.test.ts checks they match).
 */
export function initSnippets(): Record<string, string> {
  const snippets: Record<string, string> = {};
  const places = { workDir: '/home/you/project', homeDir: '/home/you', env: {} };
  for (const host of INIT_HOSTS.map((id) => initHost(id) as InitHost))
    for (const target of initTargets(host, 'project', starter(host, DOC_FORM) as Starter, places))
      snippets[`${host.id} ${path.relative(places.workDir, target.file)}`] =
        target.kind === 'toml' ? target.block : edit('', target, 'add');
  return snippets;
}

function edit(before: string, target: InitTarget, mode: InitMode): string {
  if (target.kind === 'script') return editScript(before, target, mode);
  return target.kind === 'json' ? editJson(before, target, mode) : editToml(before, target, mode);
}

/** What the user should know after a write. */
function notes(host: InitHost, form: LaunchForm, io: CliIo): void {
  if (form.kind === 'absolute' && form.bin.split(path.sep).includes('_npx'))
    io.stderr.write(
      `ctxfiles: warning: ctxfiles runs from npx's cache (${escapeControl(form.bin)}); install it (npm install --save-dev ctxfiles) and run init again, so the path stays\n`,
    );
  if (host.init.note !== undefined) io.stdout.write(`${host.init.note}\n`);
}
