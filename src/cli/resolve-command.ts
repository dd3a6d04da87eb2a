import { readFileSync } from 'node:fs';
import path from 'node:path';
import { CtxfilesError } from '../errors.js';
import type { Format } from '../config/types.js';
import { FORMATS } from '../config/types.js';
import { HOST_REGISTRY as hosts } from '../hosts/index.js';
import type { ResolveResult } from '../api/create-resolver.js';
import type { FileSystem } from '../fs/file-system.js';
import { EXIT, fromShell, writeDiagnostics, type CliIo } from './io.js';

// `resolve` and what `manifest`, `session`, `prompt`, `explain` and `mcp` share with it: a resolver
// for the options of the command line. No commander here: the `resolve` bundle
// (src/cli/entry-resolve.ts) runs a plain `resolve` without the rest of the CLI.

/** The options every resolution command takes, as commander gives them (src/cli/run.ts). */
export interface CommonOptions {
  cwd?: string;
  config?: string;
  userConfig?: string;
  agent?: string;
  flow?: string;
  step?: string;
  format?: string;
  preset?: string;
  json?: boolean;
}

/** The options of `resolve` that take one value, by flag (src/cli/run.ts). */
const VALUE_OPTIONS: Readonly<Record<string, keyof CommonOptions>> = {
  '--cwd': 'cwd',
  '--config': 'config',
  '--user-config': 'userConfig',
  '--agent': 'agent',
  '--flow': 'flow',
  '--step': 'step',
  '--format': 'format',
  '--preset': 'preset',
};

/**
 * The options of a plain `ctxfiles resolve …` or `ctxfiles manifest …` command line, parsed as
 * commander parses them (the two take the same options), or `undefined` for anything else: another
 * command, help, a version flag, an unknown or repeated option, a value that is missing, empty,
 * starts with `-` or is not one of an option's choices, `--opt=value`, `--paths`, `--rule`, an
 * argument, `--`. Those go to the whole CLI (commander), which answers them exactly as always; this
 * only spares it the common case.
 */
export function plainCommandLine(
  argv: readonly string[],
): { readonly command: PlainCommand; readonly options: CommonOptions } | undefined {
  const command = argv[0];
  if (command !== 'resolve' && command !== 'manifest') return undefined;
  const options: CommonOptions = {};
  for (let index = 1; index < argv.length; index += 1) {
    const arg = argv[index] as string;
    if (arg === '--json' && options.json === undefined) {
      options.json = true;
      continue;
    }
    const key = Object.hasOwn(VALUE_OPTIONS, arg) ? VALUE_OPTIONS[arg] : undefined;
    const value = argv[index + 1];
    if (key === undefined || key === 'json' || options[key] !== undefined) return undefined;
    if (value === undefined || value === '' || value.startsWith('-')) return undefined;
    if (key === 'format' && !(FORMATS as readonly string[]).includes(value)) return undefined;
    if (key === 'preset' && hosts.preset(value) === undefined) return undefined;
    options[key] = value;
    index += 1;
  }
  return { command, options };
}

/** The commands the resolve bundle runs itself (src/cli/entry-resolve.ts). */
export type PlainCommand = 'resolve' | 'manifest';

/** `ctxfiles manifest`: the nested-file manifest, or with `--json` the manifest and diagnostics. */
export async function manifestCommand(options: CommonOptions, io: CliIo): Promise<number> {
  // The manifest has one form whatever the format (docs/disclosure.md): say so rather than ignore it.
  if (options.format !== undefined)
    io.stderr.write(
      `ctxfiles: warning: --format ${options.format} changes nothing here: the manifest has one form (--format applies to resolve, session and prompt)\n`,
    );
  const { resolver, request } = await openResolver(options, io);
  const result = await resolver.resolve(request);
  if (options.json)
    io.stdout.write(
      `${JSON.stringify({ workDir: result.workDir, manifest: result.manifest, diagnostics: result.diagnostics }, null, 2)}\n`,
    );
  else await writePlain(result.manifest, 'manifest', { options, resolver, request, result }, io);
  return EXIT.ok;
}

/** The package version, built into the CLI bundles (scripts/bundle-cli.mjs): no file read per run. */
declare const CTXFILES_VERSION: string | undefined;

/** The package version: built in, else (run from the sources or the ES module build) package.json's. */
export function readVersion(): string {
  if (typeof CTXFILES_VERSION === 'string') return CTXFILES_VERSION;
  // Run from the sources or the ES module build: package.json is two levels up.
  try {
    const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
      version?: string;
    };
    return manifest.version ?? '0.0.0';
  } catch {
    return '0.0.0';
  }
}

