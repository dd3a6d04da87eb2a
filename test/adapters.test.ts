/**
 * The framework adapters in each framework's own agent loop, with its test model: the
 * read-then-answer scenario of test/helpers/agent-scenario.ts, checked from the prompts the model
 * was sent (docs/embedding.md).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, expectTypeOf, test } from 'vitest';
import { generateText, jsonSchema, stepCountIs, tool as aiTool } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { Agent, OpenAIProvider, Runner, setTracingDisabled, tool as agentsTool } from '@openai/agents';
import { createReactAgent } from '@langchain/langgraph/prebuilt';
import { FakeChatModel } from '@langchain/core/utils/testing';
import { AIMessage, type BaseMessage } from '@langchain/core/messages';
import { tool as langchainTool } from '@langchain/core/tools';
import { z } from 'zod';
import { withContext as withAiSdk, contextPrompt } from '../src/adapters/ai-sdk.js';
import { contextInstructions, withContext as withAgents } from '../src/adapters/openai-agents.js';
import { withContext as withLangChain } from '../src/adapters/langchain.js';
import {
  API_RULES,
  BASE,
  CALLS,
  ROOT_RULES,
  WEB_RULES,
  count,
  listDir,
  openScenario,
  readFile,
} from './helpers/agent-scenario.js';

/**
 * What every framework must show: the block and the manifest in the system prompt; the nested
 * file of services/api once, in the first successful read there (not in the failed one), nothing
 * on the second read; the web file after the listing; the failed call reported with ok: false.
 */
function checkScenario(
  system: string,
  toolResults: readonly string[],
  events: readonly { tool: string; ok?: boolean | undefined }[],
) {
  expect(system).toContain(BASE);
  expect(system).toContain(ROOT_RULES);
  expect(system).toContain('services/api/AGENTS.md');
  expect(system).toContain('web/AGENTS.md');
  expect(count(system, API_RULES)).toBe(0);
  expect(toolResults).toHaveLength(4);
  const [failed, first, second, listing] = toolResults as [string, string, string, string];
  expect(failed).not.toContain(API_RULES);
  expect(count(first, API_RULES)).toBe(1);
  expect(first).toContain('export const main = 1;');
  expect(second).toBe('export const main = 1;');
  expect(count(listing, WEB_RULES)).toBe(1);
  expect(count(toolResults.join('\n'), API_RULES)).toBe(1);
  expect(events.map((event) => [event.tool, event.ok])).toEqual([
    ['read_file', false],
    ['read_file', true],
    ['read_file', true],
    ['list_dir', true],
  ]);
}

