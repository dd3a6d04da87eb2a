#!/usr/bin/env node
import { run } from './run.js';

const code = await run(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  // process.stdin builds a stream on first access; only `session` reads it.
  get stdin() {
    return process.stdin;
  },
  env: process.env,
  cwd: process.cwd(),
});
process.exitCode = code;