export async function resolveCommand(options: CommonOptions, io: CliIo): Promise<number> {
  const { resolver, request } = await openResolver(options, io);
  // The plain output is the block alone: skip the discovery walk that only the manifest needs.
  const result = await resolver.resolve({ ...request, manifest: options.json === true });
  if (options.json) {
    io.stdout.write(
      `${JSON.stringify(
        {
          workDir: result.workDir,
          agent: result.agent,
          flow: result.flow,
          files: result.files.map(({ path: file, layer, entry, importedBy, bytes, sha256 }) => ({
            path: file,
            layer,
            entry,
            ...(importedBy === undefined ? {} : { importedBy }),
            bytes,
            sha256,
          })),
          text: result.text,
          manifest: result.manifest,
          ...(result.rules === undefined ? {} : { rules: result.rules }),
          diagnostics: result.diagnostics,
        },
        null,
        2,
      )}\n`,
    );
  } else await writePlain(result.text, 'block', { options, resolver, request, result }, io);
  return EXIT.ok;
}

/**
 * The plain output of `resolve` and `manifest`: warnings first, so a reader that stops early
 * (`| head -1`) cannot swallow them; when there is nothing to print, one line on stderr says why.
 */
export async function writePlain(
  text: string,
  kind: 'block' | 'manifest',
  opened: Awaited<ReturnType<typeof openResolver>> & { options: CommonOptions; result: ResolveResult },
  io: CliIo,
): Promise<void> {
  const { result } = opened;
  writeDiagnostics(result.diagnostics, io);
  // On a terminal the prompt must not follow the last line: a newline the block itself lacks is
  // added there only; a pipe or a file gets the bytes exactly (docs/cli.md).
  if (text !== '' && !text.endsWith('\n') && (io.stdout as { isTTY?: boolean }).isTTY === true) text += '\n';
  if (text === '') io.stderr.write(await emptyLine(kind, opened, io));
  io.stdout.write(text);
}

/** The line on stderr that says why there is nothing to print (src/cli/empty-output.ts). */
async function emptyLine(
  kind: 'block' | 'manifest',
  opened: Awaited<ReturnType<typeof openResolver>> & { options: CommonOptions; result: ResolveResult },
  io: CliIo,
): Promise<string> {
  const { options, resolver, result } = opened;
  const [{ emptyOutputLine }, { memoizeFileSystem }, { createNodeFileSystem }, { openRunHintCache }] =
    await Promise.all([
      import('./empty-output.js'),
      import('../fs/memo-file-system.js'),
      import('../fs/node-file-system.js'),
      import('./hint-cache.js'),
    ]);
  const presets = hosts.presetNames;
  const preset = options.preset ?? resolver.config.preset;
  // Kept by the bin only (the bundles have CTXFILES_VERSION built in): `run` called in a process
  // of its own writes nothing outside the project.
  const hints =
    typeof CTXFILES_VERSION !== 'string'
      ? undefined
      : openRunHintCache({
          version: readVersion(),
          kind,
          options,
          preset,
          presets,
          env: io.env,
          cwd: io.cwd,
        });
  let shared: { fs: FileSystem; io: CliIo } | undefined;
  return emptyOutputLine({
    kind,
    config: resolver.config,
    result,
    preset,
    presets,
    ...(hints === undefined ? {} : { hints }),
    tryPreset: async (preset) => {
      try {
        // Every preset probes the same places: one memoized port answers them all.
        // and one copy of the environment serves them all (each resolver copies what it is given).
        // (Not a spread of `io`: its `stdin` is a getter that would open the stream.)
        shared ??= {
          fs: memoizeFileSystem(createNodeFileSystem(), hints?.heard),
          io: { stdout: io.stdout, stderr: io.stderr, env: { ...io.env }, cwd: io.cwd },
        };
        const other = await openResolver({ ...options, preset }, shared.io, shared.fs);
        const otherResult = await other.resolver.resolve({ ...other.request, manifest: true });
        return { result: otherResult, config: other.resolver.config };
      } catch (error) {
        // A config or a host's settings at fault is an answer of the port; anything else (a module
        // that failed to load, out of descriptors) is not, and the hint is not kept.
        if (!(error instanceof CtxfilesError)) hints?.unsure();
        return null;
      }
    },
  });
}

export async function openResolver(options: CommonOptions, io: CliIo, fs?: FileSystem) {
  const [{ loadConfig }, { createResolver }] = await Promise.all([
    import('../config/load-config.js'),
    import('../api/create-resolver.js'),
  ]);
  const workDir = resolveCwd(options, io);
  const config = await loadConfig(
    {
      cwd: workDir,
      configFile: fromShell(options.config, io),
      preset: options.preset,
      userConfig: fromShell(options.userConfig, io),
      env: io.env,
      displayCwd: io.cwd,
      lazyFlows: true,
      ...(fs === undefined ? {} : { fs }),
    },
    hosts,
  );
  const resolver = await createResolver(
    { workDir, config, env: io.env, ...(fs === undefined ? {} : { fs }) },
    hosts,
  );
  const format = options.format as Format | undefined;
  const rules = options as { paths?: string[]; rule?: string[] };
  return {
    resolver,
    request: {
      agent: options.agent,
      flow: options.flow,
      step: options.step,
      format,
      ...(rules.paths === undefined ? {} : { paths: rules.paths }),
      ...(rules.rule === undefined ? {} : { rules: rules.rule }),
    },
  };
}

export function resolveCwd(options: CommonOptions, io: CliIo): string {
  return path.resolve(io.cwd, options.cwd ?? '.');
}