describe('ctxfiles/ai-sdk with MockLanguageModelV3', () => {
  test('read then answer: block and manifest in the system prompt, the nested file once, a throw reported as failed', async () => {
    const { result, session, events } = await openScenario();
    const prompts: unknown[][] = [];
    const script = [...CALLS];
    const model = new MockLanguageModelV3({
      doGenerate: async (options) => {
        prompts.push(options.prompt as unknown[]);
        const call = script.shift();
        const usage = { inputTokens: { total: 1 }, outputTokens: { total: 1 } };
        if (call === undefined)
          return {
            content: [{ type: 'text', text: 'done' }],
            finishReason: { unified: 'stop', raw: undefined },
            usage,
            warnings: [],
          } as never;
        const toolCall = {
          type: 'tool-call',
          toolCallId: `c${prompts.length}`,
          toolName: call.name,
          input: JSON.stringify(call.input),
        };
        return {
          content: [toolCall],
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
      read_file: aiTool({ inputSchema: input, execute: async ({ path }) => readFile(path) }),
      // A streaming tool: its last value is the output.
      list_dir: aiTool({
        inputSchema: input,
        async *execute({ path }) {
          yield 'listing…';
          yield listDir(path);
        },
      }),
    });
    const answer = await generateText({
      model,
      system: contextPrompt(result, BASE),
      prompt: 'Fix the API.',
      tools,
      stopWhen: stepCountIs(8),
    });
    expect(answer.text).toBe('done');
    const last = prompts.at(-1) as Array<{ role: string; content: unknown }>;
    const system = last.find((message) => message.role === 'system')?.content as string;
    const toolResults = last
      .filter((message) => message.role === 'tool')
      .flatMap((message) => message.content as Array<{ output: { type: string; value: unknown } }>)
      .map((part) => String(part.output.value));
    checkScenario(system, toolResults, events);
  });

  test('an output that is not a string keeps its value and gets the text as a part of the model output', async () => {
    const { session } = await openScenario();
    const tools = withAiSdk(session, {
      read_file: aiTool({
        inputSchema: jsonSchema<{ path: string }>({ type: 'object' }),
        execute: async ({ path }) => ({ path, text: readFile(path) }),
      }),
    });
    const execute = tools.read_file.execute!;
    const output = await execute({ path: 'services/api/main.ts' }, {
      toolCallId: 'x',
      messages: [],
      context: {},
    } as never);
    expect(output).toEqual({ path: 'services/api/main.ts', text: 'export const main = 1;' });
    const model = await tools.read_file.toModelOutput!({ toolCallId: 'x', input: {}, output } as never);
    expect(model).toEqual({
      type: 'content',
      value: [
        { type: 'text', text: JSON.stringify(output) },
        { type: 'text', text: expect.stringContaining(API_RULES) },
      ],
    });
    const other = await tools.read_file.toModelOutput!({ toolCallId: 'y', input: {}, output } as never);
    expect(other).toEqual({ type: 'json', value: output });
  });
});

/** A Chat Completions server on 127.0.0.1 that answers from a script and records each request; closed after `run` or 30 s. */
async function scriptedServer<T>(
  replies: Array<Record<string, unknown>>,
  run: (
    baseURL: string,
    bodies: Array<{ messages: Array<{ role: string; content: unknown }> }>,
  ) => Promise<T>,
): Promise<T> {
  const bodies: Array<{ messages: Array<{ role: string; content: unknown }> }> = [];
  const server = http.createServer((request, response) => {
    let data = '';
    request.on('data', (chunk: Buffer) => (data += chunk.toString('utf8')));
    request.on('end', () => {
      bodies.push(JSON.parse(data));
      const message = replies.shift() ?? { role: 'assistant', content: 'done' };
      response.setHeader('content-type', 'application/json');
      response.end(
        JSON.stringify({
          id: `r${bodies.length}`,
          object: 'chat.completion',
          created: 0,
          model: 'scripted',
          choices: [{ index: 0, message, finish_reason: 'tool_calls' in message ? 'tool_calls' : 'stop' }],
          usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const stop = setTimeout(() => server.close(), 30_000);
  stop.unref();
  try {
    return await run(`http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, bodies);
  } finally {
    clearTimeout(stop);
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}

describe('ctxfiles/openai-agents against a scripted Chat Completions server', () => {
  test('read then answer: instructions with block and manifest, the nested file once, a throw reported as failed before the SDK turns it into text', async () => {
    setTracingDisabled(true);
    const { resolver, session, events } = await openScenario();
    const replies = CALLS.map((call, index) => ({
      role: 'assistant',
      content: null,
      tool_calls: [
        {
          id: `c${index}`,
          type: 'function',
          function: { name: call.name, arguments: JSON.stringify(call.input) },
        },
      ],
    }));
    const bodies = await scriptedServer(replies, async (baseURL, recorded) => {
      const parameters = z.object({ path: z.string() });
      const agent = new Agent({
        name: 'coder',
        model: 'scripted',
        instructions: contextInstructions(resolver, { base: BASE }),
        tools: [
          agentsTool(
            withAgents(session, {
              name: 'read_file',
              description: 'Read a file',
              parameters,
              execute: async ({ path }) => readFile(path),
            }),
          ),
          agentsTool(
            withAgents(session, {
              name: 'list_dir',
              description: 'List a directory',
              parameters,
              execute: ({ path }) => listDir(path),
            }),
          ),
        ],
      });
      const runner = new Runner({
        modelProvider: new OpenAIProvider({ apiKey: 'test', baseURL, useResponses: false }),
      });
      const outcome = await runner.run(agent, 'Fix the API.', { maxTurns: 8 });
      expect(outcome.finalOutput).toBe('done');
      return recorded;
    });
    const messages = bodies.at(-1)!.messages;
    const system = messages.find((message) => message.role === 'system')?.content as string;
    const toolResults = messages
      .filter((message) => message.role === 'tool')
      .map((message) => String(message.content));
    checkScenario(system, toolResults, events);
  });
});

/** LangChain's fake chat model, scripted: each call answers with the next message and records what it was sent. */
class ScriptedChatModel extends FakeChatModel {
  readonly calls: BaseMessage[][] = [];
  constructor(private readonly script: AIMessage[]) {
    super({});
  }
  override bindTools() {
    return this as never;
  }
  override async _generate(messages: BaseMessage[]) {
    this.calls.push(messages);
    const message = this.script.shift() ?? new AIMessage('done');
    return { generations: [{ message, text: typeof message.content === 'string' ? message.content : '' }] };
  }
}

describe('ctxfiles/langchain in a LangGraph createReactAgent', () => {
  test('read then answer: prompt with block and manifest, the nested file once in the tool message, a throw reported as failed', async () => {
    const { result, session, events } = await openScenario();
    const llm = new ScriptedChatModel(
      CALLS.map(
        (call, index) =>
          new AIMessage({
            content: '',
            tool_calls: [{ id: `c${index}`, name: call.name, args: call.input }],
          }),
      ),
    );
    const schema = z.object({ path: z.string() });
    const tools = withLangChain(session, [
      langchainTool(async ({ path }) => readFile(path), {
        name: 'read_file',
        description: 'Read a file',
        schema,
      }),
      langchainTool(async ({ path }) => listDir(path), {
        name: 'list_dir',
        description: 'List a directory',
        schema,
      }),
    ]);
    const agent = createReactAgent({ llm, tools, prompt: contextPrompt(result, BASE) });
    const outcome = await agent.invoke({ messages: [{ role: 'user', content: 'Fix the API.' }] });
    expect(outcome.messages.at(-1)?.content).toBe('done');
    const sent = llm.calls.at(-1)!;
    const system = sent.find((message) => message.getType() === 'system')?.content as string;
    const toolResults = sent
      .filter((message) => message.getType() === 'tool')
      .map((message) => String(message.content));
    checkScenario(system, toolResults, events);
  });

  test('invoke with config.toolCall set returns the whole ToolMessage, with the text in its content', async () => {
    const { session } = await openScenario();
    const [readTool] = withLangChain(session, [
      langchainTool(async ({ path }: { path: string }) => readFile(path), {
        name: 'read_file',
        description: 'Read a file',
        schema: z.object({ path: z.string() }),
      }),
    ]);
    const call = { id: 'c1', name: 'read_file', args: { path: 'web/index.ts' }, type: 'tool_call' as const };
    const message = (await readTool!.invoke(call)) as unknown as { tool_call_id: string; content: string };
    expect(message.tool_call_id).toBe('c1');
    expect(count(message.content, WEB_RULES)).toBe(1);
    expect(message.content.startsWith('export {};\n\n')).toBe(true);
  });
});

describe('what every entry shares', () => {
  test('names and keys map a framework tool onto a name and input the session reads', async () => {
    const { session, events } = await openScenario();
    const tools = withAiSdk(
      session,
      {
        openSource: aiTool({
          inputSchema: jsonSchema<{ source: string }>({ type: 'object' }),
          execute: async ({ source }) => readFile(source),
        }),
      },
      { names: { openSource: 'read' }, keys: { source: 'path' } },
    );
    const output = await tools.openSource.execute!({ source: 'services/api/main.ts' }, {
      toolCallId: 'c',
      messages: [],
      context: {},
    } as never);
    expect(count(String(output), API_RULES)).toBe(1);
    expect(events).toEqual([{ tool: 'read', input: { path: 'services/api/main.ts' }, ok: true }]);
  });

  test('an input given as JSON text is read, with its keys renamed', async () => {
    const { session, events } = await openScenario();
    const options = withAgents(
      session,
      {
        name: 'view',
        execute: async (input: string) => readFile((JSON.parse(input) as { file: string }).file),
      },
      { names: { view: 'read' }, keys: { file: 'path' } },
    );
    expect(count(String(await options.execute('{"file":"web/index.ts"}' as never)), WEB_RULES)).toBe(1);
    expect(events).toEqual([{ tool: 'read', input: { path: 'web/index.ts' }, ok: true }]);
  });

  test('a stream that fails is reported as failed and its error reaches the framework', async () => {
    const { session, events } = await openScenario();
    const tools = withAiSdk(session, {
      list_dir: aiTool({
        inputSchema: jsonSchema<{ path: string }>({ type: 'object' }),
        async *execute() {
          yield 'partial';
          throw new Error('disk gone');
        },
      }),
    });
    const stream = tools.list_dir.execute!({ path: 'web' }, {
      toolCallId: 'c',
      messages: [],
      context: {},
    } as never) as AsyncIterable<unknown>;
    const seen: unknown[] = [];
    await expect(
      (async () => {
        for await (const value of stream) seen.push(value);
      })(),
    ).rejects.toThrow('disk gone');
    expect(seen).toEqual(['partial']);
    expect(events).toEqual([{ tool: 'list_dir', input: { path: 'web' }, ok: false }]);
  });

  test('an execute that throws before it returns a promise is reported as failed too', async () => {
    const { session, events } = await openScenario();
    const tools = withAiSdk(session, {
      read_file: aiTool({
        inputSchema: jsonSchema<{ path: string }>({ type: 'object' }),
        execute: ({ path }): string => {
          throw new Error(`no ${path}`);
        },
      }),
    });
    await expect(
      Promise.resolve().then(() =>
        tools.read_file.execute!({ path: 'web/x' }, { toolCallId: 'c', messages: [], context: {} } as never),
      ),
    ).rejects.toThrow('no web/x');
    expect(events).toEqual([{ tool: 'read_file', input: { path: 'web/x' }, ok: false }]);
  });

  test('each entry gives back the type it was given', async () => {
    const { session } = await openScenario();
    const set = {
      read_file: aiTool({
        inputSchema: jsonSchema<{ path: string }>({ type: 'object' }),
        execute: async ({ path }) => path,
      }),
    };
    expectTypeOf(withAiSdk(session, set)).toEqualTypeOf<typeof set>();
    const options = {
      name: 'read_file',
      description: 'Read',
      parameters: z.object({ path: z.string() }),
      execute: async ({ path }: { path: string }) => path,
    };
    expectTypeOf(withAgents(session, options)).toEqualTypeOf<typeof options>();
    const lc = langchainTool(async ({ path }: { path: string }) => path, {
      name: 'read_file',
      description: 'Read',
      schema: z.object({ path: z.string() }),
    });
    expectTypeOf(withLangChain(session, [lc])).toEqualTypeOf<Array<typeof lc>>();
  });
});
