// The hosts the lab drives, one driver each (see README in docs/conformance.md for the interface).
// hosts/kilo.mjs runs Kilo CLI offline too but is not listed until a preset reproduces it
// (report.mjs NOT_DRIVEN says why).
import claudeCode from './claude-code.mjs';
import codex from './codex.mjs';
import geminiCli from './gemini-cli.mjs';
import opencode from './opencode.mjs';
import copilot from './copilot.mjs';
import qwenCode from './qwen-code.mjs';
import continueCli from './continue.mjs';

export const HOSTS = [codex, claudeCode, geminiCli, opencode, copilot, qwenCode, continueCli];
