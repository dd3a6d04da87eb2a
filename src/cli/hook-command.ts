import { runHook } from '../hooks/run-hook.js';
import { escapeControl } from '../render/escape.js';
import { fromShell } from './io.js';
import type { HookAgent } from '../hooks/tool-names.js';
import { PRESET_NAMES } from '../presets/index.js';

/** The agents `ctxfiles hook` answers. */
export const HOOK_AGENTS: readonly HookAgent[] = ['claude-code', 'gemini-cli'];

/** What `ctxfiles hook` reads and writes; the bin passes the real process's. */
export interface HookIo {
  readonly stdout: { write(text: string): unknown };
  readonly stderr: { write(text: string): unknown };
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
  /** The whole of stdin. */
  readStdin(): Promise<string> | string;
}

const USAGE = `Usage: ctxfiles hook <claude-code|gemini-cli> [--cwd <dir>] [--config <file>] [--user-config <file>] [--preset <name>] [--state-dir <dir>]

Answer one Claude Code or Gemini CLI hook event read as JSON on stdin (see docs/hooks.md).
Always exits 0; problems are reported as warnings on stderr.

Options:
  --cwd <dir>        the work dir (default: the event's "cwd")
  --config <file>    use this config file instead of searching for one
  --user-config <file>  the trusted user config (default: ~/.config/ctxfiles/config.json)
  --preset <name>    merge the config over a preset (${PRESET_NAMES.join(', ')})
  --state-dir <dir>  keep session states here (default: $CTXFILES_STATE_DIR, else
                     $XDG_STATE_HOME/ctxfiles/sessions, else ~/.local/state/ctxfiles/sessions)
  -h, --help         show help
`;

/** The options of `ctxfiles hook` that take a value, by flag. */
const HOOK_FLAGS: Readonly<Record<string, 'cwd' | 'config' | 'userConfig' | 'preset' | 'stateDir'>> = {
  '--cwd': 'cwd',
  '--config': 'config',
  '--user-config': 'userConfig',
  '--preset': 'preset',
  '--state-dir': 'stateDir',
};

/**
 * `ctxfiles hook <agent> [options]` (`argv` without `hook`): reads one hook event from stdin and
 * prints the agent's answer. It has its own small argument parser so that the bin can start it
 * without loading the rest of the CLI: a hook runs on every tool call. Always returns 0, whatever
 * goes wrong (a hook must never break the agent: Gemini CLI replaces a tool's result with stderr on
 * exit 2); each problem is one `ctxfiles: warning:` line on stderr.
 */
export async function hookCommand(argv: readonly string[], io: HookIo): Promise<number> {
  // One line per warning, and no terminal control: a message may carry a path or a value from the
  // event or the state file (docs/hooks.md).
  const warn = (message: string) => io.stderr.write(`ctxfiles: warning: ${escapeControl(message)}\n`);
  const options: { cwd?: string; config?: string; userConfig?: string; preset?: string; stateDir?: string } =
    {};
  const positional: string[] = [];
  for (let index = 0; index < argv.length; index += 1) {
    const arg = argv[index] as string;
    if (arg === '-h' || arg === '--help') {
      io.stdout.write(USAGE);
      return 0;
    }
    const [flag, inline] =
      arg.startsWith('--') && arg.includes('=') ? arg.split(/=(.*)/s, 2) : [arg, undefined];
    const key = HOOK_FLAGS[flag as string];
    if (key !== undefined) {
      const value = inline ?? argv[(index += 1)];
      if (value === undefined || value === '') {
        warn(`${flag} needs a value; nothing added`);
        return 0;
      }
      options[key] = value;
    } else if (arg.startsWith('-')) {
      warn(`unknown option ${JSON.stringify(arg)} for ctxfiles hook; nothing added`);
      return 0;
    } else positional.push(arg);
  }
  if (options.preset !== undefined && !PRESET_NAMES.includes(options.preset)) {
    warn(`"${options.preset}" is not a preset (${PRESET_NAMES.join(', ')}); nothing added`);
    return 0;
  }
  const agent = positional[0];
  if (positional.length !== 1 || !(HOOK_AGENTS as readonly string[]).includes(agent as string)) {
    warn(
      `expected one agent (${HOOK_AGENTS.join(' or ')}), got ${JSON.stringify(positional.join(' '))}; nothing added`,
    );
    return 0;
  }
  const input = await io.readStdin();
  const answer = await runHook({
    agent: agent as HookAgent,
    input,
    cwd: options.cwd,
    configFile: fromShell(options.config, io),
    preset: options.preset,
    userConfig: fromShell(options.userConfig, io),
    stateDir: fromShell(options.stateDir, io),
    env: io.env,
    processCwd: io.cwd,
  });
  io.stdout.write(answer.stdout);
  for (const warning of new Set(answer.warnings)) warn(warning);
  return 0;
}

/** Reads a whole stream (the in-process CLI's stdin). */
export async function readStream(stream: NodeJS.ReadableStream | undefined): Promise<string> {
  if (stream === undefined) return '';
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks).toString('utf8');
}
