/**
 * Issue #37, "Done when": a project shaped like pydantic/pydantic-ai (test/helpers/pydantic-shaped.ts)
 * through every channel, each text counted: one copy per identity in resolve, the manifest, a
 * session, the hooks (with what the host shows itself), MCP `instructions_for_path` and the AI SDK
 * adapter; and the bytes a session start and a nested read add, with the host's own files
 * subtracted (the default) and repeated (`contextDiscovery.repeatHostFiles`).
 */
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, test } from 'vitest';
import { generateText, jsonSchema, stepCountIs, tool as aiTool } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { createResolver } from '../src/index.js';
import { withContext as withAiSdk, contextPrompt } from '../src/adapters/ai-sdk.js';
import { createMcpConnection } from '../src/mcp/mcp-connection.js';
import { createNodeFileSystem } from '../src/fs/node-file-system.js';
import { cli } from './helpers/cli.js';
import { tempTree } from './helpers/disk.js';
import {
  ALONE,
  FILE_IN,
  ROOT_TEXT,
  TWINS,
  aloneText,
  pydanticShaped,
  twinText,
} from './helpers/pydantic-shaped.js';
import { HOST_REGISTRY } from '../src/hosts/index.js';

const DIRS: readonly string[] = [...TWINS, ...ALONE];

/** How many times `needle` occurs in `text`. */
const count = (text: string, needle: string) => text.split(needle).length - 1;

/** Each text's copies in `text`: the root's, then each directory's. */
function copies(text: string): Record<string, number> {
  return Object.fromEntries([
    [ROOT_TEXT, count(text, ROOT_TEXT)],
    ...TWINS.map((dir) => [twinText(dir), count(text, twinText(dir))]),
    ...ALONE.map((dir) => [aloneText(dir), count(text, aloneText(dir))]),
  ]);
}

/** Every text once. */
const ONCE = copies([ROOT_TEXT, ...TWINS.map(twinText), ...ALONE.map(aloneText)].join('\n'));

/** A hook of `host` in `root`, one session; with `repeat`, the user config sets repeatHostFiles. */
function hookSession(root: string, host: string, { repeat = false } = {}) {
  const config = path.join(
    tempTree({ 'repeat.json': '{"contextDiscovery":{"repeatHostFiles":true}}' }),
    'repeat.json',
  );
  const stateDir = path.join(tempTree(), 'sessions');
  const send = async (event: Record<string, unknown>): Promise<string> => {
    const result = await cli(['hook', host, ...(repeat ? ['--config', config] : [])], {
      cwd: root,
      env: { CTXFILES_STATE_DIR: stateDir, HOME: root },
      stdin: Readable.from([JSON.stringify({ session_id: 's1', cwd: root, ...event })]),
    });
    expect(result.stderr).toBe('');
    if (result.stdout === '' || result.stdout === '{}\n') return '';
    return (
      (JSON.parse(result.stdout) as { hookSpecificOutput?: { additionalContext?: string } })
        .hookSpecificOutput?.additionalContext ?? ''
    );
  };
  const start = () => send({ hook_event_name: 'SessionStart', source: 'startup' });
  const read = (file: string) =>
    host === 'codex'
      ? send({
          hook_event_name: 'PostToolUse',
          tool_name: 'apply_patch',
          tool_input: {
            command: `*** Begin Patch\n*** Update File: ${path.join(root, file)}\n@@\n-x = 1\n+x = 2\n*** End Patch\n`,
          },
          tool_response: {},
        })
      : send({
          hook_event_name: 'PostToolUse',
          tool_name: 'Read',
          tool_input: { file_path: path.join(root, file) },
          tool_response: {},
        });
  return { start, read };
}

/**
 * What Claude Code 2.1.332 shows itself in this project (the lab's claude-code rows): the root
 * CLAUDE.md at start, and after a Read the CLAUDE.md of each directory above the file (a twin
 * here); never an AGENTS.md alone, in a project with a CLAUDE.md.
 */
