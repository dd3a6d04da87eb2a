import path from 'node:path';
import type { FileSystem } from '../fs/file-system.js';
import { createNodeFileSystem } from '../fs/node-file-system.js';
import { realpathSync } from 'node:fs';
import type { Resolver } from '../api/create-resolver.js';
import { CtxfilesError } from '../errors.js';
import type { McpConnectionOptions } from '../mcp/mcp-connection.js';
import type { HostRegistry } from '../registry/registry.js';
import { createScopedConnection } from '../mcp/scoped-connection.js';
import { wantedInside } from '../hooks/host-wants.js';
import { rulesOfResolver } from '../mcp/rule-source.js';
import { serveStdio, type McpOutput } from '../mcp/stdio-server.js';
import { escapeControl } from '../render/escape.js';
import { fromShell, writeDiagnostics, type CliIo } from './io.js';

/** Options of `ctxfiles mcp`. */
export interface McpCommandOptions {
  readonly cwd?: string | undefined;
  readonly config?: string | undefined;
  /** A preset the config is merged over (docs/presets.md). */
  readonly preset?: string | undefined;
  /** The agent to serve: its layer, and the rules scoped to it (docs/rules.md, "Agent scope"). */
  readonly agent?: string | undefined;
  /** The trusted user config (`--user-config`); default: the usual place (docs/config.md). */
  readonly userConfig?: string | undefined;
  /**
   * The host the server runs in (`--host`, as `ctxfiles init <host>` writes it): what the host shows
   * by itself is not returned, and with a host that has hooks the once-only state is the hook's
   * (docs/mcp.md, "Inside a host").
   */
  readonly host?: string | undefined;
  /** The CLI's version, reported to clients. */
  readonly version: string;
  /** How often tracked files are checked, in ms (a test shortens it). Default: 1000. */
  readonly pollMs?: number;
}

/**
 * `ctxfiles mcp`: an MCP server over stdin/stdout until stdin ends (src/mcp/stdio-server.ts, no
 * SDK to install). Diagnostics go to stderr, one line each with control characters escaped, never
 * to stdout, which carries only protocol messages. Returns 0 once stdin ends and every answer is
 * written.
 * @throws CtxfilesError for an invalid config or work dir (reported by `run`).
 */
export async function mcpCommand(options: Readonly<McpCommandOptions>, io: CliIo): Promise<number> {
  const input = io.stdin as AsyncIterable<Buffer | string> | undefined;
  if (input === undefined) {
    io.stderr.write(
      'ctxfiles: error: `ctxfiles mcp` speaks MCP on stdin and stdout; no stdin is available\n',
    );
    return 2;
  }
  const fs = createNodeFileSystem();
  const { resolver, hosts } = await openResolver(options, io, fs);
  const request = options.agent === undefined ? {} : { agent: options.agent };
  // An unknown agent is refused now, as `resolve --agent` refuses it, not on the first tool call.
  if (options.agent !== undefined) await resolver.resolve({ ...request, manifest: false });
  const note = (line: string) => io.stderr.write(`ctxfiles mcp: ${escapeControl(line.slice(0, 2000))}\n`);
  const connection = createScopedConnection({
    resolver,
    formats: hosts.format,
    fs,
    rules: rulesOfResolver(resolver, request),
    request,
    ...(await insideHost(options.host, hosts, resolver, io)),
    // Notes about ctxfiles itself go to stderr, one line each, never into a tool result.
    onNote: (text) => text.split('\n').forEach(note),
  });
  await serveStdio({
    connection,
    input,
    output: io.stdout as McpOutput,
    version: options.version,
    ...(options.pollMs === undefined ? {} : { pollMs: options.pollMs }),
    onError: (message) =>
      io.stderr.write(`ctxfiles mcp: ${escapeControl(message.split('\n')[0]?.slice(0, 500) ?? '')}\n`),
  });
  return 0;
}

/**
 * The resolver the server answers from: the config of the work dir loaded (its diagnostics on
 * stderr), with the host's own instruction names wanted inside a host; and the host registry.
 * @throws CtxfilesError for an invalid config or work dir.
 */
async function openResolver(
  options: Readonly<McpCommandOptions>,
  io: CliIo,
  fs: FileSystem,
): Promise<{ resolver: Resolver; hosts: HostRegistry }> {
  // Imported as run.ts imports them, so the bundle keeps one chunk per module for every command.
  const [{ loadConfig }, { createResolver }, { HOST_REGISTRY: hosts }] = await Promise.all([
    import('../config/load-config.js'),
    import('../api/create-resolver.js'),
    import('../hosts/index.js'),
  ]);
  const workDir = path.resolve(io.cwd, options.cwd ?? '.');
  const config = await loadConfig(
    {
      cwd: workDir,
      configFile: fromShell(options.config, io),
      preset: options.preset,
      userConfig: fromShell(options.userConfig, io),
      displayCwd: io.cwd,
      lazyFlows: true,
    },
    hosts,
  );
  // As `resolve` prints them, escaped: a message may carry a path or value from the repository.
  writeDiagnostics(config.diagnostics, io);
  // Inside a host, its own instruction names are wanted too unless the config names contextPaths.
  const ownNames = options.host === undefined ? undefined : hosts.host(options.host)?.ownNames;
  const resolver = await createResolver(
    { workDir, config: wantedInside(config, ownNames), env: io.env, fs },
    hosts,
  );
  return { resolver, hosts };
}

/**
 * With `--host`: the host's view, and the hook's once-only state when the host has hooks.
 * @throws CtxfilesError for a host ctxfiles does not know.
 */
async function insideHost(
  host: string | undefined,
  hosts: HostRegistry,
  resolver: Resolver,
  io: CliIo,
): Promise<Pick<McpConnectionOptions, 'view' | 'shared'>> {
  if (host === undefined) return {};
  const [{ hookHostView }, { sharedSession }, { stateDirectory }, { homeDirectory }] = await Promise.all([
    import('../hooks/host-view.js'),
    import('../hooks/shared-session.js'),
    import('../hooks/state-store.js'),
    import('../fs/home-dir.js'),
  ]);
  const known = hosts.host(host);
  if (known === undefined)
    throw new CtxfilesError(
      'usage',
      `--host: unknown host ${JSON.stringify(host)}; \`ctxfiles presets\` lists the hosts`,
    );
  const homeDir = homeDirectory();
  const view = await hookHostView(known, hosts, resolver, io.env, homeDir);
  const shared =
    known.hook === undefined
      ? undefined
      : sharedSession(host, realpathSync(resolver.workDir), stateDirectory(io.env, homeDir), Date.now());
  return { ...(view === undefined ? {} : { view }), ...(shared === undefined ? {} : { shared }) };
}
