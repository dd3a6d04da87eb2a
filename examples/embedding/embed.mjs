// Embedding ctxfiles in a runner: resolve the context block for an agent in a flow step and put
// it, with the manifest of nested files, after a base prompt. Run from the repository root after
// `npm run build`:
//   node examples/embedding/embed.mjs
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { contextPrompt, createResolver, loadConfig } from 'ctxfiles';

const workDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../monorepo');
const config = await loadConfig({ cwd: workDir });
const resolver = await createResolver({ workDir, config });

const result = await resolver.resolve({ flow: 'release', step: 'implement' });
const systemPrompt = contextPrompt(result, 'You are a careful coding agent.');

console.log(`agent: ${result.agent}`);
for (const file of result.files) {
  console.log(`${file.layer.padEnd(6)} ${path.relative(workDir, file.path)} (${file.bytes} bytes, from "${file.entry}")`);
}
for (const diagnostic of result.diagnostics.filter((d) => d.level === 'warn')) {
  console.log(`warning: ${diagnostic.message}`);
}
console.log(`nested files listed: ${result.nested.length}`);
console.log(`system prompt: ${Buffer.byteLength(systemPrompt)} bytes`);
