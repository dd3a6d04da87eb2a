import path from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { createNodeFileSystem } from '../fs/node-file-system.js';
import { createMcpConnection } from '../mcp/mcp-connection.js';
import { rulesOfResolver } from '../mcp/rule-source.js';
import { loadMcpSdk, serveMcp, type McpSdk } from '../mcp/serve-mcp.js';
import { fromShell } from './io.js';
import type { CliIo } from './run.js';

/** Options of `ctxfiles mcp`. */
export interface McpCommandOptions {
  readonly cwd?: string | undefined;
  readonly config?: string | undefined;
  /** A preset the config is merged over (docs/presets.md). */
  readonly preset?: string | undefined;
  /** The trusted user config (`--user-config`); default: the usual place (docs/config.md). */
  readonly userConfig?: string | undefined;
  /** The CLI's version, reported to clients. */
  readonly version: string;
  /** Loads the MCP SDK; a test replaces it. Default: {@link loadMcpSdk}. */
  readonly loadSdk?: () => Promise<McpSdk>;
}

/** Printed when the optional peer dependency is missing. */
export const MISSING_SDK_MESSAGE =
  'ctxfiles: error: `ctxfiles mcp` needs the MCP SDK, an optional peer dependency that is not installed.\n' +
  'ctxfiles: install it next to ctxfiles: npm install @modelcontextprotocol/sdk@^1.32.0\n';

/**
 * `ctxfiles mcp`: an MCP server over stdin/stdout until stdin ends. Diagnostics go to stderr,
 * never to stdout, which carries only protocol messages. Returns 0 after a clean shutdown, 1 when
 * the SDK is missing.
 * @throws CtxfilesError for an invalid config or work dir (reported by `run`).
 */
export async function mcpCommand(options: Readonly<McpCommandOptions>, io: CliIo): Promise<number> {
  let sdk: McpSdk;
  try {
    sdk = await (options.loadSdk ?? loadMcpSdk)();
  } catch (error) {
    if (!isMissingModule(error)) throw error;
    io.stderr.write(MISSING_SDK_MESSAGE);
    return 1;
  }
  const input = io.stdin as Readable | undefined;
  if (input === undefined) {
    io.stderr.write(
      'ctxfiles: error: `ctxfiles mcp` speaks MCP on stdin and stdout; no stdin is available\n',
    );
    return 2;
  }
  // Imported as run.ts imports them, so the bundle keeps one chunk per module for every command.
  const [{ loadConfig }, { createResolver }] = await Promise.all([
    import('../config/load-config.js'),
    import('../api/create-resolver.js'),
  ]);
  const workDir = path.resolve(io.cwd, options.cwd ?? '.');
  const fs = createNodeFileSystem();
  const config = await loadConfig({
    cwd: workDir,
    configFile: fromShell(options.config, io),
    preset: options.preset,
    userConfig: fromShell(options.userConfig, io),
    displayCwd: io.cwd,
    lazyFlows: true,
  });
  for (const diagnostic of config.diagnostics)
    if (diagnostic.level === 'warn')
      io.stderr.write(`ctxfiles: warning: ${diagnostic.message} [${diagnostic.code}]\n`);
  const resolver = await createResolver({ workDir, config, env: io.env, fs });
  const connection = createMcpConnection({ resolver, fs, rules: rulesOfResolver(resolver) });
  const transport = new sdk.StdioServerTransport(input, io.stdout as unknown as Writable);
  const ended = new Promise<void>((resolve) => {
    input.once('end', resolve);
    input.once('close', resolve);
  });
  const served = await serveMcp({
    sdk,
    connection,
    transport,
    version: options.version,
    onError: (error) => io.stderr.write(`ctxfiles mcp: ${error.message.split('\n')[0]?.slice(0, 500)}\n`),
  });
  await Promise.race([served.closed, ended]);
  await served.close();
  return 0;
}

/** True when the error says a package (the SDK or one of its dependencies) cannot be found. */
function isMissingModule(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND';
}
