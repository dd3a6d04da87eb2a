import fs from 'node:fs';
import path from 'node:path';
import { CtxfilesError } from '../errors.js';
import { homeDirectory } from '../fs/home-dir.js';
import { editJson, editToml, type InitMode } from './init-edit.js';
import { INIT_HOSTS, initTargets, type InitHost, type InitTarget, type Launch } from './init-hosts.js';
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
}

/** Host config files larger than this are refused (16 MiB). */
const MAX_HOST_CONFIG_BYTES = 16_777_216;

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

/**
 * `ctxfiles init <host>`: writes the host's hook and MCP server configuration (docs/hooks.md,
 * docs/mcp.md), merged into what is there. Every file is edited in memory first; when one cannot
 * be (malformed, a value of another type), nothing is written. `--dry-run` prints the diffs,
 * `--remove` takes ctxfiles' entries out. Returns 0, or 2 for an unknown host.
 * @throws CtxfilesError for a host config that cannot be edited.
 */
export function initCommand(options: Readonly<InitOptions>, io: CliIo): number {
  if (!(INIT_HOSTS as readonly string[]).includes(options.host)) {
    io.stderr.write(`ctxfiles: error: unknown host "${options.host}" (${INIT_HOSTS.join(', ')})\n`);
    return 2;
  }
  const host = options.host as InitHost;
  const launch = options.launch ?? currentLaunch();
  const workDir = path.resolve(io.cwd, options.cwd ?? '.');
  const homeDir = options.homeDir ?? homeDirectory();
  const targets = initTargets(host, options.scope, launch, { workDir, homeDir, env: io.env });
  const mode: InitMode = options.remove ? 'remove' : 'add';
  const edits = targets.map((target) => {
    const before = readHostConfig(target.file);
    return { target, before, after: edit(before, target, mode) };
  });
  const shown = (file: string) => {
    const relative = path.relative(io.cwd, file);
    return relative.startsWith('..') ? file : relative;
  };
  for (const { target, before, after } of edits) {
    if (before === after) {
      io.stdout.write(`${shown(target.file)}: nothing to change\n`);
      continue;
    }
    if (options.dryRun) io.stdout.write(unifiedDiff(shown(target.file), before, after));
    else {
      writeHostConfig(target.file, after);
      io.stdout.write(`${shown(target.file)}: ${options.remove ? 'ctxfiles removed' : 'updated'}\n`);
    }
  }
  if (!options.remove && !options.dryRun) notes(host, launch, io);
  return 0;
}

/** The paths the documentation's snippets show for node and the bin. */
export const DOC_LAUNCH: Launch = {
  node: '/usr/local/bin/node',
  bin: '/home/you/project/node_modules/ctxfiles/dist/bin/ctxfiles.cjs',
};

/**
 * What `ctxfiles init <host>` writes into a new project, keyed `<host> <file>`: the snippets of
 * docs/hooks.md and docs/mcp.md, each after a `<!-- ctxfiles init: <key> -->` line (test/init.test.ts
 * checks they match).
 */
export function initSnippets(): Record<string, string> {
  const snippets: Record<string, string> = {};
  const places = { workDir: '/home/you/project', homeDir: '/home/you', env: {} };
  for (const host of INIT_HOSTS)
    for (const target of initTargets(host, 'project', DOC_LAUNCH, places))
      snippets[`${host} ${path.relative(places.workDir, target.file)}`] =
        target.kind === 'toml' ? target.block : edit('', target, 'add');
  return snippets;
}

function edit(before: string, target: InitTarget, mode: InitMode): string {
  return target.kind === 'json' ? editJson(before, target, mode) : editToml(before, target, mode);
}

/** What the user should know after a write. */
function notes(host: InitHost, launch: Launch, io: CliIo): void {
  if (launch.bin.split(path.sep).includes('_npx'))
    io.stderr.write(
      `ctxfiles: warning: ctxfiles runs from npx's cache (${launch.bin}); install it (npm install --save-dev ctxfiles) and run init again, so the path stays\n`,
    );
  if (host === 'codex')
    io.stdout.write(
      'Codex runs a new or changed hook only once you trust it: start codex and accept the ctxfiles hooks when it asks (an untrusted hook is skipped without a word).\n',
    );
}

/** The file's text, or '' when it does not exist. Only a regular file (or a link to one) is read. */
function readHostConfig(file: string): string {
  let info: fs.Stats;
  try {
    info = fs.statSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return '';
    throw new CtxfilesError('usage', `${file}: cannot be read (${(error as NodeJS.ErrnoException).code})`);
  }
  if (!info.isFile()) throw new CtxfilesError('usage', `${file}: not a regular file; it is left as it is`);
  if (info.size > MAX_HOST_CONFIG_BYTES)
    throw new CtxfilesError(
      'usage',
      `${file}: ${info.size} bytes, over ${MAX_HOST_CONFIG_BYTES}; it is left as it is`,
    );
  return fs.readFileSync(file, 'utf8');
}

/** Replaces the file through a temp file and a rename, keeping its mode; creates its directory. */
function writeHostConfig(file: string, text: string): void {
  const target = fs.existsSync(file) ? fs.realpathSync(file) : file;
  fs.mkdirSync(path.dirname(target), { recursive: true });
  const mode = fs.existsSync(target) ? fs.statSync(target).mode & 0o777 : 0o644;
  const temp = `${target}.${process.pid}.ctxfiles.tmp`;
  fs.writeFileSync(temp, text, { mode });
  fs.renameSync(temp, target);
}
