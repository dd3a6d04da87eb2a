// The hosts the lab drives, one driver each (see README in docs/conformance.md for the interface).
import claudeCode from './claude-code.mjs';
import claudeCode2197 from './claude-code-2.1.197.mjs';
import codex from './codex.mjs';
import geminiCli from './gemini-cli.mjs';
import opencode from './opencode.mjs';
import copilot from './copilot.mjs';
import qwenCode from './qwen-code.mjs';
import continueCli from './continue.mjs';
import kilo from './kilo.mjs';
import pi from './pi.mjs';
import cline from './cline.mjs';

export const HOSTS = [
  codex,
  claudeCode,
  claudeCode2197,
  geminiCli,
  opencode,
  copilot,
  qwenCode,
  continueCli,
  kilo,
  pi,
  cline,
];
