import { readAllBounded, type BoundedInput } from '../fs/bounded-input.js';
import { formatHookOutput } from '../hooks/hook-event.js';
import type { HookAnswer, RunHookOptions } from '../hooks/quick-hook.js';
import { HOST_REGISTRY as hosts } from '../hosts/index.js';
import type { HookProtocol } from '../registry/host.js';
import { escapeControl } from '../render/escape.js';
import { fromShell } from './io.js';
import type { HookAgent } from '../hooks/tool-names.js';
import { orList } from '../shared/or-list.js';

/** What `ctxfiles hook` reads and writes; the bin passes the real process's. */
export interface HookIo {
  readonly stdout: { write(text: string): unknown };
  readonly stderr: { write(text: string): unknown };
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
  /** The whole of stdin, or its length when it is over {@link MAX_HOOK_INPUT_BYTES}. */
  readStdin(): Promise<BoundedInput> | BoundedInput;
  /**
   * Answers the event: `runHook` (src/hooks/run-hook.ts), which the hook's own bundle reaches only
   * when its quick check cannot answer (src/cli/entry-hook.ts).
   */
  answer(options: Readonly<RunHookOptions>): Promise<HookAnswer> | HookAnswer;
}

/**
 * The largest hook event read (32 MiB): an event holds a tool's input and result (a whole file for
 * a write), never more. A longer input is read to its end and dropped (docs/security.md, "Caps").
 */
export const MAX_HOOK_INPUT_BYTES = 33_554_432;

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
  const parsed = parseHookArgs(argv);
  if (typeof parsed === 'string') {
    warn(`${parsed}; nothing added`);
    return 0;
  }
  const { options, agent, protocol } = parsed;
  const input = await io.readStdin();
  if (typeof input !== 'string') {
    warn(`the hook input is ${input.overBytes} bytes, over the ${MAX_HOOK_INPUT_BYTES} read; nothing added`);
    io.stdout.write(formatHookOutput(protocol, 'after-tool', ''));
    return 0;
  }
  const answer = await io.answer({
    agent,
    protocol,
    hosts,
    input,
    cwd: options.cwd,
    configFile: fromShell(options.config, io),
    preset: options.preset,
    requestAgent: options.agent,
    userConfig: fromShell(options.userConfig, io),
    stateDir: fromShell(options.stateDir, io),
    shellPaths: options.shellPaths,
    env: io.env,
    processCwd: io.cwd,
  });
  io.stdout.write(answer.stdout);
  for (const warning of new Set(answer.warnings)) warn(warning);
  return 0;
}

interface HookOptions {
  cwd?: string;
  config?: string;
  userConfig?: string;
  preset?: string;
  agent?: string;
  stateDir?: string;
  shellPaths?: true;
}

/**
 * The options and the agent of `ctxfiles hook`, or what is wrong with them. `--help` never gets
 * here: `run` and the bin send it to commander, the one style of help (src/cli/run.ts).
 */
function parseHookArgs(
  argv: readonly string[],
): { options: HookOptions; agent: HookAgent; protocol: HookProtocol } | string {
  const options: HookOptions = {};
  const positional: string[] = [];
  for (let index = 0; index < argv.length; index += 1) {
    const arg = argv[index] as string;
    if (arg === '--shell-paths') {
      options.shellPaths = true;
      continue;
    }
    const [flag, inline] =
      arg.startsWith('--') && arg.includes('=') ? arg.split(/=(.*)/s, 2) : [arg, undefined];
    const key = {
      '--cwd': 'cwd',
      '--config': 'config',
      '--user-config': 'userConfig',
      '--preset': 'preset',
      '--agent': 'agent',
      '--state-dir': 'stateDir',
    }[flag as string] as 'cwd' | 'config' | 'userConfig' | 'preset' | 'agent' | 'stateDir' | undefined;
    if (key !== undefined) {
      const value = inline ?? argv[(index += 1)];
      if (value === undefined || value === '') return `${flag} needs a value`;
      options[key] = value;
    } else if (arg.startsWith('-')) return `unknown option ${JSON.stringify(arg)} for ctxfiles hook`;
    else positional.push(arg);
  }
  if (options.preset !== undefined && hosts.preset(options.preset) === undefined)
    return `"${options.preset}" is not a preset (${hosts.presetNames.join(', ')})`;
  const agent = positional[0];
  // The agents `ctxfiles hook` answers: the hosts with a hook protocol.
  const protocol = positional.length === 1 ? hosts.hookProtocol(agent as string) : undefined;
  if (protocol === undefined)
    return `expected one agent (${orList(hosts.hookHosts)}), got ${JSON.stringify(positional.join(' '))}`;
  return { options, agent: agent as HookAgent, protocol };
}

/** Reads a whole stream (the in-process CLI's stdin), up to {@link MAX_HOOK_INPUT_BYTES}. */
export function readStream(stream: NodeJS.ReadableStream | undefined): Promise<BoundedInput> {
  return readAllBounded(stream as AsyncIterable<Buffer | string> | undefined, MAX_HOOK_INPUT_BYTES);
}