function claudeShows(files: readonly string[]): string {
  const root = pydanticShaped();
  const text = (file: string) => root[file] as string;
  const shown = new Set<string>(['AGENTS.md']);
  for (const file of files) {
    const parts = file.split('/');
    for (let depth = 1; depth < parts.length; depth += 1) {
      const dir = parts.slice(0, depth).join('/');
      if ((TWINS as readonly string[]).includes(dir)) shown.add(`${dir}/AGENTS.md`);
    }
  }
  return [...shown].map(text).join('\n');
}

describe('a pydantic-ai shaped project: one copy per identity in every channel', () => {
  test('resolve: the root once; the manifest: 15 entries, one per identity, none a CLAUDE.md twin', async () => {
    const root = tempTree(pydanticShaped());
    const result = await (await createResolver({ workDir: root, homeDir: root, config: {} })).resolve();
    expect(count(result.text, ROOT_TEXT)).toBe(1);
    expect(result.nested.map((file) => file.relativePath).sort()).toEqual(
      DIRS.map((dir) => `${dir}/AGENTS.md`).sort(),
    );
    for (const dir of DIRS) expect(count(result.manifest, `${dir}/AGENTS.md`)).toBe(1);
    expect(result.manifest).not.toContain('CLAUDE.md');
  });

  test('a session: the block plus a read in each of the 15 directories holds every text once', async () => {
    const root = tempTree(pydanticShaped());
    const resolver = await createResolver({ workDir: root, homeDir: root, config: {} });
    const { text } = await resolver.resolve();
    const session = await resolver.openSession();
    const added: string[] = [];
    for (const dir of DIRS)
      added.push(
        await session.afterTool({
          tool: 'read',
          input: { file_path: path.join(root, FILE_IN(dir)) },
          ok: true,
        }),
      );
    expect(copies([text, ...added].join('\n'))).toEqual(ONCE);
  });

  test('the Claude Code hook: with what Claude Code shows itself, every text once; repeating the host files doubles the twins', async () => {
    const root = tempTree(pydanticShaped());
    const files = DIRS.map(FILE_IN);
    const hook = hookSession(root, 'claude-code');
    const added = [await hook.start()];
    for (const file of files) added.push(await hook.read(file));
    expect(copies([claudeShows(files), ...added].join('\n'))).toEqual(ONCE);
    // The subtraction turned off: each twin, and the root, twice.
    const repeat = hookSession(tempTree(pydanticShaped()), 'claude-code', { repeat: true });
    const again = [await repeat.start()];
    for (const file of files) again.push(await repeat.read(file));
    const doubled = copies([claudeShows(files), ...again].join('\n'));
    expect(doubled[ROOT_TEXT]).toBe(2);
    for (const dir of TWINS) expect(doubled[twinText(dir)]).toBe(2);
    for (const dir of ALONE) expect(doubled[aloneText(dir)]).toBe(1);
  });

  test('the Codex hook (no nested files of its own): the start and a patch in each directory bring every nested text once', async () => {
    const root = tempTree(pydanticShaped());
    const hook = hookSession(root, 'codex');
    // Codex loads the root AGENTS.md itself.
    const added = [fs.readFileSync(path.join(root, 'AGENTS.md'), 'utf8'), await hook.start()];
    for (const dir of DIRS) added.push(await hook.read(FILE_IN(dir)));
    expect(copies(added.join('\n'))).toEqual(ONCE);
    expect(added.join('\n')).not.toContain('CLAUDE.md');
  });

  test('MCP instructions_for_path, one connection, a path in each directory: every text once', async () => {
    const root = tempTree(pydanticShaped());
    const resolver = await createResolver({ workDir: root, homeDir: root, config: {} });
    const connection = createMcpConnection({
      resolver,
      formats: HOST_REGISTRY.format,
      fs: createNodeFileSystem(),
      homeDir: root,
    });
    const answers: string[] = [];
    for (const dir of DIRS) {
      const answer = await connection.callTool('instructions_for_path', { path: FILE_IN(dir) });
      answers.push(answer.content.map((part) => part.text).join('\n'));
    }
    expect(copies(answers.join('\n'))).toEqual(ONCE);
  });

  test('the AI SDK adapter: the system prompt and the tool results of a read in each directory hold every text once', async () => {
    const root = tempTree(pydanticShaped());
    const resolver = await createResolver({ workDir: root, homeDir: root, config: {} });
    const result = await resolver.resolve();
    const session = await resolver.openSession();
    const script = DIRS.map((dir) => path.join(root, FILE_IN(dir)));
    const prompts: unknown[][] = [];
    const usage = { inputTokens: { total: 1 }, outputTokens: { total: 1 } };
    const model = new MockLanguageModelV3({
      doGenerate: async (options) => {
        prompts.push(options.prompt as unknown[]);
        const file = script.shift();
        if (file === undefined)
          return {
            content: [{ type: 'text', text: 'done' }],
            finishReason: { unified: 'stop', raw: undefined },
            usage,
            warnings: [],
          } as never;
        const call = {
          type: 'tool-call',
          toolCallId: `c${prompts.length}`,
          toolName: 'read_file',
          input: JSON.stringify({ path: file }),
        };
        return {
          content: [call],
          finishReason: { unified: 'tool-calls', raw: undefined },
          usage,
          warnings: [],
        } as never;
      },
    });
    const input = jsonSchema<{ path: string }>({
      type: 'object',
      properties: { path: { type: 'string' } },
      required: ['path'],
    });
    const tools = withAiSdk(session, {
      read_file: aiTool({
        inputSchema: input,
        execute: async ({ path: file }) => fs.readFileSync(file, 'utf8'),
      }),
    });
    await generateText({
      model,
      system: contextPrompt(result, 'You are a coding agent.'),
      prompt: 'Work.',
      tools,
      stopWhen: stepCountIs(DIRS.length + 2),
    });
    const last = prompts.at(-1) as Array<{ role: string; content: unknown }>;
    const system = last.find((message) => message.role === 'system')?.content as string;
    const results = last
      .filter((message) => message.role === 'tool')
      .flatMap((message) => message.content as Array<{ output: { value: unknown } }>)
      .map((part) => String(part.output.value));
    expect(results).toHaveLength(DIRS.length);
    expect(copies([system, ...results].join('\n'))).toEqual(ONCE);
  });
});

