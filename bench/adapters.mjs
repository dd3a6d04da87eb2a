// What the framework entries (ctxfiles/ai-sdk, ctxfiles/openai-agents, ctxfiles/langchain) add to
// a tool call: each wrapped tool next to the raw tool, and next to the session call alone
// (`session.afterTool`, what hand-written glue would cost). In-process, on an in-memory repo with
// 50 nested AGENTS.md files; the model reads files in turn, so after the first round each call
// finds nothing due (the common case). Run after `npm run build`: `node bench/adapters.mjs [calls]`
// (default 20,000 calls per round, 7 rounds alternating the variants; medians of the process's CPU
// time printed, in µs per call).
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const dist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../dist');
const { createMemoryFileSystem, createResolver } = await import(path.join(dist, 'index.js'));
const { withContext: withAiSdk } = await import(path.join(dist, 'adapters/ai-sdk.js'));
const { withContext: withAgents } = await import(path.join(dist, 'adapters/openai-agents.js'));
const { withContext: withLangChain } = await import(path.join(dist, 'adapters/langchain.js'));
const { tool: langchainTool } = await import('@langchain/core/tools');
const { z } = await import('zod');

const calls = Number(process.argv[2] ?? 20_000);
const rounds = 7;
const tree = { '/repo/AGENTS.md': '# Root' };
for (let i = 0; i < 50; i++) {
  tree[`/repo/pkg${i}/AGENTS.md`] = `# Package ${i}`;
  tree[`/repo/pkg${i}/index.ts`] = `export const n = ${i};`;
}
const fs = createMemoryFileSystem(tree);
const resolver = await createResolver({
  workDir: '/repo',
  config: { contextPaths: ['AGENTS.md'] },
  fs,
  env: {},
});
const inputs = Array.from({ length: 50 }, (_, i) => ({ path: `pkg${i}/index.ts` }));
const readFile = ({ path: file }) => tree[`/repo/${file}`];
const toolCallOptions = { toolCallId: 'c', messages: [], context: {} };

const langchainReadFile = () =>
  langchainTool(async (input) => readFile(input), {
    name: 'read_file',
    description: 'Read',
    schema: z.object({ path: z.string() }),
  });

/** One variant: a fresh session each round, then `calls` calls over the 50 files. */
const variants = {
  'raw tool': async () => {
    const run = async (input) => readFile(input);
    return (i) => run(inputs[i % 50]);
  },
  'raw tool + session.afterTool (hand-written glue)': async () => {
    const session = await resolver.openSession();
    return async (i) => {
      const input = inputs[i % 50];
      const text = await session.afterTool({ tool: 'read_file', input, ok: true });
      const output = readFile(input);
      return text === '' ? output : `${output}\n\n${text}`;
    };
  },
  'ctxfiles/ai-sdk execute': async () => {
    const tools = withAiSdk(await resolver.openSession(), {
      read_file: { inputSchema: {}, execute: async (input) => readFile(input) },
    });
    return (i) => tools.read_file.execute(inputs[i % 50], toolCallOptions);
  },
  'ctxfiles/openai-agents execute': async () => {
    const options = withAgents(await resolver.openSession(), {
      name: 'read_file',
      execute: async (input) => readFile(input),
    });
    return (i) => options.execute(inputs[i % 50]);
  },
  'raw LangChain tool.invoke': async () => {
    const tool = langchainReadFile();
    return (i) => tool.invoke(inputs[i % 50]);
  },
  'ctxfiles/langchain invoke': async () => {
    const [tool] = withLangChain(await resolver.openSession(), [langchainReadFile()]);
    return (i) => tool.invoke(inputs[i % 50]);
  },
};

const samples = Object.fromEntries(Object.keys(variants).map((name) => [name, []]));
for (let round = 0; round <= rounds; round++) {
  for (const [name, make] of Object.entries(variants)) {
    const call = await make();
    // LangChain's invoke costs far more per call: a quarter of the calls keeps the round short.
    const count = name.includes('LangChain') || name.includes('langchain') ? Math.ceil(calls / 4) : calls;
    // CPU time of this process, not wall time: other processes on a busy machine do not count.
    const start = process.cpuUsage();
    for (let i = 0; i < count; i++) await call(i);
    const used = process.cpuUsage(start);
    const micros = (used.user + used.system) / count;
    if (round > 0) samples[name].push(micros); // round 0 warms up
  }
}
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
console.log(
  `node ${process.version}, ${calls} calls per round (LangChain: ${Math.ceil(calls / 4)}), median of ${rounds} rounds, CPU time`,
);
for (const [name, values] of Object.entries(samples))
  console.log(`${name.padEnd(52)} ${median(values).toFixed(2).padStart(8)} µs/call`);
