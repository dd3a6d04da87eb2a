import fs from 'node:fs';
import path from 'node:path';
import { asHookState } from './hook-state.js';
import { readStateFile, stateFile, withStateLock, writeStateFile, type StateFile } from './state-store.js';

/** How far back a hook session may have been written and still be this MCP server's session. */
export const ADOPT_WINDOW_MS = 10 * 60 * 1000;

/**
 * The once-only state an MCP server shares with the hook of its host (docs/mcp.md, "With the
 * hook"): the newest session state the hook wrote for this host and project since shortly before
 * the server started. Nothing is shared until the hook has written one.
 */
export interface SharedSession {
  /**
   * Runs `step` under the session's lock with its disclosure state (`null`: no hook session, and
   * `step`'s state is not stored), and stores the state `step` returns.
   */
  withDisclosure<T>(
    step: (disclosure: unknown | null) => Promise<{ readonly value: T; readonly disclosure: unknown }>,
  ): Promise<T>;
}

/**
 * The shared session of `host` in `workDir` (the canonical work dir the hook keys its states by),
 * looked up again on each call: a hook session that starts after the server is adopted then.
 */
export function sharedSession(host: string, workDir: string, dir: string, startedAt: number): SharedSession {
  return {
    async withDisclosure(step) {
      const state = newestSession(host, workDir, dir, startedAt - ADOPT_WINDOW_MS);
      if (state === null) return (await step(null)).value;
      return withStateLock(state, async () => {
        const read = readStateFile(state);
        const stored = read.kind === 'ok' ? asHookState(read.value) : null;
        if (stored === null || stored.workDir !== workDir || stored.agent !== host)
          return (await step(null)).value;
        const outcome = await step(stored.disclosure);
        writeStateFile(state, {
          ...stored,
          updated: new Date().toISOString(),
          disclosure: outcome.disclosure,
        });
        return outcome.value;
      });
    },
  };
}

/** The newest state file of `host` written since `since`, or `null`. One listing, a stat per candidate. */
function newestSession(host: string, workDir: string, dir: string, since: number): StateFile | null {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return null;
  }
  let best: { name: string; mtime: number } | null = null;
  for (const name of names) {
    if (!name.startsWith(`${host}-`) || !name.endsWith('.json')) continue;
    const info = fs.lstatSync(path.join(dir, name), { throwIfNoEntry: false });
    if (info === undefined || !info.isFile() || info.mtimeMs < since) continue;
    if (best === null || info.mtimeMs > best.mtime) {
      // Only a state of this project: read it (it is small) to compare its work dir.
      const read = readStateFile(stateFile(dir, name));
      const value = read.kind === 'ok' ? asHookState(read.value) : null;
      if (value !== null && value.workDir === workDir) best = { name, mtime: info.mtimeMs };
    }
  }
  return best === null ? null : stateFile(dir, best.name);
}