describe('the bytes a session start and a nested read add (printed for the issue)', () => {
  /**
   * One hook session: its start, a read in `tests/` (a twin) and one in `tests/models/` (an
   * AGENTS.md alone), each measured in UTF-8 bytes of the text the hook adds.
   */
  async function measure(host: string, repeat: boolean) {
    const hook = hookSession(tempTree(pydanticShaped()), host, { repeat });
    const bytes = (text: string) => Buffer.byteLength(text);
    return {
      start: bytes(await hook.start()),
      twinRead: bytes(await hook.read('tests/src/x.py')),
      aloneRead: bytes(await hook.read('tests/models/x.py')),
    };
  }

  test('Claude Code: the host-shown files subtracted vs repeated', async () => {
    const after = await measure('claude-code', false);
    const before = await measure('claude-code', true);
    console.log(
      `claude-code hook bytes, repeatHostFiles true → default: ${JSON.stringify({ before, after })}`,
    );
    // What Claude Code shows itself is no longer sent: the root at start, the twin on a read.
    const root = Buffer.byteLength(pydanticShaped()['AGENTS.md'] as string);
    expect(before.start - after.start).toBeGreaterThanOrEqual(root);
    expect(after.twinRead).toBe(0);
    expect(before.twinRead).toBeGreaterThan(Buffer.byteLength(pydanticShaped()['tests/AGENTS.md'] as string));
    expect(after.aloneRead).toBeGreaterThan(0);
    expect(after.aloneRead).toBe(before.aloneRead);
  });

  test('Codex: the root subtracted at start; nested files are Codex-unseen either way', async () => {
    const after = await measure('codex', false);
    const before = await measure('codex', true);
    console.log(`codex hook bytes, repeatHostFiles true → default: ${JSON.stringify({ before, after })}`);
    expect(before.start).toBeGreaterThan(after.start);
    expect(after.twinRead).toBe(before.twinRead);
    expect(after.twinRead).toBeGreaterThan(0);
  });
});
