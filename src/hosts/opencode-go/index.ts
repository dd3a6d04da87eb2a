import type { Host } from '../../registry/host.js';
import { opencodeGo } from './preset.js';

/**
 * The archived Go opencode and the flows fork of spec 003 (docs/presets.md#opencode-go). Its
 * `opencode` format is the engine's default format (docs/formats.md), not a host format.
 */
export const opencodeGoHost: Host = {
  id: 'opencode-go',
  title: 'opencode (Go, archived)',
  verified: null,
  sources: [
    'opencode-ai/opencode internal/config/config.go (the contextPaths default)',
    'opencode-ai/opencode internal/llm/prompt/prompt.go (the frame)',
  ],
  presets: [opencodeGo],
};
