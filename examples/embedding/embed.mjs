// Embedding ctxfiles in a runner: resolve the context block for an agent in a flow step and
// append it to a base prompt. Run from the repository root after `npm run build`:
//   node examples/embedding/embed.mjs
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createResolver, loadConfig } from 'ctxfiles';

const workDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../monorepo');
const config = await loadConfig({ cwd: workDir });
const resolver = await createResolver({ workDir, config });

const result = await resolver.resolve({ flow: 'release', step: 'implement' });
const basePrompt = 'You are a careful coding agent.';
const systemPrompt = result.text === '' ? basePrompt : `${basePrompt}\n\n${result.text}`;

console.log(`agent: ${result.agent}`);
for (const file of result.files) {
  console.log(`${file.layer.padEnd(6)} ${path.relative(workDir, file.path)} (${file.bytes} bytes, from "${file.entry}")`);
}
for (const diagnostic of result.diagnostics.filter((d) => d.level === 'warn')) {
  console.log(`warning: ${diagnostic.message}`);
}
console.log(`system prompt: ${Buffer.byteLength(systemPrompt)} bytes`);
