import { Command, CommanderError, Option } from 'commander';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Diagnostic } from '../errors.js';

/** Where the CLI writes and what it reads. The bin passes the real process's. */
export interface CliIo {
  readonly stdout: { write(text: string): unknown };
  readonly stderr: { write(text: string): unknown };
  readonly stdin?: NodeJS.ReadableStream;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
}

/** Exit codes (DESIGN §9). */
export const EXIT = Object.freeze({ ok: 0, invalid: 1, usage: 2 });

interface CommonOptions {
  cwd?: string;
  config?: string;
  agent?: string;
  flow?: string;
  step?: string;
  format?: string;
  json?: boolean;
}

const FORMATS = ['opencode', 'xml', 'reminder', 'magi'];

/**
 * Runs the CLI: `run(['resolve', '--json'], io)`. Never calls `process.exit`; returns the exit code.
 * Heavy modules are imported only by the command that needs them.
 */
export async function run(argv: readonly string[], io: CliIo): Promise<number> {
  if (argv[0] === 'hook') {
    // `hook` has its own tiny parser and always exits 0 (docs/hooks.md).
    const { hookCommand, readStream } = await import('./hook-command.js');
    const { stdout, stderr, env, cwd } = io;
    return hookCommand(argv.slice(1), { stdout, stderr, env, cwd, readStdin: () => readStream(io.stdin) });
  }
  let exitCode: number = EXIT.ok;
  const version = readVersion();
  const program = new Command('ctxfiles')
    .description('Resolve, frame and disclose coding-agent instruction files.')
    .version(version, '-V, --version', 'print the version')
    .helpOption('-h, --help', 'show help')
    .showHelpAfterError('(run ctxfiles --help for usage)')
    .addHelpText(
      'after',
      '\nctxfiles hook <claude-code|gemini-cli> answers agent hook events; see `ctxfiles hook --help`.',
    )
    .exitOverride()
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
    });

  /** A subcommand; `flags` says which of the common options it takes. */
  const command = (
    name: string,
    description: string,
    flags: 'resolution' | 'config' | 'none' = 'resolution',
  ) => {
    const created = program
      .command(name)
      .description(description)
      .version(version, '-V, --version', 'print the version')
      .helpOption('-h, --help', 'show help')
      .exitOverride();
    if (flags === 'none') return created;
    created
      .option('--cwd <dir>', 'the work dir (default: the current directory)')
      .option('--config <file>', 'use this config file instead of searching for one');
    if (flags === 'resolution') {
      created
        .option('--agent <id>', 'resolve for this agent')
        .option('--flow <id>', 'resolve for a step of this flow (needs --step)')
        .option('--step <id>', 'the flow step')
        .addOption(new Option('--format <format>', 'output format').choices(FORMATS));
    }
    return created.option('--json', 'print JSON for tools');
  };

  command('resolve', 'print the context block for an agent and flow step').action(
    async (options: CommonOptions) => {
      exitCode = await resolveCommand(options, io);
    },
  );
  command('manifest', 'print the nested-file manifest').action(async (options: CommonOptions) => {
    const { resolver, request } = await openResolver(options, io);
    const result = await resolver.resolve(request);
    if (options.json)
      io.stdout.write(
        `${JSON.stringify({ workDir: result.workDir, manifest: result.manifest, diagnostics: result.diagnostics }, null, 2)}\n`,
      );
    else {
      io.stdout.write(result.manifest);
      writeDiagnostics(result.diagnostics, io);
    }
  });
  command('session', 'disclose nested files for tool calls read as JSON Lines on stdin')
    .option('--state <file>', 'resume from a state saved with {"op":"state"}')
    .action(async (options: CommonOptions & { state?: string }) => {
      const { runSession } = await import('./session.js');
      const { resolver, request } = await openResolver(options, io);
      exitCode = await runSession({
        resolver,
        request,
        statePath: options.state === undefined ? undefined : path.resolve(io.cwd, options.state),
        io,
      });
    });
  for (const [name, description] of [
    ['prompt', 'print the assembled system prompt for runners in other languages'],
    ['explain', "show each prompt section's size, every context file's outcome, and all diagnostics"],
  ] as const) {
    command(name, description)
      .option(
        '--input <file>',
        'a JSON file with base, tools, subagents, skillsRoots, mcpServers, environment, fragmentsDir',
      )
      .option('--tools <names>', 'the active tools, comma-separated')
      .option(
        '--skills-root <dir>',
        'a skills root (repeatable; later roots win)',
        (value: string, previous: string[] = []) => [...previous, value],
      )
      .option('--mcp <file>', 'a JSON file with the MCP servers')
      .option('--base <file>', 'a file whose text replaces the bundled base')
      .option('--fragments <dir>', 'a directory of fragment overrides (<name>.md)')
      .option('--date <date>', 'the date shown in the environment section')
      .action(async (options: CommonOptions & Record<string, unknown>) => {
        const commands = await import('./prompt-command.js');
        const { resolver, request } = await openResolver(options, io);
        const run = name === 'prompt' ? commands.promptCommand : commands.explainCommand;
        exitCode = await run(options, resolver, request, io);
      });
  }
  command('validate', 'check the config and flow files', 'config')
    .argument('[files...]', 'config or flow files to check (default: the config found from --cwd)')
    .action(async (files: string[], options: CommonOptions) => {
      exitCode = await validateCommand(files, options, io);
    });
  command('schema', 'print the JSON Schema of the config', 'none')
    .option('--out <file>', 'write the schema to this file instead')
    .action(async (options: CommonOptions & { out?: string }) => {
      const { configJsonSchemaText } = await import('../config/json-schema.js');
      const text = configJsonSchemaText();
      if (options.out === undefined) io.stdout.write(text);
      else {
        const { writeFileSync } = await import('node:fs');
        writeFileSync(path.resolve(io.cwd, options.out), text);
      }
    });

  if (argv.length === 0) {
    io.stderr.write(program.helpInformation());
    return EXIT.usage;
  }
  try {
    await program.parseAsync([...argv], { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) {
      if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version') return EXIT.ok;
      return error.exitCode === 0 ? EXIT.ok : EXIT.usage;
    }
    return reportError(error, io);
  }
  return exitCode;
}

