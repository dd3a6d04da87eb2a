import { Command, CommanderError, Option } from 'commander';
import { writeFileSync } from 'node:fs';
import { CtxfilesError } from '../errors.js';
import { FORMATS } from '../config/types.js';
import { EXIT, fromShell, reportError, writeDiagnostics, writeJsonError, type CliIo } from './io.js';
import {
  manifestCommand,
  openResolver,
  readVersion,
  resolveCommand,
  resolveCwd,
  type CommonOptions,
} from './resolve-command.js';
import { HOST_REGISTRY as hosts } from '../hosts/index.js';
import { orList } from '../shared/or-list.js';
import { INIT_HOSTS } from './init-hosts.js';

export { EXIT, type CliIo } from './io.js';

/**
 * Runs the CLI: `run(['resolve', '--json'], io)`. Never calls `process.exit`; returns the exit code.
 * Heavy modules are imported only by the command that needs them.
 */
export async function run(argv: readonly string[], io: CliIo): Promise<number> {
  if (argv[0] === 'hook' && !wantsHelp(argv)) {
    // `hook` has its own tiny parser and always exits 0 (docs/hooks.md); its help is commander's,
    // as for every command.
    const { hookCommand, readStream } = await import('./hook-command.js');
    const { stdout, stderr, env, cwd } = io;
    return hookCommand(argv.slice(1), {
      stdout,
      stderr,
      env,
      cwd,
      readStdin: () => readStream(io.stdin),
      answer: async (options) => (await import('../hooks/run-hook.js')).runHook(options),
    });
  }
  // `--json` asks for an error object on stdout too, even when parsing itself fails.
  const json = argv.includes('--json');
  const cli = createProgram(io, json);
  registerResolutionCommands(cli, io);
  registerPromptCommands(cli, io);
  registerConfigCommands(cli, io);
  registerServerCommands(cli, io);
  registerDoctorCommand(cli, io);
  registerInitCommand(cli, io);
  if (argv.length === 0) {
    io.stderr.write(cli.program.helpInformation());
    return EXIT.usage;
  }
  try {
    await cli.program.parseAsync([...argv], { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) {
      if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version') return EXIT.ok;
      if (error.exitCode === 0) return EXIT.ok;
      if (json) writeJsonError(io, 'usage', error.message.replace(/^error: /, ''));
      return EXIT.usage;
    }
    return reportError(error, io, json);
  }
  return cli.exitCode;
}

/** True for `--help` or `-h` before a `--`: help is printed by commander, one style for every command. */
export function wantsHelp(argv: readonly string[]): boolean {
  const end = argv.indexOf('--');
  return (end === -1 ? argv : argv.slice(0, end)).some((arg) => arg === '--help' || arg === '-h');
}

/** The examples that end each command's `--help` (docs/cli.md). */
const EXAMPLES: Readonly<Record<string, readonly string[]>> = {
  resolve: [
    'ctxfiles resolve                                  # the block for this directory',
    'ctxfiles resolve --agent coder --format xml',
    'ctxfiles resolve --flow release --step review --json',
  ],
  manifest: ['ctxfiles manifest', 'ctxfiles manifest --agent coder --json'],
  session: [
    `echo '{"tool":"read","input":{"file_path":"src/a.ts"},"ok":true}' | ctxfiles session`,
    'ctxfiles session --agent coder --state saved-state.json',
  ],
  prompt: [
    'ctxfiles prompt --tools read edit bash',
    'ctxfiles prompt --input runner.json --json',
    `ctxfiles prompt --mcp '[{"id":"git","status":"ready","toolCount":3}]'`,
  ],
  explain: ['ctxfiles explain', 'ctxfiles explain --agent coder --tools read edit --json'],
  validate: [
    'ctxfiles validate                                 # the config found from here, and its flows',
    'ctxfiles validate ctxfiles.config.json .ctxfiles/flows/release.yaml',
  ],
  schema: ['ctxfiles schema --out schema/ctxfiles.schema.json', 'ctxfiles schema | jq .properties'],
  doctor: [
    'ctxfiles doctor                                   # every host, at the work dir',
    'ctxfiles doctor --host codex claude-code --path packages/api',
    'ctxfiles doctor --format github --fail-on warn    # annotations in a workflow',
    'ctxfiles doctor --html doctor.html                # the context map, one page',
  ],
  mcp: ['ctxfiles mcp', 'ctxfiles mcp --cwd ~/src/project --config ~/.config/ctxfiles/mcp.json'],
  init: [
    'ctxfiles init claude-code --dry-run                # show what would change',
    'ctxfiles init codex --user',
    'ctxfiles init gemini-cli --remove',
  ],
  hook: [
    `echo '{"hook_event_name":"SessionStart","session_id":"s1","cwd":"."}' | ctxfiles hook claude-code`,
    'ctxfiles hook gemini-cli --preset gemini-cli --state-dir /tmp/ctxfiles-sessions',
  ],
};

/** The root command, a factory for subcommands, and the exit code an action sets. */
interface Cli {
  readonly program: Command;
  readonly version: string;
  /** A subcommand; `flags` says which of the common options it takes. */
  command(name: string, description: string, flags?: 'resolution' | 'config' | 'none'): Command;
  exitCode: number;
}

/** Where commander writes: the CLI's streams. */
function outputOf(io: CliIo) {
  return {
    writeOut: (text: string) => io.stdout.write(text),
    writeErr: (text: string) => io.stderr.write(text),
    // commander's own usage errors carry the prefix of every other message, on every line, hints
    // such as `(Did you mean --agent?)` included (docs/cli.md).
    outputError: (text: string, write: (text: string) => void) =>
      write(text.replace(/^(?=.)/gm, 'ctxfiles: ')),
  };
}

function createProgram(io: CliIo, json: boolean): Cli {
  const output = outputOf(io);
  const version = readVersion();
  const program = new Command('ctxfiles')
    .description('Resolve, frame and disclose coding-agent instruction files.')
    .version(version, '-V, --version', 'print the version')
    .helpOption('-h, --help', 'show help')
    .showHelpAfterError(json ? false : 'ctxfiles: run ctxfiles --help for usage')
    .addHelpText(
      'after',
      '\nDocs: the docs/ folder of the installed package, or https://github.com/ctxfiles/ctxfiles/tree/main/docs',
    )
    .exitOverride()
    .configureOutput(output);
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
      .exitOverride()
      .configureOutput(output);
    const examples = EXAMPLES[name];
    if (examples !== undefined)
      created.addHelpText('after', `\nExamples:\n${examples.map((line) => `  $ ${line}`).join('\n')}\n`);
    if (flags === 'none') return created;
    created
      .option('--cwd <dir>', 'the work dir (default: the current directory)')
      .option('--config <file>', 'use this config file instead of searching for one')
      .option('--user-config <file>', 'the trusted user config (default: ~/.config/ctxfiles/config.json)')
      .addOption(presetOption());
    if (flags === 'resolution') {
      created
        .option('--agent <id>', 'resolve for this agent')
        .option('--flow <id>', 'resolve for a step of this flow (needs --step)')
        .option('--step <id>', 'the flow step')
        .addOption(new Option('--format <format>', 'output format').choices(FORMATS));
      if (name === 'resolve' || name === 'prompt' || name === 'explain')
        created
          .option(
            '--paths <path...>',
            'paths in play, relative to the work dir: matching rules apply',
            listValues,
          )
          .option('--rule <name...>', 'rules to include by name, whatever their kind', listValues);
    }
    return created.option('--json', 'print JSON for tools');
  };
  return { program, version, command, exitCode: EXIT.ok };
}

