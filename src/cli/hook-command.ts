import path from 'node:path';
import type { HookAgent } from '../hooks/tool-names.js';
import type { CliIo } from './run.js';

/** The agents `ctxfiles hook` answers. */
export const HOOK_AGENTS: readonly HookAgent[] = ['claude-code', 'gemini-cli'];

/** Options of `ctxfiles hook`. */
export interface HookCommandOptions {
  readonly cwd?: string;
  readonly config?: string;
  readonly stateDir?: string;
}

/**
 * `ctxfiles hook <agent>`: reads one hook event from stdin and prints the agent's answer. Always
 * returns 0, whatever goes wrong (a hook must never break the agent: Gemini CLI replaces the tool
 * result with stderr on exit 2); each problem is one `ctxfiles: warning:` line on stderr.
 */
export async function hookCommand(agent: string, options: HookCommandOptions, io: CliIo): Promise<number> {
  if (!(HOOK_AGENTS as readonly string[]).includes(agent)) {
    io.stderr.write(
      `ctxfiles: warning: unknown agent ${JSON.stringify(agent)} (known: ${HOOK_AGENTS.join(', ')}); nothing added\n`,
    );
    return 0;
  }
  const [{ runHook }, input] = await Promise.all([import('../hooks/run-hook.js'), readAll(io.stdin)]);
  const answer = await runHook({
    agent: agent as HookAgent,
    input,
    cwd: options.cwd,
    configFile: options.config,
    stateDir: options.stateDir === undefined ? undefined : path.resolve(io.cwd, options.stateDir),
    env: io.env,
    processCwd: io.cwd,
  });
  io.stdout.write(answer.stdout);
  for (const warning of new Set(answer.warnings)) io.stderr.write(`ctxfiles: warning: ${warning}\n`);
  return 0;
}

async function readAll(stream: NodeJS.ReadableStream | undefined): Promise<string> {
  if (stream === undefined) return '';
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks).toString('utf8');
}