async function resolveCommand(options: CommonOptions, io: CliIo): Promise<number> {
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
          files: result.files.map(({ path: file, layer, entry, bytes, sha256 }) => ({
            path: file,
            layer,
            entry,
            bytes,
            sha256,
          })),
          text: result.text,
          manifest: result.manifest,
          diagnostics: result.diagnostics,
        },
        null,
        2,
      )}\n`,
    );
  } else {
    io.stdout.write(result.text);
    writeDiagnostics(result.diagnostics, io);
  }
  return EXIT.ok;
}

async function validateCommand(files: readonly string[], options: CommonOptions, io: CliIo): Promise<number> {
  const { validateFiles } = await import('./validate.js');
  const report = await validateFiles({
    files,
    cwd: resolveCwd(options, io),
    configFile: options.config,
    displayCwd: io.cwd,
  });
  if (options.json) {
    io.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  } else {
    for (const line of report.checked) io.stdout.write(`ok ${line}\n`);
    writeDiagnostics(report.diagnostics, io);
  }
  return EXIT.ok;
}

async function openResolver(options: CommonOptions, io: CliIo) {
  const [{ loadConfig }, { createResolver }] = await Promise.all([
    import('../config/load-config.js'),
    import('../api/create-resolver.js'),
  ]);
  const workDir = resolveCwd(options, io);
  const config = await loadConfig({
    cwd: workDir,
    configFile: options.config,
    displayCwd: io.cwd,
    lazyFlows: true,
  });
  const resolver = await createResolver({ workDir, config, env: io.env });
  const format = options.format as 'opencode' | 'xml' | 'reminder' | 'magi' | undefined;
  return { resolver, request: { agent: options.agent, flow: options.flow, step: options.step, format } };
}

function resolveCwd(options: CommonOptions, io: CliIo): string {
  return path.resolve(io.cwd, options.cwd ?? '.');
}

function writeDiagnostics(diagnostics: readonly Diagnostic[], io: CliIo): void {
  for (const diagnostic of diagnostics) {
    if (diagnostic.level === 'warn')
      io.stderr.write(`ctxfiles: warning: ${diagnostic.message} [${diagnostic.code}]\n`);
  }
}

function reportError(error: unknown, io: CliIo): number {
  if (typeof error === 'object' && error !== null && (error as { name?: string }).name === 'CtxfilesError') {
    const { code, message } = error as { code: string; message: string };
    for (const line of message.split('\n')) io.stderr.write(`ctxfiles: error: ${line}\n`);
    return code === 'usage' ? EXIT.usage : EXIT.invalid;
  }
  io.stderr.write(
    `ctxfiles: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  return EXIT.invalid;
}

function readVersion(): string {
  try {
    const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
      version?: string;
    };
    return manifest.version ?? '0.0.0';
  } catch {
    return '0.0.0';
  }
}
