#!/usr/bin/env node
import path from 'node:path';
import { loadBundle } from './compile-cache.js';

// The bin is a small CommonJS loader (dist/bin/ctxfiles.cjs). It picks one of two CommonJS
// bundles — the hook alone, or every other command — and loads it through the compile cache
// (src/cli/compile-cache.ts): CommonJS spares Node's ES module loader at start-up, and the cache
// spares compiling the bundle again (docs/performance.md, "Start-up").

/** Digests of the bundles' text, set by scripts/bundle-cli.mjs when it builds this file. */
declare const CTXFILES_BUNDLE_DIGESTS: { readonly cli: string; readonly hook: string };

const argv = process.argv.slice(2);
// An agent runs `ctxfiles hook` on every tool call: its bundle holds nothing else.
const name = argv[0] === 'hook' ? 'hook' : 'cli';
const bundle = loadBundle(
  {
    file: path.join(__dirname, `${name}.cjs`),
    digest: CTXFILES_BUNDLE_DIGESTS[name],
    command: argv[0] ?? '',
  },
  process.env,
) as { main(argv: readonly string[]): Promise<number> };
void bundle.main(argv).then((code) => {
  process.exitCode = code;
});