/**
 * The parser of every list option (`--paths`, `--rule`, `--tools`): values may follow the flag
 * (`--paths a b`), the flag may be repeated, and a value may hold several, comma-separated
 * (`--tools read,edit`); the help and docs show the first form.
 */
function listValues(value: string, previous: readonly string[] = []): string[] {
  return [
    ...previous,
    ...value
      .split(',')
      .map((item) => item.trim())
      .filter((item) => item !== ''),
  ];
}

/** `--preset NAME`: the config is merged over a tool's preset (docs/presets.md). */
function presetOption(): Option {
  return new Option('--preset <name>', "merge the config over a tool's preset").choices(hosts.presetNames);
}

/** `resolve`, `manifest` and `session`: a resolver for one request. */
function registerResolutionCommands(cli: Cli, io: CliIo): void {
  cli
    .command('resolve', 'print the context block for an agent and flow step')
    .action(async (options: CommonOptions) => {
      cli.exitCode = await resolveCommand(options, io);
    });
  cli.command('manifest', 'print the nested-file manifest').action(async (options: CommonOptions) => {
    cli.exitCode = await manifestCommand(options, io);
  });
  cli
    .command('session', 'disclose nested files for tool calls read as JSON Lines on stdin')
    .option('--state <file>', 'resume from a state saved with {"op":"state"}')
    .action(async (options: CommonOptions & { state?: string }) => {
      const { runSession } = await import('./session.js');
      const { resolver, request } = await openResolver(options, io);
      cli.exitCode = await runSession({
        resolver,
        request,
        statePath: fromShell(options.state, io),
        io,
      });
    });
}

