import { createHostRegistry, type HostRegistry } from '../registry/registry.js';
import type { Host } from '../registry/host.js';
import { claudeCodeHost } from './claude-code/index.js';
import { clineHost } from './cline/index.js';
import { codexHost } from './codex/index.js';
import { continueHost } from './continue/index.js';
import { copilotHost } from './copilot/index.js';
import { cursorHost } from './cursor/index.js';
import { geminiCliHost } from './gemini-cli/index.js';
import { kiloHost } from './kilo/index.js';
import { opencodeGoHost } from './opencode-go/index.js';
import { opencodeHost } from './opencode/index.js';
import { piHost } from './pi/index.js';
import { qwenCodeHost } from './qwen-code/index.js';

/**
 * Every host ctxfiles reproduces, one row each, in the order `ctxfiles presets` lists their
 * presets: the one place that names them. Only the composition root (src/cli, src/index.ts,
 * src/api/lazy-api.ts) imports this file; it hands {@link HOST_REGISTRY} down to the engine.
 */
export const HOSTS: readonly Host[] = Object.freeze([
  opencodeHost,
  opencodeGoHost,
  codexHost,
  claudeCodeHost,
  cursorHost,
  copilotHost,
  geminiCliHost,
  continueHost,
  qwenCodeHost,
  kiloHost,
  piHost,
  clineHost,
]);

/** The registry of {@link HOSTS}. */
export const HOST_REGISTRY: HostRegistry = createHostRegistry(HOSTS);
