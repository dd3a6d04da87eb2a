import type { Host } from '../../registry/host.js';
import { clineFormat } from './format.js';
import { clineHook } from './hook.js';
import { clineInit } from './init.js';
import { cline } from './preset.js';

/** Cline CLI, `cline` (docs/presets.md#cline). */
export const clineHost: Host = {
  id: 'cline',
  title: 'Cline CLI',
  verified: { version: '3.0.65', package: 'cline' },
  sources: [
    'cline 3.0.65, @cline/core 0.0.86 dist/index.js (the rule loader: names, trimmed bodies, the # Rules section sorted by name)',
    'cline 3.0.65, @cline/shared 0.0.86 dist/storage/index.js (rule locations: AGENTS.md, .clinerules, .cline/rules, ~/.agents/AGENTS.md)',
    'cline 3.0.65, @cline/core 0.0.86 dist/index.js (hook files: names, folders, input, contextModification, detached TaskStart)',
    'cline 3.0.65, @cline/agents 0.0.86 dist/index.js (a hook context as a <hook_context> user message after the tool results)',
    'cline 3.0.65, @cline/shared 0.0.86 dist/storage/index.js (resolveHooksConfigSearchPaths: the hooks folders)',
  ],
  presets: [cline],
  formats: [clineFormat],
  hook: clineHook,
  init: clineInit,
};
