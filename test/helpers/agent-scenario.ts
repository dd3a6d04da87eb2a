/**
 * The read-then-answer scenario the framework adapters are tested with (test/adapters.test.ts):
 * a repo with a root AGENTS.md and two nested ones, a session that records the events it gets,
 * and the tool calls a scripted model makes.
 */
import { createMemoryFileSystem, createResolver, type Session, type ToolEvent } from '../../src/index.js';

export const ROOT_RULES = '# Root rules: run the tests';
export const API_RULES = '# API rules: keep handlers small';
export const WEB_RULES = '# Web rules: no inline styles';

const FILES: Record<string, string> = {
  '/repo/AGENTS.md': ROOT_RULES,
  '/repo/services/api/AGENTS.md': API_RULES,
  '/repo/services/api/main.ts': 'export const main = 1;',
  '/repo/web/AGENTS.md': WEB_RULES,
  '/repo/web/index.ts': 'export {};',
};

/** The calls the scripted model makes, in order: a failing read, two reads of one file, a listing. */
export const CALLS = [
  { name: 'read_file', input: { path: 'services/api/missing.ts' } },
  { name: 'read_file', input: { path: 'services/api/main.ts' } },
  { name: 'read_file', input: { path: 'services/api/main.ts' } },
  { name: 'list_dir', input: { path: 'web' } },
] as const;

export const BASE = 'You are a careful coding agent.';

/** A resolver over the scenario repo, its resolution, and a session that records every event. */
export async function openScenario() {
  const fs = createMemoryFileSystem(FILES);
  const resolver = await createResolver({
    workDir: '/repo',
    config: { contextPaths: ['AGENTS.md'] },
    fs,
    env: {},
  });
  const result = await resolver.resolve();
  const opened = await resolver.openSession();
  const events: ToolEvent[] = [];
  const session: Session = {
    ...opened,
    diagnostics: opened.diagnostics,
    afterTool: (event) => {
      events.push(event);
      return opened.afterTool(event);
    },
    report: (event) => {
      events.push(event);
      return opened.report(event);
    },
    state: () => opened.state(),
  };
  return { resolver, result, session, events };
}

/** The tool the scenario's tools run: a file's text, or a throw for a file that does not exist. */
export function readFile(path: string): string {
  const text = FILES[`/repo/${path}`];
  if (text === undefined) throw new Error(`ENOENT: ${path}`);
  return text;
}

export function listDir(path: string): string {
  return Object.keys(FILES)
    .filter((file) => file.startsWith(`/repo/${path}/`))
    .map((file) => file.slice(`/repo/${path}/`.length))
    .join('\n');
}

/** How often `needle` occurs in `text`. */
export function count(text: string, needle: string): number {
  return text.split(needle).length - 1;
}