/** `prompt` and `explain`: the same inputs, two views of the assembled system prompt. */
function registerPromptCommands(cli: Cli, io: CliIo): void {
  for (const [name, description] of [
    ['prompt', 'print the assembled system prompt for runners in other languages'],
    ['explain', "show each prompt section's size, every context file's outcome, and all diagnostics"],
  ] as const) {
    const command = cli
      .command(name, description)
      .option(
        '--input <file>',
        'a JSON file with base, tools, subagents, skillsRoots, mcpServers, environment, fragmentsDir',
      )
      .option('--tools <name...>', 'the active tools', listValues)
      .option(
        '--skills-root <dir>',
        'a skills root (repeatable; later roots win)',
        (value: string, previous: string[] = []) => [...previous, value],
      )
      .option('--mcp <file|json>', 'the MCP servers: a JSON file, or the JSON itself (starting with [ or {)')
      .option('--base <file>', 'a file whose text replaces the bundled base')
      .option('--fragments <dir>', 'a directory of fragment overrides (<name>.md)')
      .option('--date <date>', 'the date shown in the environment section');
    if (name === 'explain')
      command.option('--hosts', "what each host's agents and modes would see here (docs/subagents.md)");
    command.action(async (options: CommonOptions & Record<string, unknown>) => {
      const commands = await import('./prompt-command.js');
      const { resolver, request } = await openResolver(options, io);
      if (name === 'explain' && options['hosts'] === true) {
        const { explainHostsCommand } = await import('./explain-hosts.js');
        cli.exitCode = await explainHostsCommand(resolver, request.agent, options['json'] === true, io);
        return;
      }
      const run = name === 'prompt' ? commands.promptCommand : commands.explainCommand;
      cli.exitCode = await run(options, resolver, request, io);
    });
  }
}

/** `init`: writes a host's hook and MCP configuration. */
function registerInitCommand(cli: Cli, io: CliIo): void {
  cli
    .command('init', "write an agent's hook and MCP server configuration", 'none')
    .argument('<host>', orList(INIT_HOSTS))
    .option('--project', "the project's settings (default)")
    .option('--user', "the user's settings, for every project")
    .option('--cwd <dir>', 'the project directory (default: the current directory)')
    .option('--dry-run', 'print the changes as a diff and write nothing')
    .option('--remove', "take ctxfiles' entries out")
    .action(
      async (
        host: string,
        options: { project?: boolean; user?: boolean; cwd?: string; dryRun?: boolean; remove?: boolean },
      ) => {
        if (options.project === true && options.user === true) {
          io.stderr.write('ctxfiles: error: --project and --user cannot be used together\n');
          cli.exitCode = EXIT.usage;
          return;
        }
        const { initCommand } = await import('./init-command.js');
        cli.exitCode = initCommand(
          {
            host,
            scope: options.user === true ? 'user' : 'project',
            dryRun: options.dryRun === true,
            remove: options.remove === true,
            cwd: fromShell(options.cwd, io),
          },
          io,
        );
      },
    );
}

