// A minimal MCP client over stdio for the lab's expected side: starts `ctxfiles mcp`, initializes,
// calls one tool and returns the text of its answer. Bounded by a timeout; the server is killed
// when done.
import { spawn } from 'node:child_process';

/** Calls `tool` with `args` on the MCP server started by `command args`; resolves to its text. */
export function callMcpTool({ command, args, cwd, env, tool, toolArgs, timeoutMs = 20_000 }) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
    let buffer = '';
    let stderr = '';
    const finish = (text) => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      resolve(text);
    };
    const timer = setTimeout(() => finish(`(ctxfiles mcp timed out: ${stderr})`), timeoutMs);
    const send = (message) => child.stdin.write(`${JSON.stringify(message)}\n`);
    child.stdin.on('error', () => {});
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', (error) => finish(`(ctxfiles mcp failed: ${error})`));
    child.stdout.on('data', (chunk) => {
      buffer += chunk;
      let newline;
      while ((newline = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(newline + 1);
        let message;
        try {
          message = JSON.parse(line);
        } catch {
          continue;
        }
        if (message.id === 1) {
          send({ jsonrpc: '2.0', method: 'notifications/initialized' });
          send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: tool, arguments: toolArgs } });
        } else if (message.id === 2) {
          const content = message.result?.content ?? [];
          finish(content.map((part) => part.text ?? '').join(''));
        }
      }
    });
    send({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: '2025-06-18',
        capabilities: {},
        clientInfo: { name: 'ctxfiles-lab', version: '1' },
      },
    });
  });
}
