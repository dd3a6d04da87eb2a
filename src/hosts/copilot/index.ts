import type { Host } from '../../registry/host.js';
import { copilotFormat } from './format.js';
import { copilotImportStyle } from './import-style.js';
import { copilot } from './preset.js';

/** GitHub Copilot, the CLI and the coding agent (docs/presets.md#copilot). */
export const copilotHost: Host = {
  id: 'copilot',
  title: 'GitHub Copilot CLI',
  verified: { version: '1.0.102', package: '@github/copilot' },
  sources: [
    'https://docs.github.com/en/copilot/how-tos/copilot-cli/customize-copilot/add-custom-instructions',
    'https://code.visualstudio.com/docs/agents/reference/custom-instructions-reference.md',
    '@github/copilot 1.0.102: the frames and order it sent the conformance lab (its runtime, prompts/custom_instructions.rs, is native code)',
    '@github/copilot-linux-x64 1.0.102: the runtime (copilot.tgz in the binary, prebuilds/linux-x64/runtime.node) holds the reminder text "Custom instructions from … Apply these to any code you write here:"',
  ],
  presets: [copilot],
  formats: [copilotFormat],
  importStyles: [copilotImportStyle],
  // After a `view`, Copilot CLI 1.0.102 adds the instruction files of the folders between the work
  // dir and the file, in a user message after the result (the lab's `copilot-nested-read`).
  view: { nested: { tools: ['view'], names: 'candidates' } },
};