/** `mcp`: a server for MCP clients, with its own options; `hook`'s help. */
function registerServerCommands(cli: Cli, io: CliIo): void {
  // `hook` runs before commander parses (`run`), with its own small parser for speed; this entry
  // gives it the same `--help` and `ctxfiles help hook` as every other command (docs/hooks.md).
  cli
    .command(
      'hook',
      'answer one coding agent hook event read as JSON on stdin (see docs/hooks.md); always exits 0',
      'none',
    )
    .argument('<agent>', `the agent whose event it is: ${orList(hosts.hookHosts)}`)
    .option('--cwd <dir>', 'the work dir (default: the event\'s "cwd")')
    .option('--config <file>', 'use this config file instead of searching for one')
    .option('--user-config <file>', 'the trusted user config (default: ~/.config/ctxfiles/config.json)')
    .addOption(presetOption())
    .option('--agent <id>', 'resolve for this ctxfiles agent (its layer and the rules scoped to it)')
    .option(
      '--state-dir <dir>',
      'keep session states here (default: $CTXFILES_STATE_DIR, else $XDG_STATE_HOME/ctxfiles/sessions, else ~/.local/state/ctxfiles/sessions)',
    )
    .option(
      '--shell-paths',
      'also take paths from shell commands: words naming an existing file or directory inside the work dir',
    )
    .action(() => {
      // Reached only through `ctxfiles help hook` paths that run nothing.
    });
  cli
    .command('mcp', 'serve instructions to MCP clients over stdio', 'none')
    .option('--cwd <dir>', 'the work dir (default: the current directory)')
    .option('--config <file>', 'use this config file instead of searching for one')
    .option('--user-config <file>', 'the trusted user config (default: ~/.config/ctxfiles/config.json)')
    .addOption(presetOption())
    .option('--agent <id>', 'serve the instructions and rules of this agent')
    .option(
      '--host <id>',
      "the agent the server runs in: return only what it does not show itself, sharing its hook's session",
    )
    .action(async (options: CommonOptions & { host?: string }) => {
      const { mcpCommand } = await import('./mcp-command.js');
      const { cwd, config, userConfig, preset, agent, host } = options;
      cli.exitCode = await mcpCommand(
        { cwd, config, userConfig, preset, agent, host, version: cli.version },
        io,
      );
    });
}

/** `doctor`: every host side by side, and the findings (docs/doctor.md). */
function registerDoctorCommand(cli: Cli, io: CliIo): void {
  cli
    .command('doctor', 'show what each host loads here, side by side, and what is wrong in the files', 'none')
    .option('--cwd <dir>', 'the work dir (default: the current directory)')
    .option('--host <name...>', 'the hosts to compare (default: all; `ctxfiles presets` lists them)')
    .option('--path <path...>', 'also look from these directories (or files), relative to the work dir')
    .option('--json', 'print the matrix and the findings as JSON')
    .addOption(new Option('--format <format>', 'print the findings for CI').choices(['sarif', 'github']))
    .option('--html [file]', 'write the context map, one self-contained page, to this .html file (or stdout)')
    .addOption(new Option('--fail-on <severity>', 'exit 1 on a finding this bad').choices(['error', 'warn']))
    .action(async (options: Record<string, unknown>) => {
      const { doctorCommand } = await import('./doctor-command.js');
      cli.exitCode = await doctorCommand(options, io, cli.version);
    });
}

/** `validate` and `schema`: the config itself. */
function registerConfigCommands(cli: Cli, io: CliIo): void {
  cli
    .command('validate', 'check the config and flow files', 'config')
    .argument('[files...]', 'config or flow files to check (default: the config found from --cwd)')
    .action(async (files: string[], options: CommonOptions) => {
      cli.exitCode = await validateCommand(files, options, io);
    });
  cli
    .command('schema', 'print the JSON Schema of the config', 'none')
    .option('--out <file>', 'write the schema to this file instead')
    .action(async (options: CommonOptions & { out?: string }) => {
      const { configJsonSchemaText } = await import('../config/json-schema.js');
      const text = configJsonSchemaText();
      if (options.out === undefined) io.stdout.write(text);
      else writeOutput(fromShell(options.out, io), text);
    });
  cli
    .command(
      'presets',
      'list the presets and the host version each was verified against, or print one',
      'none',
    )
    .argument('[action]', '"show" to print a preset as JSON')
    .argument('[name]', 'the preset to show')
    .option('--json', 'print the list as JSON')
    .action(async (action: string | undefined, name: string | undefined, options: { json?: boolean }) => {
      const { presetsCommand } = await import('./presets-command.js');
      cli.exitCode = presetsCommand(action, name, io, options.json === true);
    });
}

async function validateCommand(files: readonly string[], options: CommonOptions, io: CliIo): Promise<number> {
  const { validateFiles } = await import('./validate.js');
  const report = await validateFiles({
    files,
    cwd: resolveCwd(options, io),
    configFile: fromShell(options.config, io),
    preset: options.preset,
    userConfig: fromShell(options.userConfig, io),
    env: io.env,
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

/** Writes a file the user named (`schema --out`); a failure is an error naming it, not a stack. */
function writeOutput(file: string, text: string): void {
  try {
    writeFileSync(file, text);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'error';
    const why =
      code === 'ENOENT'
        ? 'its directory does not exist'
        : code === 'EISDIR'
          ? 'it is a directory'
          : code === 'EACCES' || code === 'EPERM'
            ? 'permission denied'
            : code;
    throw new CtxfilesError('output-failed', `--out ${file}: cannot write the file (${why})`, {
      cause: error,
    });
  }
}
