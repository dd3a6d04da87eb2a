import { frozen, type Host } from '../host.js';
import { qwenFormat } from './format.js';
import { qwenCode } from './preset.js';

/** Qwen Code, a Gemini CLI fork (docs/presets.md#qwen-code). */
export const qwenCodeHost: Host = frozen({
  id: 'qwen-code',
  title: 'Qwen Code',
  verified: { version: '0.24.4', package: '@qwen-code/qwen-code' },
  sources: [
    '@qwen-code/qwen-code 0.24.4 chunks (packages/core/src/memory/memoryDiscovery.ts: files, walk, blocks)',
    '@qwen-code/qwen-code 0.24.4 chunks (packages/core/src/utils/memory-constants.ts: QWEN.md, AGENTS.md)',
    '@qwen-code/qwen-code 0.24.4 chunks (packages/core/src/core/prompts.ts: the memory after the base prompt)',
    'https://qwenlm.github.io/qwen-code-docs/en/users/configuration/settings/ (context.fileName)',
  ],
  presets: [qwenCode],
  formats: [qwenFormat],
});
